#!/usr/bin/env node
// Draws the seeded products' art: three small SVG views per product in apps/api/assets/products —
// `<key>.svg` (the product: its container drawn by kind, coloured by its key ingredient),
// `<key>-texture.svg` (a swatch of its texture) and `<key>-ingredients.svg` (its key ingredients).
// Reads the rows of src/seed/data/products.ts, so new seed rows get art by rerunning:
//   node apps/api/scripts/product-art.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const source = fs.readFileSync(path.join(dir, '../src/seed/data/products.ts'), 'utf8');
const out = path.join(dir, '../assets/products');

// ['key', 'Name', 'nameAm', 'Brand', 'category', 'sub', price, original, stock, featured, days, 'size', 'ingredients', ...
const ROW =
  /^\s*\['([^']+)', '([^']+)', '[^']*', '([^']+)', '(\w+)', '(\w*)', [\d.]+, [\d.]+, \d+, \w+, \d+, '([^']+)', '([^']+)'/;
const products = source
  .split('\n')
  .map((line) => line.match(ROW))
  .filter(Boolean)
  .map(([, key, name, brand, category, sub, size, ingredients]) => ({
    key,
    name,
    brand,
    category,
    sub,
    size,
    ingredients: ingredients.split(',').map((s) => s.trim()),
  }));

/** Ingredient families: what a name mentions → colour of the product and the drawing of the ingredient. */
const FAMILIES = [
  [/moringa/i, { color: '#6f9a3c', art: 'leaves', label: 'Moringa' }],
  [/coffe|buna/i, { color: '#6b3e26', art: 'beans', label: 'Coffee' }],
  [/black seed|nigella/i, { color: '#2f2b2a', art: 'seeds', label: 'Black seed' }],
  [/frankincense|boswellia|etan|oud/i, { color: '#c99a3c', art: 'resin', label: 'Frankincense' }],
  [/hibiscus/i, { color: '#a3264f', art: 'flower', label: 'Hibiscus' }],
  [/rose/i, { color: '#c8557a', art: 'flower', label: 'Rose' }],
  [/jasmine/i, { color: '#d9c7e8', art: 'flower', label: 'Jasmine' }],
  [/shea/i, { color: '#e3cfa6', art: 'nuts', label: 'Shea' }],
  [/aloe/i, { color: '#7fb77e', art: 'aloe', label: 'Aloe vera' }],
  [/teff/i, { color: '#c59a5f', art: 'grain', label: 'Teff' }],
  [/honey/i, { color: '#e0a228', art: 'honey', label: 'Honey' }],
  [/turmeric/i, { color: '#e39b1b', art: 'root', label: 'Turmeric' }],
  [/ginger/i, { color: '#d4a157', art: 'root', label: 'Ginger' }],
  [/gesho|charcoal/i, { color: '#3b3d3a', art: 'leaves', label: 'Gesho' }],
  [/castor/i, { color: '#b58b4c', art: 'seeds', label: 'Castor' }],
  [/kohl|carbon/i, { color: '#1f1d1c', art: 'seeds', label: 'Kohl' }],
  [/besobila|basil/i, { color: '#4f8a4b', art: 'leaves', label: 'Besobila' }],
  [/rosemary/i, { color: '#5f7f5a', art: 'leaves', label: 'Rosemary' }],
  [/coconut/i, { color: '#f1ede4', art: 'nuts', label: 'Coconut' }],
  [/lemon|citrus/i, { color: '#f0c419', art: 'citrus', label: 'Lemon' }],
  [/tena adam|ruta/i, { color: '#7a9a54', art: 'leaves', label: 'Tena adam' }],
  [/earth|mica/i, { color: '#b5653d', art: 'grain', label: 'Earth pigments' }],
  [/vanilla/i, { color: '#e8d7b0', art: 'nuts', label: 'Vanilla' }],
];
const family = (text) => FAMILIES.find(([re]) => re.test(text))?.[1];

const BACKGROUNDS = {
  skincare: ['#f3f6ea', '#dfe9cc'],
  makeup: ['#fbeef0', '#f1d3da'],
  haircare: ['#eaf2f4', '#cfe2e7'],
  fragrance: ['#f5f0e4', '#e6d8bb'],
};

/** The kind of container, from the product's sub-category, name and size. */
function kindOf(p) {
  const n = p.name.toLowerCase();
  if (/sheet/.test(n)) return 'sachet';
  if (/lipstick/.test(n)) return 'lipstick';
  if (/eyeliner|kohl/.test(n)) return 'pencil';
  if (/mascara/.test(n)) return 'mascara';
  if (/palette/.test(n)) return 'palette';
  if (/tint|gloss/.test(n)) return 'wand';
  if (/lip (butter|scrub)|solid perfume/.test(n)) return 'tin';
  if (/eau de parfum|cologne/.test(n)) return 'perfume';
  if (/mist|toner|remover/.test(n)) return 'spray';
  if (/perfume oil/.test(n)) return 'roller';
  if (p.sub === 'shampoo') return 'shampoo';
  if (/serum|hair oil|spot/.test(n)) return 'dropper';
  if (p.sub === 'masks' || /butter|balm|cream/.test(n))
    return /g$/.test(p.size) || p.sub === 'masks' ? 'jar' : 'pump';
  return /g$/.test(p.size) ? 'jar' : 'pump';
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const svg = (label, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="${esc(label)}">${body}</svg>\n`;
const bg = (id, [a, b]) =>
  `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="600" height="600" fill="url(#${id})"/>`;

/** Light or dark ink for a label on a colour. */
function ink(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#3a2e22' : '#fffaf0';
}

function label(p, x, y, color, width = 150) {
  const words = p.name.split(' ');
  const lines = [];
  for (const w of words) {
    const last = lines[lines.length - 1];
    if (last && (last + ' ' + w).length * 10.5 < width) lines[lines.length - 1] = last + ' ' + w;
    else lines.push(w);
  }
  const text = lines
    .slice(0, 3)
    .map((l, i) => `<tspan x="${x}" dy="${i ? 22 : 28}">${esc(l)}</tspan>`)
    .join('');
  return `<text x="${x}" y="${y}" text-anchor="middle" font-family="Georgia,serif" font-size="19" fill="${color}"><tspan x="${x}" font-family="Helvetica,Arial,sans-serif" font-size="12" letter-spacing="2">${esc(p.brand.toUpperCase())}</tspan>${text}</text>`;
}

/** The container of each kind, in the product colour, with its label. */
function container(kind, c, p) {
  const t = ink(c);
  const shadow = `<ellipse cx="300" cy="520" rx="150" ry="18" fill="#000" opacity=".08"/>`;
  switch (kind) {
    case 'dropper':
      return `${shadow}<rect x="282" y="90" width="36" height="90" rx="14" fill="#2b2b2b"/><rect x="262" y="170" width="76" height="50" rx="8" fill="#3a3a3a"/><rect x="200" y="210" width="200" height="310" rx="36" fill="${c}"/><rect x="220" y="230" width="20" height="200" rx="10" fill="#fff" opacity=".25"/><rect x="222" y="300" width="156" height="130" rx="10" fill="#fffaf0" opacity=".9"/>${label(p, 300, 330, '#3a2e22', 140)}`;
    case 'jar':
      return `${shadow}<rect x="150" y="250" width="300" height="60" rx="14" fill="#3a2e22" opacity=".85"/><rect x="160" y="300" width="280" height="220" rx="30" fill="${c}"/><rect x="180" y="340" width="240" height="120" rx="10" fill="#fffaf0" opacity=".9"/>${label(p, 300, 366, '#3a2e22', 220)}`;
    case 'pump':
      return `${shadow}<path d="M300 80h70v22h-46v40h-24z" fill="#3a3a3a"/><rect x="270" y="140" width="60" height="60" rx="8" fill="#3a3a3a"/><rect x="210" y="195" width="180" height="325" rx="30" fill="${c}"/><rect x="228" y="290" width="144" height="140" rx="10" fill="#fffaf0" opacity=".9"/>${label(p, 300, 320, '#3a2e22', 130)}`;
    case 'shampoo':
      return `${shadow}<rect x="255" y="100" width="90" height="50" rx="12" fill="${t === '#fffaf0' ? '#e9e2d4' : '#3a2e22'}"/><path d="M215 520V220q0-70 85-70t85 70v300z" fill="${c}"/><rect x="232" y="300" width="136" height="150" rx="10" fill="#fffaf0" opacity=".9"/>${label(p, 300, 330, '#3a2e22', 125)}`;
    case 'perfume':
      return `${shadow}<rect x="265" y="110" width="70" height="70" rx="35" fill="#c9a24a"/><rect x="285" y="170" width="30" height="40" fill="#8a6a2a"/><path d="M180 220h240l30 60v240H150V280z" fill="${c}" opacity=".92"/><path d="M180 220h60l-30 300h-60V280z" fill="#fff" opacity=".18"/><rect x="200" y="320" width="200" height="130" rx="6" fill="#fffaf0" opacity=".9"/>${label(p, 300, 350, '#3a2e22', 180)}`;
    case 'spray':
      return `${shadow}<rect x="270" y="100" width="60" height="40" rx="6" fill="#d8d2c6"/><rect x="258" y="135" width="84" height="40" rx="8" fill="#3a3a3a"/><rect x="215" y="170" width="170" height="350" rx="24" fill="${c}" opacity=".9"/><rect x="232" y="280" width="136" height="150" rx="10" fill="#fffaf0" opacity=".9"/>${label(p, 300, 310, '#3a2e22', 125)}`;
    case 'roller':
      return `${shadow}<rect x="262" y="90" width="76" height="120" rx="12" fill="#c9a24a"/><rect x="240" y="205" width="120" height="315" rx="20" fill="${c}" opacity=".9"/><rect x="252" y="300" width="96" height="150" rx="8" fill="#fffaf0" opacity=".9"/>${label(p, 300, 330, '#3a2e22', 85)}`;
    case 'lipstick':
      return `${shadow}<path d="M255 230V150l90-40v120z" fill="${c}"/><rect x="240" y="225" width="120" height="70" rx="6" fill="#c9a24a"/><rect x="225" y="290" width="150" height="230" rx="10" fill="#2b2b2b"/>${label(p, 300, 370, '#f5e6c8', 130)}`;
    case 'wand':
      return `${shadow}<rect x="270" y="70" width="60" height="170" rx="12" fill="#2b2b2b"/><rect x="250" y="230" width="100" height="290" rx="24" fill="${c}" opacity=".85"/><rect x="262" y="300" width="76" height="150" rx="8" fill="#fffaf0" opacity=".92"/>${label(p, 300, 330, '#3a2e22', 70)}`;
    case 'mascara':
      return `${shadow}<rect x="270" y="70" width="60" height="200" rx="12" fill="#2b2b2b"/><rect x="250" y="260" width="100" height="260" rx="16" fill="${c}"/><rect x="262" y="320" width="76" height="140" rx="8" fill="#fffaf0" opacity=".92"/>${label(p, 300, 350, '#3a2e22', 70)}`;
    case 'pencil':
      return `${shadow}<g transform="rotate(-30 300 300)"><rect x="270" y="120" width="60" height="380" rx="8" fill="#3a2e22"/><path d="M270 120l30-60 30 60z" fill="#e3c9a0"/><path d="M288 84l12-24 12 24z" fill="${c}"/><rect x="270" y="440" width="60" height="60" fill="#c9a24a"/></g>${label(p, 430, 470, '#3a2e22', 190)}`;
    case 'palette': {
      const shades = [
        '#b5653d',
        '#8a4a2b',
        '#d9a27a',
        '#6b3e26',
        '#c98a5a',
        '#e8c4a0',
        '#4a2e20',
        '#a36a48',
        '#f0d8b8',
      ];
      const pans = shades
        .map(
          (s, i) =>
            `<circle cx="${210 + (i % 3) * 90}" cy="${230 + Math.floor(i / 3) * 90}" r="36" fill="${s}"/>`,
        )
        .join('');
      return `${shadow}<rect x="140" y="170" width="320" height="350" rx="24" fill="#2b2b2b"/>${pans}${label(p, 300, 490, '#f5e6c8', 280)}`;
    }
    case 'tin':
      return `${shadow}<ellipse cx="300" cy="420" rx="170" ry="60" fill="#8a8276"/><rect x="130" y="330" width="340" height="90" fill="#a39a8c"/><ellipse cx="300" cy="330" rx="170" ry="60" fill="${c}"/><ellipse cx="300" cy="330" rx="120" ry="38" fill="#fffaf0" opacity=".9"/>${label(p, 300, 318, '#3a2e22', 200)}`;
    case 'sachet':
      return `${shadow}<path d="M170 130h260l-10 20 10 20v330l-10 20H180l-10-20V170l10-20z" fill="${c}"/><rect x="200" y="250" width="200" height="160" rx="10" fill="#fffaf0" opacity=".9"/>${label(p, 300, 285, '#3a2e22', 180)}`;
    default:
      return '';
  }
}

/** The texture swatch: drops for serums and oils, a dollop for creams, a stroke for colour, foam, mist. */
function texture(kind, c) {
  const light = `<circle cx="120" cy="110" r="60" fill="#fff" opacity=".35"/>`;
  if (['dropper', 'roller'].includes(kind))
    return `${light}<path d="M300 120c70 110 120 170 120 240a120 120 0 0 1-240 0c0-70 50-130 120-240z" fill="${c}" opacity=".85"/><path d="M250 330c0-30 20-60 40-90" stroke="#fff" stroke-width="14" stroke-linecap="round" fill="none" opacity=".5"/><circle cx="450" cy="470" r="34" fill="${c}" opacity=".7"/><circle cx="150" cy="480" r="22" fill="${c}" opacity=".6"/>`;
  if (['lipstick', 'wand', 'pencil', 'mascara'].includes(kind))
    return `${light}<path d="M90 380c80-120 180-160 260-150s110 40 170-20" stroke="${c}" stroke-width="70" stroke-linecap="round" fill="none"/><path d="M120 360c70-90 150-120 220-112" stroke="#fff" stroke-width="10" stroke-linecap="round" fill="none" opacity=".35"/>`;
  if (kind === 'palette')
    return `${light}${['#b5653d', '#6b3e26', '#d9a27a', '#4a2e20'].map((s, i) => `<path d="M${90 + i * 110} 420c20-140 60-200 80-200s40 60 30 200z" fill="${s}"/>`).join('')}`;
  if (kind === 'shampoo')
    return `${light}<rect x="120" y="300" width="360" height="200" rx="100" fill="${c}" opacity=".55"/>${[
      [200, 280, 60],
      [300, 250, 80],
      [410, 290, 55],
      [260, 360, 45],
      [370, 370, 50],
    ]
      .map(
        ([x, y, r]) =>
          `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" opacity=".8" stroke="${c}" stroke-width="4"/>`,
      )
      .join('')}`;
  if (['perfume', 'spray'].includes(kind))
    return `${light}${Array.from({ length: 26 }, (_, i) => {
      const a = i * 2.4;
      const r = 40 + i * 8;
      return `<circle cx="${(300 + Math.cos(a) * r).toFixed(0)}" cy="${(300 + Math.sin(a) * r * 0.7).toFixed(0)}" r="${(18 - i * 0.5).toFixed(1)}" fill="${c}" opacity=".55"/>`;
    }).join('')}`;
  return `${light}<path d="M150 420c-40-80 20-170 110-160 10-70 120-90 150-20 80 0 110 100 60 160z" fill="${c}"/><path d="M220 330c40-40 110-40 150 0" stroke="#fff" stroke-width="14" stroke-linecap="round" fill="none" opacity=".45"/><path d="M210 300c30 20 60 25 90 20" stroke="#000" stroke-width="6" stroke-linecap="round" fill="none" opacity=".08"/>`;
}

/** One small drawing per ingredient family, centred on (x, y). */
function ingredientArt(art, c, x, y) {
  const at = (body) => `<g transform="translate(${x} ${y})">${body}</g>`;
  switch (art) {
    case 'leaves':
      return at(
        [-50, 0, 50]
          .map(
            (dx, i) =>
              `<path d="M${dx} 60c-50-40-40-110 0-130 40 20 50 90 0 130z" fill="${c}" transform="rotate(${(i - 1) * 30} ${dx} 60)"/><path d="M${dx} 60V-50" stroke="#fff" stroke-width="3" opacity=".5" transform="rotate(${(i - 1) * 30} ${dx} 60)"/>`,
          )
          .join(''),
      );
    case 'beans':
      return at(
        [
          [-40, 10, 20],
          [40, -10, -25],
          [0, 50, 70],
        ]
          .map(
            ([dx, dy, r]) =>
              `<g transform="translate(${dx} ${dy}) rotate(${r})"><ellipse rx="38" ry="52" fill="#6b3e26"/><path d="M0-48c-14 30 14 66 0 96" stroke="#3a2016" stroke-width="6" fill="none"/></g>`,
          )
          .join(''),
      );
    case 'seeds':
      return at(
        Array.from(
          { length: 18 },
          (_, i) =>
            `<ellipse cx="${((i * 37) % 140) - 70}" cy="${((i * 53) % 120) - 60}" rx="11" ry="7" fill="${c === '#f1ede4' ? '#2f2b2a' : c}" transform="rotate(${i * 40} ${((i * 37) % 140) - 70} ${((i * 53) % 120) - 60})"/>`,
        ).join(''),
      );
    case 'resin':
      return at(
        [
          [-45, 10, 40],
          [35, -20, 34],
          [20, 50, 28],
        ]
          .map(
            ([dx, dy, r]) =>
              `<path d="M${dx - r} ${dy}l${r * 0.6}-${r}h${r * 0.9}l${r * 0.5} ${r * 0.8}-${r * 0.5} ${r}h-${r}z" fill="${c}" stroke="#8a6a2a" stroke-width="3"/>`,
          )
          .join(''),
      );
    case 'flower':
      return at(
        `${Array.from({ length: 6 }, (_, i) => `<ellipse cx="0" cy="-50" rx="32" ry="52" fill="${c}" transform="rotate(${i * 60})"/>`).join('')}<circle r="26" fill="#f0c419"/>`,
      );
    case 'nuts':
      return at(
        `<ellipse cx="-40" cy="10" rx="50" ry="44" fill="#8a6a44"/><ellipse cx="40" cy="-5" rx="50" ry="44" fill="${c}" stroke="#8a6a44" stroke-width="4"/><ellipse cx="20" cy="55" rx="40" ry="30" fill="${c}" stroke="#8a6a44" stroke-width="4"/>`,
      );
    case 'aloe':
      return at(
        [-40, -15, 15, 40]
          .map(
            (dx, i) =>
              `<path d="M${dx} 70c-10-60-${20 - i * 10}-120 ${(i - 1.5) * 30}-150 10 40 20 100 14 150z" fill="${c}" stroke="#4f7a4e" stroke-width="3"/>`,
          )
          .join(''),
      );
    case 'grain':
      return at(
        `${[-40, 0, 40].map((dx) => `<path d="M${dx} 80V-60" stroke="#8a6a44" stroke-width="4"/>${Array.from({ length: 6 }, (_, j) => `<ellipse cx="${dx + (j % 2 ? 10 : -10)}" cy="${-50 + j * 18}" rx="9" ry="5" fill="${c}"/>`).join('')}`).join('')}`,
      );
    case 'honey':
      return at(
        `<path d="M-60 -30h120l-10 110h-100z" fill="${c}" opacity=".85"/><path d="M-70-40h140" stroke="#8a6a44" stroke-width="10" stroke-linecap="round"/><path d="M0-40c0-40 30-40 30-70" stroke="#8a6a44" stroke-width="8" fill="none"/><path d="M30 40c0 20-12 30-12 40a12 12 0 0 0 24 0c0-10-12-20-12-40z" fill="#fff" opacity=".4"/>`,
      );
    case 'root':
      return at(
        `<path d="M-80 20c0-40 40-50 70-30 20-40 70-30 80 0 30 0 40 40 10 60-30 20-130 30-160-30z" fill="${c}" stroke="#8a5a20" stroke-width="4"/><circle cx="-20" cy="20" r="22" fill="#f6c04a" stroke="#8a5a20" stroke-width="4"/>`,
      );
    case 'citrus':
      return at(
        `<circle r="70" fill="#f0c419"/><circle r="58" fill="#fbe7a1"/>${Array.from({ length: 8 }, (_, i) => `<path d="M0 0L${(Math.cos((i * Math.PI) / 4) * 56).toFixed(0)} ${(Math.sin((i * Math.PI) / 4) * 56).toFixed(0)}" stroke="#f0c419" stroke-width="4"/>`).join('')}`,
      );
    default:
      return at(`<circle r="60" fill="${c}"/>`);
  }
}

fs.mkdirSync(out, { recursive: true });
let bytes = 0;
for (const p of products) {
  const main = family(p.name) ??
    family(p.ingredients.join(' ')) ?? { color: '#8a6a44', art: 'leaves', label: '' };
  const kind = kindOf(p);
  const c = main.color;
  const colours = BACKGROUNDS[p.category];
  // the two key ingredients (the first two of the list but solvents), each drawn by its family
  const keys = p.ingredients
    .filter((i) => !/alcohol|^aqua|water$/i.test(i))
    .slice(0, 2)
    .map((name) => ({ name, f: family(name) ?? main }));
  const files = {
    [`${p.key}.svg`]: svg(
      p.name,
      bg('g', colours) +
        `<circle cx="480" cy="110" r="70" fill="#fff" opacity=".3"/>` +
        container(kind, c, p),
    ),
    [`${p.key}-texture.svg`]: svg(`${p.name}: texture`, bg('g', [colours[0], colours[0]]) + texture(kind, c)),
    [`${p.key}-ingredients.svg`]: svg(
      `${p.name}: key ingredients`,
      bg('g', colours) +
        keys.map((k, i) => ingredientArt(k.f.art, k.f.color, i ? 420 : 180, 250)).join('') +
        keys
          .map(
            (k, i) =>
              `<text x="${i ? 420 : 180}" y="${400}" text-anchor="middle" font-family="Georgia,serif" font-size="24" fill="#3a2e22">${esc(
                k.name
                  .replace(/ (seed|leaf|flower|root|resin) .*$/i, '')
                  .replace(/\s*\(.*\)/, '')
                  .slice(0, 22),
              )}</text>`,
          )
          .join(''),
    ),
  };
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(out, name), text);
    bytes += text.length;
  }
}
console.log(`${products.length} products, ${products.length * 3} files, ${(bytes / 1024).toFixed(1)} KiB`);
