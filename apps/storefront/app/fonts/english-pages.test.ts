import { readFileSync } from 'node:fs';
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

const isEthiopic = (c: number) =>
  (c >= 0x1200 && c <= 0x139f) ||
  (c >= 0x2d80 && c <= 0x2ddf) ||
  (c >= 0xab00 && c <= 0xab2f) ||
  (c >= 0x1e7e0 && c <= 0x1e7ff);

describe('the fonts of English pages (app/fonts/english-pages.css)', () => {
  const faces = readFileSync(file('./english-pages.css'), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? [];

  it("declares no Ethiopic glyphs but the language switch's Amharic name", () => {
    const ethiopic = faces.filter((face) => unicodeRange(face).some(isEthiopic));
    expect(ethiopic).toHaveLength(1);
    expect(ethiopic[0]).toContain('amharic-label-400.woff2');
    expect(ethiopic[0]).toContain("font-family: 'Noto Sans Ethiopic'");
    expect(unicodeRange(ethiopic[0]).sort()).toEqual(codePoints(AMHARIC_LANGUAGE_NAME));
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
