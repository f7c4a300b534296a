// Builds the service worker (sw/sw.ts) into build/client/sw.js after `remix vite:build`, with the list
// of files to precache put where Workbox's injectManifest puts it (self.__WB_MANIFEST): the build's
// scripts, styles and woff2 fonts (content-hashed names: no revision needed), the icons and manifests,
// and the offline pages (/offline, /am/offline) revised by a hash of what they are made of.
// See docs/decisions/0094-pwa.md.
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const client = path.join(app, 'build/client');
const root = path.resolve(app, '../..');

async function files(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(full)));
    else out.push(full);
  }
  return out;
}

const hash = (...parts) => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part);
  return h.digest('hex').slice(0, 16);
};

const assets = (await files(path.join(client, 'assets')))
  .filter((file) => /\.(js|css|woff2)$/.test(file))
  .map((file) => ({ url: '/' + path.relative(client, file).split(path.sep).join('/'), revision: null }));

const shell = [];
for (const file of ['manifest.webmanifest', 'am/manifest.webmanifest', 'favicon.svg', 'icons/icon-192.png']) {
  const full = path.join(client, file);
  if (await stat(full).catch(() => null))
    shell.push({ url: `/${file}`, revision: hash(await readFile(full)) });
}

// The offline pages are rendered by the storefront (app/offline-page.ts, its texts in libs/i18n)
const offlineSources = await Promise.all(
  ['apps/storefront/app/offline-page.ts', 'libs/i18n/src/shop.en.json', 'libs/i18n/src/shop.am.json'].map(
    (file) => readFile(path.join(root, file)),
  ),
);
const offlineRevision = hash(...offlineSources, JSON.stringify(assets));
const offline = ['/offline', '/am/offline'].map((url) => ({ url, revision: offlineRevision }));

const manifest = [...assets, ...shell, ...offline];
await build({
  entryPoints: [path.join(app, 'sw/sw.ts')],
  outfile: path.join(client, 'sw.js'),
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  define: {
    'process.env.NODE_ENV': '"production"',
    'self.__WB_MANIFEST': JSON.stringify(manifest),
  },
  logLevel: 'warning',
});
const size = (await stat(path.join(client, 'sw.js'))).size;
console.log(`[sw] build/client/sw.js: ${(size / 1024).toFixed(1)} KiB, ${manifest.length} files precached`);
