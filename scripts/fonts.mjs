#!/usr/bin/env node
// The fonts of the storefront's pages and of the back office, cut from Noto Sans Ethiopic
// (@fontsource/noto-sans-ethiopic), whose Ethiopic face is 75 KB per weight: every Ethiopic block (Ge'ez,
// Tigrinya, the Sebatbeit, Me'en and Gumuz supplements...) and its kerning pairs.
// - Storefront, English pages: one Ethiopic word of their own, the language switch's 'አማርኛ': its glyphs
//   only (app/fonts/amharic-label-400.woff2, about 1 KB, family 'Noto Sans Ethiopic Label'), the font's
//   Latin faces, and the Amharic cut below with its unicode-range (downloaded only by a page that shows
//   Ethiopic text: a review, a name): apps/storefront/app/fonts/english-pages.css.
// - Storefront, Amharic pages: the basic Ethiopic block U+1200-137F (every syllable, numeral and
//   punctuation mark of Amharic; without the kerning pairs, 16 KB per weight:
//   app/fonts/amharic-{400,700}.woff2), a phone's own copy of the font first (Android ships Noto Sans
//   Ethiopic: `local()`, nothing downloaded), and the same Latin faces: app/fonts/amharic-pages.css.
//   root.tsx puts one of the two style sheets in the page's head.
// - Back office: the same Amharic cut in the three weights its theme uses (400, 500, 700) and the Latin
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
let amharicText = '';
for (let c = AMHARIC_FIRST; c <= AMHARIC_LAST; c++) amharicText += String.fromCodePoint(c);
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
/** The Amharic cut of each weight, made once (the storefront and the back office get the same bytes). */
const cuts = new Map();
function amharicCut(weight) {
  if (!cuts.has(weight))
    cuts.set(
      weight,
      subsetFont(
        readFileSync(require.resolve(`${PACKAGE}/files/noto-sans-ethiopic-ethiopic-${weight}-normal.woff2`)),
        amharicText,
        { targetFormat: 'woff2', keepFeatures: AMHARIC_FEATURES },
      ),
    );
  return cuts.get(weight);
}

/** Writes the Amharic cut of `weight` as amharic-<weight>.woff2 through `out` and answers its @font-face. */
async function amharicFace(weight, out) {
  const file = `amharic-${weight}.woff2`;
  const cut = await amharicCut(weight);
  writeFileSync(out(file), cut);
  console.log(`${out(file)}: ${cut.length} bytes`);
  return fontFace(`Amharic, ${weight}`, { weight, file, range: AMHARIC_RANGE, locals: LOCAL_NAMES[weight] });
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
for (const weight of ['400', '700']) amharicFaces.push(await amharicFace(weight, out));
const latinFaces = latinFacesOf(['400', '700']);

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
