import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fontverter from 'fontverter';
import { Blob, Face } from 'harfbuzzjs';
import { describe, expect, it } from 'vitest';
import { AMHARIC_LANGUAGE_NAME } from '../language';

const file = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const codePoints = (text: string) => [...new Set([...text].map((c) => c.codePointAt(0)!))].sort();

/** The code points of an @font-face's unicode-range (single values and ranges such as U+1200-1399). */
function unicodeRange(face: string): number[] {
  const range = /unicode-range:\s*([^;]+);/.exec(face)?.[1] ?? '';
  const points: number[] = [];
  for (const part of range.split(',')) {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
    for (let c = parseInt(from, 16); c <= parseInt(to, 16); c++) points.push(c);
  }
  return points;
}

/** Any Ethiopic block (the basic one, its supplement, the extended ones). */
const isEthiopic = (c: number) =>
  (c >= 0x1200 && c <= 0x139f) ||
  (c >= 0x2d80 && c <= 0x2ddf) ||
  (c >= 0xab00 && c <= 0xab2f) ||
  (c >= 0x1e7e0 && c <= 0x1e7ff);

describe('the fonts of English pages (app/fonts/english-pages.css)', () => {
  const faces = readFileSync(file('./english-pages.css'), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? [];

  it("gives the language switch's Amharic name a face of its own family, so that it never downloads the cut", () => {
    const label = faces.filter((face) => face.includes('amharic-label-400.woff2'));
    expect(label).toHaveLength(1);
    expect(label[0]).toContain("font-family: 'Noto Sans Ethiopic Label'");
    expect(unicodeRange(label[0]).sort()).toEqual(codePoints(AMHARIC_LANGUAGE_NAME));
  });

  it('declares the Amharic cut of Amharic pages, with its unicode-range (Ethiopic text on an English page)', () => {
    const amharic = readFileSync(file('./amharic-pages.css'), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? [];
    const cut = (list: string[]) =>
      list.filter((face) => /amharic-(rest-)?(400|700)\.woff2/.test(face)).map((f) => f.replace(/\s+/g, ' '));
    // Amharic's syllables and the rest of the block, in two weights
    expect(cut(faces)).toHaveLength(4);
    expect(cut(faces)).toEqual(cut(amharic));
    for (const face of cut(faces)) expect(face).toContain("font-family: 'Noto Sans Ethiopic'");
    const covered = cut(faces).flatMap(unicodeRange);
    expect(Math.min(...covered)).toBe(0x1200);
    expect(Math.max(...covered)).toBe(0x137f);
  });

  it('keeps the Latin faces (400 and 700) that Amharic pages have too', () => {
    const latin = faces.filter((face) => unicodeRange(face).includes('A'.codePointAt(0)!));
    expect(latin.map((face) => /font-weight:\s*(\d+)/.exec(face)?.[1]).sort()).toEqual(['400', '700']);
  });

  it('has a glyph for every character of the label, in a tiny file', async () => {
    const woff2 = readFileSync(file('./amharic-label-400.woff2'));
    expect(woff2.length).toBeLessThan(4096);
    const face = new Face(new Blob(await fontverter.convert(woff2, 'truetype')));
    expect([...face.collectUnicodes()].sort()).toEqual(codePoints(AMHARIC_LANGUAGE_NAME));
  });
});

/** The code points a woff2 file has glyphs for. */
async function unicodesOf(name: string): Promise<number[]> {
  const face = new Face(new Blob(await fontverter.convert(readFileSync(file(name)), 'truetype')));
  return [...face.collectUnicodes()];
}

/** The Ethiopic characters the storefront shows in Amharic: its dictionaries and the seeded catalogue. */
function amharicTextOfTheShop(): string {
  const i18n = fileURLToPath(new URL('../../../../libs/i18n/src/', import.meta.url));
  const dictionaries = readdirSync(i18n)
    .filter((name) => name === 'am.json' || name.endsWith('.am.json'))
    .map((name) => readFileSync(i18n + name, 'utf8'));
  expect(dictionaries.length).toBeGreaterThan(3);
  // the catalogue's Amharic names, descriptions, ingredients and benefits (read as text: the API's seed)
  const seed = readFileSync(
    fileURLToPath(new URL('../../../api/src/seed/data/products.ts', import.meta.url)),
    'utf8',
  );
  const shared = fileURLToPath(new URL('../../../../libs/shared/src/', import.meta.url));
  const sharedText = readdirSync(shared, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => readFileSync(shared + name, 'utf8'));
  return [...dictionaries, seed, ...sharedText].join('\n');
}

describe('the fonts of Amharic pages (app/fonts/amharic-pages.css)', () => {
  const faces = readFileSync(file('./amharic-pages.css'), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? [];
  const ethiopicFaces = faces.filter((face) => unicodeRange(face).some(isEthiopic));

  it('cuts the Ethiopic face to the basic block in two parts, in both weights, a system copy first', async () => {
    // docs/decisions/0100-save-data-and-page-weight.md: Amharic's own syllables (preloaded) and the rest
    expect(ethiopicFaces.map((face) => /font-weight:\s*(\d+)/.exec(face)?.[1]).sort()).toEqual([
      '400',
      '400',
      '700',
      '700',
    ]);
    for (const weight of ['400', '700']) {
      const ofWeight = ethiopicFaces.filter((face) => face.includes(`font-weight: ${weight};`));
      const core = ofWeight.find((face) => face.includes(`url(./amharic-${weight}.woff2)`)) ?? '';
      const rest = ofWeight.find((face) => face.includes(`url(./amharic-rest-${weight}.woff2)`)) ?? '';
      // together the whole block, each code point in one face only
      const block = Array.from({ length: 0x1380 - 0x1200 }, (_, i) => 0x1200 + i);
      expect([...unicodeRange(core), ...unicodeRange(rest)].sort((a, b) => a - b)).toEqual(block);
      // code points the font draws at all (the block has a few unassigned ones)
      const drawn = new Set([
        ...(await unicodesOf(`./amharic-${weight}.woff2`)),
        ...(await unicodesOf(`./amharic-rest-${weight}.woff2`)),
      ]);
      expect(drawn.size).toBeGreaterThan(350);
      for (const [face, name] of [
        [core, `amharic-${weight}`],
        [rest, `amharic-rest-${weight}`],
      ]) {
        const src = /src:([^;]+);/.exec(face)?.[1] ?? '';
        expect(src.trim()).toMatch(/^local\('Noto Sans Ethiopic/);
        expect(src.trim()).toMatch(new RegExp(`url\\(\\./${name}\\.woff2\\) format\\('woff2'\\)$`));
        // each file has a glyph for every code point its face claims (none is drawn by a fallback)
        const glyphs = new Set(await unicodesOf(`./${name}.woff2`));
        expect(unicodeRange(face).filter((c) => drawn.has(c) && !glyphs.has(c))).toEqual([]);
      }
      // the part every Amharic page takes is the smaller one by far
      expect(readFileSync(file(`./amharic-${weight}.woff2`)).length).toBeLessThan(12 * 1024);
    }
  });

  it('has a glyph for every Ethiopic character of the dictionaries and the catalogue, in both weights', async () => {
    const used = codePoints(amharicTextOfTheShop()).filter(isEthiopic);
    // the shop's Amharic is real: hundreds of distinct syllables, all of them in the basic block
    expect(used.length).toBeGreaterThan(150);
    expect(used.filter((c) => c < 0x1200 || c > 0x137f).map((c) => c.toString(16))).toEqual([]);
    for (const weight of ['400', '700']) {
      const glyphs = new Set(await unicodesOf(`./amharic-${weight}.woff2`));
      expect(used.filter((c) => !glyphs.has(c)).map((c) => c.toString(16))).toEqual([]);
      expect(readFileSync(file(`./amharic-${weight}.woff2`)).length).toBeLessThan(20 * 1024);
    }
  });

  it('keeps the Latin faces of English pages', () => {
    const english = readFileSync(file('./english-pages.css'), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? [];
    const latin = (list: string[]) =>
      list
        .filter((face) => unicodeRange(face).includes('A'.codePointAt(0)!))
        .map((f) => f.replace(/\s+/g, ' '));
    expect(latin(faces)).toHaveLength(2);
    expect(latin(faces)).toEqual(latin(english));
  });
});

describe('the Latin faces of the storefront (docs/decisions/0100-save-data-and-page-weight.md)', () => {
  const faces = readFileSync(file('./english-pages.css'), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? [];

  it('the preloaded part draws every Latin character of the dictionaries and the catalogue; the rest only when shown', async () => {
    for (const weight of ['400', '700']) {
      const core = faces.find((face) => face.includes(`url(./latin-${weight}.woff2)`)) ?? '';
      const rest =
        faces.find((face) => face.includes(`noto-sans-ethiopic-latin-${weight}-normal.woff2`)) ?? '';
      const coreRange = new Set(unicodeRange(core));
      // no code point in both faces: the browser never has to choose
      expect(unicodeRange(rest).filter((c) => coreRange.has(c))).toEqual([]);
      const i18n = fileURLToPath(new URL('../../../../libs/i18n/src/', import.meta.url));
      const text = [
        ...readdirSync(i18n)
          .filter((name) => name.endsWith('.json'))
          .map((name) => readFileSync(i18n + name, 'utf8')),
        readFileSync(
          fileURLToPath(new URL('../../../api/src/seed/data/products.ts', import.meta.url)),
          'utf8',
        ),
      ].join('\n');
      const latin = new Set(unicodeRange(rest).concat([...coreRange]));
      const used = codePoints(text).filter((c) => latin.has(c) && c >= 0x20);
      expect(used.filter((c) => !coreRange.has(c)).map((c) => c.toString(16))).toEqual([]);
      const glyphs = new Set(await unicodesOf(`./latin-${weight}.woff2`));
      expect([...coreRange].filter((c) => !glyphs.has(c) && c !== 0xa0).map((c) => c.toString(16))).toEqual(
        [],
      );
      expect(readFileSync(file(`./latin-${weight}.woff2`)).length).toBeLessThan(8 * 1024);
    }
  });
});
