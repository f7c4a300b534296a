#!/usr/bin/env node
// What the storefront's pages download, without Lighthouse: the JavaScript files each page loads (the
// same-origin scripts, gzipped at level 9 as `run.mjs` counts them) and the HTML document (which carries
// the page's texts), in English and in Amharic, plus the largest scripts of the home page.
//
//   node bench/web/js-size.mjs                  # uses the existing builds (API dist, apps/storefront/build)
//   STOREFRONT_DIR=/other/checkout/apps/storefront node bench/web/js-size.mjs   # another build (before/after)
//
// Writes bench/results/web-js-<YYYY-MM-DD>.json. Sizes do not depend on the machine's load.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROME_FLAGS, root, startApiAndStorefront } from './stack.mjs';

const gzipSize = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;
const kib = (bytes) => Math.round((bytes / 1024) * 10) / 10;

async function measure(browser, url, lang, host) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  await context.addCookies([{ name: 'language', value: lang, domain: host, path: '/' }]);
  const page = await context.newPage();
  const scripts = new Map();
  let html = 0;
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (!res.url().startsWith(`http://${host}`)) return;
    try {
      if (type === 'script') scripts.set(res.url(), gzipSize(await res.body()));
      if (type === 'document') html = gzipSize(await res.body());
    } catch {
      // a response without a body (redirect)
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await context.close();
  const files = [...scripts.entries()].sort((a, b) => b[1] - a[1]);
  return {
    lang,
    jsFiles: files.length,
    jsGzipBytes: files.reduce((n, [, size]) => n + size, 0),
    htmlGzipBytes: html,
    largest: files
      .slice(0, 20)
      .map(([u, size]) => ({ file: path.basename(new URL(u).pathname), gzipBytes: size })),
  };
}

async function main() {
  const procs = [];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROME_FLAGS });
  try {
    const { api, storefront } = await startApiAndStorefront(
      process.env.STOREFRONT_DIR ?? path.join(root, 'apps/storefront'),
      procs,
    );
    const { products } = await (await fetch(`${api}/products?limit=1`)).json();
    const host = new URL(storefront).host;
    const pages = [
      ['home', '/'],
      ['catalogue', '/products'],
      ['product', `/product/${products[0]._id}`],
    ];
    const results = [];
    for (const [name, pathname] of pages) {
      for (const lang of ['en', 'am']) {
        const r = {
          page: name,
          path: pathname,
          ...(await measure(browser, storefront + pathname, lang, host)),
        };
        results.push(r);
        console.log(
          `${name.padEnd(10)} ${lang}  JS ${String(kib(r.jsGzipBytes)).padStart(6)} KiB gzip (${r.jsFiles} files)` +
            `  HTML ${String(kib(r.htmlGzipBytes)).padStart(5)} KiB gzip` +
            `  largest: ${r.largest.map((f) => `${f.file} ${kib(f.gzipBytes)}`).join(', ')}`,
        );
      }
    }
    const date = new Date().toISOString().slice(0, 10);
    const out = path.join(
      root,
      `bench/results/web-js-${date}${process.env.STOREFRONT_DIR ? '-other' : ''}.json`,
    );
    fs.writeFileSync(
      out,
      JSON.stringify({ date: new Date().toISOString(), budgetKiB: 90, results }, null, 2),
    );
    console.log(`written ${path.relative(root, out)}`);
  } finally {
    await browser.close();
    for (const p of procs.reverse()) await p.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
