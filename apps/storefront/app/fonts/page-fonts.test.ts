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
      list.filter((face) => /amharic-(400|700)\.woff2/.test(face)).map((f) => f.replace(/\s+/g, ' '));
    expect(cut(faces)).toHaveLength(2);
    expect(cut(faces)).toEqual(cut(amharic));
    for (const face of cut(faces)) {
      expect(face).toContain("font-family: 'Noto Sans Ethiopic'");
      expect(face).toContain('unicode-range: U+1200-137F;');
    }
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

  it('cuts the Ethiopic face to the basic block, in both weights, a system copy first', () => {
    expect(ethiopicFaces.map((face) => /font-weight:\s*(\d+)/.exec(face)?.[1]).sort()).toEqual([
      '400',
      '700',
    ]);
    for (const face of ethiopicFaces) {
      const range = unicodeRange(face);
      expect(Math.min(...range)).toBe(0x1200);
      expect(Math.max(...range)).toBe(0x137f);
      const src = /src:([^;]+);/.exec(face)?.[1] ?? '';
      expect(src.trim()).toMatch(/^local\('Noto Sans Ethiopic/);
      expect(src.trim()).toMatch(/url\(\.\/amharic-(400|700)\.woff2\) format\('woff2'\)$/);
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
