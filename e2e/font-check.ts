import { execFileSync } from 'node:child_process';
import type { CDPSession, Page } from 'playwright-core';

/** Ethiopic, Ethiopic Supplement, Ethiopic Extended and Extended-A. */
const ETHIOPIC_RUN = '[\\u1200-\\u139F\\u2D80-\\u2DDF\\uAB00-\\uAB2F]+';
const ETHIOPIC_CHAR = new RegExp(`^${ETHIOPIC_RUN}$`);

/** Fonts known to carry Ethiopic glyphs; the machine has no system Ethiopic font, so only the self-hosted one can. */
export const ETHIOPIC_FONT = /Noto Sans Ethiopic|Nyala|Abyssinica/i;

export interface FontUse {
  text: string;
  fonts: string[];
  where: string;
  /** The computed weight, style and font-family, to tell why a run fell back. */
  css: string;
}

/**
 * Asks Chromium (DevTools protocol `CSS.getPlatformFontsForNode`) which fonts drew every visible run of
 * Ethiopic text on the page. Each run is first wrapped in its own unstyled `<span>` (which inherits its
 * parent's font exactly), so the answer is about Ethiopic glyphs only, never a neighbouring Latin word.
 * The page's DOM is changed: reload or navigate afterwards.
 */
export async function ethiopicFonts(page: Page): Promise<FontUse[]> {
  await page.evaluate(async (pattern) => {
    await document.fonts.ready;
    const run = new RegExp(pattern, 'g');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('script,style,[data-eth-run]')) continue;
      if (new RegExp(pattern).test(n.nodeValue ?? '')) nodes.push(n as Text);
    }
    let i = 0;
    for (const node of nodes) {
      const text = node.nodeValue ?? '';
      const frag = document.createDocumentFragment();
      let last = 0;
      for (const m of text.matchAll(run)) {
        if (m.index! > last) frag.append(text.slice(last, m.index));
        const svg = 'http://www.w3.org/2000/svg';
        const el =
          node.parentElement!.namespaceURI === svg
            ? document.createElementNS(svg, 'tspan')
            : document.createElement('span');
        el.setAttribute('data-eth-run', String(i++));
        el.textContent = m[0];
        frag.append(el);
        last = m.index! + m[0].length;
      }
      if (last < text.length) frag.append(text.slice(last));
      node.replaceWith(frag);
    }
    // lay the spans out (which requests any font face not used yet), let those faces load, then paint
    for (let round = 0; round < 3; round++) {
      void document.body.offsetHeight;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await document.fonts.ready;
    }
  }, ETHIOPIC_RUN);

  const cdp: CDPSession = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', {
      nodeId: root.nodeId,
      selector: '[data-eth-run]',
    });
    const described = await page.evaluate(() =>
      [...document.querySelectorAll('[data-eth-run]')].map((el) => {
        const host = el.parentElement?.closest(
          '[data-testid],[role],h1,h2,h3,h4,h5,h6,button,label,th,td,li',
        );
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return {
          text: el.textContent ?? '',
          css: `${style.fontWeight} ${style.fontStyle} ${style.fontFamily}`,
          visible: box.width > 0 && box.height > 0 && style.visibility !== 'hidden',
          where: host
            ? `${host.tagName.toLowerCase()}${host.getAttribute('data-testid') ? `[data-testid=${host.getAttribute('data-testid')}]` : ''}${host.getAttribute('role') ? `[role=${host.getAttribute('role')}]` : ''}`
            : (el.parentElement?.tagName.toLowerCase() ?? ''),
        };
      }),
    );
    const uses: FontUse[] = [];
    for (let i = 0; i < nodeIds.length; i++) {
      const d = described[i];
      if (!d?.visible) continue;
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId: nodeIds[i] });
      uses.push({ text: d.text, where: d.where, css: d.css, fonts: fonts.map((f) => f.familyName) });
    }
    return uses;
  } finally {
    await cdp.detach();
  }
}

/** The runs drawn (in whole or in part) by a font without Ethiopic glyphs, or by no font at all. */
export function badEthiopicRuns(uses: FontUse[]): FontUse[] {
  return uses.filter((u) => u.fonts.length === 0 || u.fonts.some((f) => !ETHIOPIC_FONT.test(f)));
}

/**
 * The code points a woff2 font has glyphs for (its cmap, read by harfbuzz). harfbuzzjs is an ES module,
 * which this Jest setup does not load: a child Node process reads the font from stdin.
 */
function glyphsOfWoff2(woff2: Uint8Array): number[] {
  const script = `
    import fontverter from 'fontverter';
    import { Blob, Face } from 'harfbuzzjs';
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const face = new Face(new Blob(await fontverter.convert(Buffer.concat(chunks), 'truetype')));
    process.stdout.write(JSON.stringify([...face.collectUnicodes()]));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    input: woff2,
    cwd: __dirname,
  });
  return JSON.parse(out.toString('utf8')) as number[];
}

/** The characters of `codePoints` that the woff2 font has no glyph for. */
export function missingGlyphs(woff2: Uint8Array, codePoints: Iterable<number>): string[] {
  const glyphs = new Set(glyphsOfWoff2(woff2));
  return [...codePoints].filter((c) => !glyphs.has(c)).map((c) => String.fromCodePoint(c));
}

/** Adds the Ethiopic code points of `text` (every Ethiopic block Amharic could show) to `into`. */
export function addEthiopicCodePoints(text: string, into: Set<number>): Set<number> {
  for (const c of text) if (ETHIOPIC_CHAR.test(c)) into.add(c.codePointAt(0)!);
  return into;
}

/** The font files (woff/woff2) the page has fetched so far. */
export function loadedFontFiles(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((name) => /\.woff2?$/.test(name)),
  );
}
