#!/usr/bin/env node
// Layout-shift probe: opens the storefront's home, catalogue and product pages in Debian's Chromium
// (phone-sized viewport, CPU slowed 4x and a slow network, like Lighthouse's mobile preset) in English
// and Amharic, and prints every 'layout-shift' entry with the elements that moved. Quicker than
// Lighthouse for finding what shifts; run.mjs gives the reportable figures.
//
//   node bench/web/cls.mjs                 # uses the existing builds (apps/api/dist, apps/storefront/build)
//   CLS_WIDTHS=412,1280 node bench/web/cls.mjs  # viewport widths (default 412, a phone)
//   CLS_PAGES=home ...                        # only some of home, catalogue, product
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { CHROME_FLAGS, root, startApiAndStorefront } from './stack.mjs';

const WIDTH = 412;
const HEIGHT = Number(process.env.CLS_HEIGHT ?? 823);

/** Runs in the page before its own scripts: records layout shifts with the nodes that moved. */
function observeShifts() {
  window.__shifts = [];
  const describe = (n) => {
    if (!n || n.nodeType !== 1) return String(n?.nodeName ?? '?');
    return (
      n.tagName.toLowerCase() +
      (n.id ? `#${n.id}` : '') +
      (n.className && typeof n.className === 'string' ? `.${n.className.trim().split(/\s+/).join('.')}` : '')
    );
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__shifts.push({
        value: Math.round(e.value * 10000) / 10000,
        at: Math.round(e.startTime),
        hadRecentInput: e.hadRecentInput,
        sources: (e.sources ?? []).map((s) => ({
          node: describe(s.node),
          from: [s.previousRect.y, s.previousRect.height],
          to: [s.currentRect.y, s.currentRect.height],
        })),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

async function main() {
  const copy = path.join(root, 'apps/storefront/.bench-cls');
  execFileSync(
    'flock',
    [
      '/tmp/frontend-build.lock',
      'sh',
      '-c',
      `rm -rf ${copy} && mkdir -p ${copy} && cp -r apps/storefront/build apps/storefront/server apps/storefront/public ${copy}/`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const procs = [];
  let browser;
  try {
    const { api, storefront } = await startApiAndStorefront(copy, procs);
    const { products } = await (await fetch(`${api}/products?limit=1`)).json();
    const only = process.env.CLS_PAGES?.split(',');
    const pages = [
      ['home', '/'],
      ['catalogue', '/products'],
      ['product', `/product/${products[0]._id}`],
    ].filter(([name]) => !only || only.includes(name));
    const widths = (process.env.CLS_WIDTHS ?? String(WIDTH)).split(',').map(Number);

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROME_FLAGS });
    let worst = 0;
    for (const width of widths)
      for (const lang of ['en', 'am']) {
        for (const [name, urlPath] of pages) {
          const context = await browser.newContext({
            viewport: { width, height: HEIGHT },
            deviceScaleFactor: 2,
            isMobile: width < 800,
            hasTouch: width < 800,
          });
          await context.addCookies([{ name: 'language', value: lang, domain: '127.0.0.1', path: '/' }]);
          const page = await context.newPage();
          const cdp = await context.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: 150,
            downloadThroughput: (1.6 * 1024 * 1024) / 8,
            uploadThroughput: (750 * 1024) / 8,
          });
          await page.addInitScript(observeShifts);
          await page.goto(storefront + urlPath, { waitUntil: 'load' });
          await page.waitForSelector('html[data-js]', { state: 'attached' });
          await page.waitForTimeout(1500);
          const shifts = await page.evaluate(() => window.__shifts);
          const fonts = await page.evaluate(() =>
            performance
              .getEntriesByType('resource')
              .filter((r) => /\.woff2?$/.test(r.name))
              .map(
                (r) =>
                  `${r.name.split('/').pop()} ${Math.round(r.startTime)}-${Math.round(r.responseEnd)} ms`,
              ),
          );
          const firstPaint = await page.evaluate(() =>
            Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0),
          );
          const cls =
            Math.round(shifts.filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0) * 1000) /
            1000;
          worst = Math.max(worst, cls);
          const hero = await page.evaluate(
            () => document.querySelector('.hero-slider')?.getBoundingClientRect().height,
          );
          console.log(
            `${width}px ${lang} ${name.padEnd(9)}${hero ? ` hero ${Math.round(hero)} px` : ''} CLS ${cls} (first contentful paint ${firstPaint} ms; fonts: ${fonts.join(', ') || 'none'})`,
          );
          for (const e of shifts)
            console.log(
              `   ${e.value}${e.hadRecentInput ? ' (after input, not counted)' : ''} at ${e.at} ms: ${e.sources.map((x) => `${x.node} y ${x.from[0]}→${x.to[0]} h ${x.from[1]}→${x.to[1]}`).join('; ')}`,
            );
          await context.close();
        }
      }
    console.log(`worst CLS ${worst}`);
  } finally {
    await browser?.close();
    for (const p of procs.reverse()) await p.stop();
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
