#!/usr/bin/env node
// The fonts of the storefront's pages and of the back office, cut from Noto Sans Ethiopic
// (@fontsource/noto-sans-ethiopic), whose Ethiopic face is 75 KB per weight: every Ethiopic block (Ge'ez,
// Tigrinya, the Sebatbeit, Me'en and Gumuz supplements...) and its kerning pairs.
// - Storefront, English pages: one Ethiopic word of their own, the language switch's 'አማርኛ': its glyphs
//   only (app/fonts/amharic-label-400.woff2, about 1 KB, family 'Noto Sans Ethiopic Label'), the font's
//   Latin faces, and the Amharic cut below with its unicode-range (downloaded only by a page that shows
//   Ethiopic text: a review, a name): apps/storefront/app/fonts/english-pages.css.
// - Storefront, Amharic pages: the basic Ethiopic block U+1200-137F without the kerning pairs, in two
//   parts per weight: Amharic's own syllables and punctuation (11 KB: app/fonts/amharic-{400,700}.woff2,
//   preloaded) and the rest of the block (6 KB: app/fonts/amharic-rest-{400,700}.woff2, downloaded only
//   by a page that shows one of its characters), a phone's own copy of the font first (Android ships Noto Sans
//   Ethiopic: `local()`, nothing downloaded), and the same Latin faces: app/fonts/amharic-pages.css.
//   root.tsx puts one of the two style sheets in the page's head.
// - Back office: the whole block's cut (one file per weight) in the three weights its theme uses (400, 500, 700) and the Latin
//   faces: apps/admin/src/font-files/noto-sans-ethiopic.css (imported by src/fonts.ts).
// Characters of the other Ethiopic blocks (rare in Amharic text, possible in a name) fall back to the
// system's fonts.
//
//   node scripts/fonts.mjs    # after changing the label, the weights or the font package
//   (subset-font and prettier: devDependencies of apps/storefront and of the root, installed by npm ci)
//
// The generated files are committed; apps/storefront/app/fonts/page-fonts.test.ts checks them against the
// label, the Amharic dictionaries and the seeded catalogue, and the e2e tests check what pages draw.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import subsetFont from 'subset-font';

/** Keep in step with AMHARIC_LANGUAGE_NAME in apps/storefront/app/language.ts (the test compares them). */
const LABEL = 'አማርኛ';
const PACKAGE = '@fontsource/noto-sans-ethiopic';

const require = createRequire(import.meta.url);
const out = (name) => fileURLToPath(new URL(`../apps/storefront/app/fonts/${name}`, import.meta.url));
const adminOut = (name) => fileURLToPath(new URL(`../apps/admin/src/font-files/${name}`, import.meta.url));
mkdirSync(fileURLToPath(new URL('../apps/admin/src/font-files/', import.meta.url)), { recursive: true });

const woff2 = await subsetFont(
  readFileSync(require.resolve(`${PACKAGE}/files/noto-sans-ethiopic-ethiopic-400-normal.woff2`)),
  LABEL,
  // the glyphs only: four Ethiopic syllables need no OpenType layout features
  { targetFormat: 'woff2', keepFeatures: [] },
);
writeFileSync(out('amharic-label-400.woff2'), woff2);

/** The Ethiopic block of Unicode (U+1200-137F): what Amharic is written with. */
const AMHARIC_FIRST = 0x1200;
const AMHARIC_LAST = 0x137f;
const BLOCK = [];
for (let c = AMHARIC_FIRST; c <= AMHARIC_LAST; c++) BLOCK.push(c);
/**
 * The storefront's Amharic cut is split in two (docs/decisions/0100-save-data-and-page-weight.md): the
 * syllables of Amharic's 34 consonant rows (each row's seven orders and its -wa form), the labialised
 * ቈ ኈ ኰ ጐ series and the punctuation, which every Amharic page draws (about 11 KB a weight, preloaded);
 * and the rest of the block (Tigrinya's ቐ, Oromo's ዸ, Sebat Bet's ጘ, the numerals...; about 6 KB),
 * declared with its own unicode-range so that only a page showing one of them downloads it.
 */
const AMHARIC_ROWS = [
  0x1200, 0x1208, 0x1210, 0x1218, 0x1220, 0x1228, 0x1230, 0x1238, 0x1240, 0x1260, 0x1268, 0x1270, 0x1278,
  0x1280, 0x1290, 0x1298, 0x12a0, 0x12a8, 0x12b8, 0x12c8, 0x12d0, 0x12d8, 0x12e0, 0x12e8, 0x12f0, 0x1300,
  0x1308, 0x1320, 0x1328, 0x1330, 0x1338, 0x1340, 0x1348, 0x1350,
];
const CORE = new Set();
for (const row of AMHARIC_ROWS) for (let i = 0; i < 8; i++) CORE.add(row + i);
for (const series of [0x1248, 0x1288, 0x12b0, 0x1310]) for (const i of [0, 2, 3, 4, 5]) CORE.add(series + i);
for (let c = 0x1360; c <= 0x1368; c++) CORE.add(c);
const CORE_POINTS = BLOCK.filter((c) => CORE.has(c));
const REST_POINTS = BLOCK.filter((c) => !CORE.has(c));
const textOf = (points) => points.map((c) => String.fromCodePoint(c)).join('');
/** A unicode-range of code points (runs joined: U+1200-1247, U+1248, ...). */
function rangeOf(points) {
  const runs = [];
  for (const c of points) {
    const last = runs.at(-1);
    if (last && last[1] === c - 1) last[1] = c;
    else runs.push([c, c]);
  }
  const hex = (c) => c.toString(16).toUpperCase();
  return runs.map(([a, b]) => (a === b ? `U+${hex(a)}` : `U+${hex(a)}-${hex(b)}`)).join(', ');
}
/** The names a system copy of the font has (full name, PostScript name) for `local()`. */
const LOCAL_NAMES = {
  400: ['Noto Sans Ethiopic Regular', 'NotoSansEthiopic-Regular', 'Noto Sans Ethiopic'],
  500: ['Noto Sans Ethiopic Medium', 'NotoSansEthiopic-Medium'],
  700: ['Noto Sans Ethiopic Bold', 'NotoSansEthiopic-Bold'],
};
/**
 * The OpenType features kept in the Amharic cut: harfbuzz's default set without kerning. The font's
 * Ethiopic kerning pairs are two thirds of its size (28 of 44 KB per weight) and move Amharic text by
 * about 1.6% of its width (measured over the storefront's texts: a line of 360 px ends ~6 px later).
 */
const AMHARIC_FEATURES = [
  'abvm',
  'blwm',
  'calt',
  'ccmp',
  'clig',
  'curs',
  'dist',
  'liga',
  'locl',
  'mark',
  'mkmk',
  'rclt',
  'rlig',
  'rvrn',
];
/** The family of the language switch's 'አማርኛ' on English pages (styles.css `.language select`). */
const LABEL_FAMILY = 'Noto Sans Ethiopic Label';
/** One @font-face of the family: a file beside the style sheet, system copies (`local()`) first. */
function fontFace(comment, { weight, file, range, locals = [], family = 'Noto Sans Ethiopic' }) {
  const sources = [...locals.map((name) => `local('${name}')`), `url(./${file}) format('woff2')`];
  return `/* ${comment} */
@font-face {
  font-family: '${family}';
  font-style: normal;
  font-display: swap;
  font-weight: ${weight};
  src: ${sources.join(', ')};
  unicode-range: ${range};
}`;
}

const AMHARIC_RANGE = `U+${AMHARIC_FIRST.toString(16).toUpperCase()}-${AMHARIC_LAST.toString(16).toUpperCase()}`;
/** The cuts of each weight and part, made once (the storefront and the back office get the same bytes). */
const cuts = new Map();
function amharicCut(weight, points = BLOCK) {
  const key = `${weight} ${points.length}`;
  if (!cuts.has(key))
    cuts.set(
      key,
      subsetFont(
        readFileSync(require.resolve(`${PACKAGE}/files/noto-sans-ethiopic-ethiopic-${weight}-normal.woff2`)),
        textOf(points),
        { targetFormat: 'woff2', keepFeatures: AMHARIC_FEATURES },
      ),
    );
  return cuts.get(key);
}

/**
 * Writes the Amharic cut of `weight` through `out` and answers its @font-face: the whole block as
 * amharic-<weight>.woff2 (the back office), or for the storefront (`split`) Amharic's own syllables as
 * amharic-<weight>.woff2 and the rest of the block as amharic-rest-<weight>.woff2, two faces.
 */
async function amharicFace(weight, out, split = false) {
  const parts = split
    ? [
        { file: `amharic-${weight}.woff2`, points: CORE_POINTS, comment: `Amharic, ${weight}` },
        {
          file: `amharic-rest-${weight}.woff2`,
          points: REST_POINTS,
          comment: `Ethiopic beyond Amharic, ${weight}`,
        },
      ]
    : [{ file: `amharic-${weight}.woff2`, points: BLOCK, comment: `Amharic, ${weight}` }];
  const faces = [];
  for (const { file, points, comment } of parts) {
    const cut = await amharicCut(weight, points);
    writeFileSync(out(file), cut);
    console.log(`${out(file)}: ${cut.length} bytes`);
    const range = points === BLOCK ? AMHARIC_RANGE : rangeOf(points);
    faces.push(fontFace(comment, { weight, file, range, locals: LOCAL_NAMES[weight] }));
  }
  return faces.join('\n\n');
}

/** The package's Latin and Latin Extended faces of some weights, with their unicode-ranges, files by package path. */
function latinFacesOf(weights) {
  const faces = weights.flatMap((weight) =>
    readFileSync(require.resolve(`${PACKAGE}/${weight}.css`), 'utf8')
      .split(/(?=\/\* noto-sans-ethiopic-)/)
      .map((block) => block.trim())
      .filter((block) => block.startsWith('/* noto-sans-ethiopic-latin'))
      .map((block) => block.replaceAll('url(./files/', `url(${PACKAGE}/files/`)),
  );
  if (faces.length !== weights.length * 2)
    throw new Error(`expected ${weights.length * 2} Latin faces in ${PACKAGE}, found ${faces.length}`);
  return faces;
}

const amharicFaces = [];
for (const weight of ['400', '700']) amharicFaces.push(await amharicFace(weight, out, true));
/**
 * The storefront's Latin faces: the package's Latin face of each weight is split like the Amharic cut
 * (docs/decisions/0100-save-data-and-page-weight.md): printable ASCII and the typographic marks the shop's
 * texts use, in latin-<weight>.woff2 (about 6 KB against 10.5, preloaded by root.tsx), and the package's
 * file for the rest of its range (accented letters of a name, other symbols), downloaded only by a page
 * that shows one of them. The Latin Extended faces stay as they were.
 */
const LATIN_CORE = [];
for (let c = 0x20; c < 0x7f; c++) LATIN_CORE.push(c);
for (const mark of '\u00a0\u00a7\u00a9\u00b7\u00d7\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u2039\u203a\u20ac\u2212')
  LATIN_CORE.push(mark.codePointAt(0));
LATIN_CORE.sort((a, b) => a - b);
/** The code points of a unicode-range (`U+0000-00FF, U+0131, …`). */
function pointsOf(range) {
  const points = [];
  for (const part of range.split(',')) {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
    for (let c = parseInt(from, 16); c <= parseInt(to, 16); c++) points.push(c);
  }
  return points;
}
async function storefrontLatinFaces() {
  const faces = [];
  for (const face of latinFacesOf(['400', '700'])) {
    if (!/\/\* noto-sans-ethiopic-latin-(400|700)-normal \*\//.test(face)) {
      faces.push(face);
      continue;
    }
    const weight = /font-weight:\s*(\d+)/.exec(face)[1];
    const range = pointsOf(/unicode-range:\s*([^;]+);/.exec(face)[1]);
    const core = LATIN_CORE.filter((c) => range.includes(c));
    const rest = range.filter((c) => !core.includes(c));
    const file = `latin-${weight}.woff2`;
    const cut = await subsetFont(
      readFileSync(require.resolve(`${PACKAGE}/files/noto-sans-ethiopic-latin-${weight}-normal.woff2`)),
      textOf(core),
      { targetFormat: 'woff2' },
    );
    writeFileSync(out(file), cut);
    console.log(`${out(file)}: ${cut.length} bytes`);
    faces.push(fontFace(`Latin, ${weight}`, { weight, file, range: rangeOf(core) }));
    faces.push(face.replace(/unicode-range:\s*[^;]+;/, `unicode-range: ${rangeOf(rest)};`));
  }
  return faces;
}
const latinFaces = await storefrontLatinFaces();

const codePoints = [...new Set([...LABEL].map((c) => c.codePointAt(0)))].sort((a, b) => a - b);
const range = codePoints.map((c) => `U+${c.toString(16).toUpperCase()}`).join(', ');
const css = `/* Generated by scripts/fonts.mjs: the fonts of English pages. Noto Sans Ethiopic's
   Latin faces; the Amharic cut of Amharic pages, declared with its unicode-range so that a page
   downloads it only when it shows Ethiopic text (a review, a name, a chosen region); and for the
   language switch's '${LABEL}', shown on every English page, its glyphs only, in a family of their own
   (${LABEL_FAMILY}) so that the switch alone never downloads the cut (docs/decisions/0078). */
${latinFaces.join('\n\n')}

${amharicFaces.join('\n\n')}

${fontFace(LABEL, { weight: 400, file: 'amharic-label-400.woff2', range, family: LABEL_FAMILY })}
`;
const amharicCss = `/* Generated by scripts/fonts.mjs: the fonts of Amharic pages. Noto Sans Ethiopic's basic
   Ethiopic block (a phone's own copy first) and its Latin faces. */
${amharicFaces.join('\n\n')}

${latinFaces.join('\n\n')}
`;
// the back office: the Amharic cut and the Latin faces in the theme's weights (src/theme.ts FONT_WEIGHTS)
const ADMIN_WEIGHTS = ['400', '500', '700'];
const adminFaces = [];
for (const weight of ADMIN_WEIGHTS) adminFaces.push(await amharicFace(weight, adminOut));
const adminCss = `/* Generated by scripts/fonts.mjs: the back office's fonts. Noto Sans Ethiopic's basic Ethiopic
   block (a system copy first) and its Latin faces, in the theme's weights. */
${adminFaces.join('\n\n')}

${latinFacesOf(ADMIN_WEIGHTS).join('\n\n')}
`;

for (const [cssFile, text] of [
  [out('english-pages.css'), css],
  [out('amharic-pages.css'), amharicCss],
  [adminOut('noto-sans-ethiopic.css'), adminCss],
]) {
  const options = (await prettier.resolveConfig(cssFile)) ?? {};
  writeFileSync(cssFile, await prettier.format(text, { ...options, filepath: cssFile }));
}
console.log(
  `amharic-label-400.woff2: ${woff2.length} bytes, unicode-range ${range}; english-pages.css, amharic-pages.css and the back office's noto-sans-ethiopic.css written`,
);
