// Writes the storefront's app icons (public/icons/*.png) from the brand's leaf (public/favicon.svg):
// 'any' icons (the green disc) and maskable ones (full-bleed green, the leaf inside the safe zone: the
// middle 80%), 192 and 512 px, and the 180 px apple-touch-icon. Run once when the brand changes:
// `node apps/storefront/scripts/pwa-icons.mjs` (sharp is the API's dependency). See docs/decisions/0094-pwa.md.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/icons');
const GREEN = '#3f6b2c';
const CREAM = '#f6f1e9';
const leaf = `<path d="M18 40 q10 -24 28 -22 q-4 22 -28 22z" fill="${CREAM}"/>`;

const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="${GREEN}"/>${leaf}</svg>`;
// maskable: the leaf scaled to 60% around the centre, well inside the 80% safe circle
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${GREEN}"/><g transform="translate(32 32) scale(0.75) translate(-32 -30)">${leaf}</g></svg>`;
const touch = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${GREEN}"/><g transform="translate(32 32) scale(0.85) translate(-32 -30)">${leaf}</g></svg>`;

await mkdir(out, { recursive: true });
const write = (svg, size, name) =>
  sharp(Buffer.from(svg), { density: Math.ceil((size / 64) * 72) })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(out, name));
await write(any, 192, 'icon-192.png');
await write(any, 512, 'icon-512.png');
await write(maskable, 192, 'maskable-192.png');
await write(maskable, 512, 'maskable-512.png');
await write(touch, 180, 'apple-touch-icon.png');
console.log('[icons] written to', out);
