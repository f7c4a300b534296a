// The self-hosted Noto Sans Ethiopic (as the storefront): every weight the theme uses, its Latin faces and
// its Amharic cut (the basic Ethiopic block without kerning pairs, 16-18 KB per weight instead of 75;
// made by scripts/fonts.mjs, a system copy of the font first).
import './font-files/noto-sans-ethiopic.css';
import { FONT_WEIGHTS } from './theme';

/** How long the first screen waits for its fonts at most (slow data): after that text swaps in as they arrive. */
export const FONT_WAIT_MS = 3000;

/**
 * Fetches the font faces a language needs in every weight before its text is drawn. The browser only
 * asks for a face when text first needs it; until it arrives the text is drawn in a fallback, and no
 * fallback on a staff member's machine may have Ethiopic glyphs (empty boxes). Loading them up front
 * means bold menu items, medium buttons and chips never show boxes.
 */
export function loadFonts(lang: 'en' | 'am', wait = FONT_WAIT_MS): Promise<void> {
  if (typeof document === 'undefined' || !document.fonts?.load) return Promise.resolve();
  const samples = lang === 'am' ? ['Aa', 'ሀ'] : ['Aa'];
  const loads = FONT_WEIGHTS.flatMap((w) =>
    samples.map((s) => document.fonts.load(`${w} 16px "Noto Sans Ethiopic"`, s).catch(() => [])),
  );
  return Promise.race([
    Promise.all(loads).then(() => undefined),
    new Promise<void>((r) => setTimeout(r, wait)),
  ]);
}
