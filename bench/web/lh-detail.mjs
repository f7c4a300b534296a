#!/usr/bin/env node
// Dev helper: one Lighthouse mobile run of a storefront page, printing what blocks the main thread
// (long tasks, work by category, script boot-up) and the LCP breakdown.
//   LH_PAGE=catalogue LH_LANG=am node bench/web/lh-detail.mjs
//   LH_RUNS=3 LH_NETWORK=1 ...   # three runs, each with its requests (observed, unthrottled timings)
import * as path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_FLAGS, root, startApiAndStorefront } from './stack.mjs';

const procs = [];
let chrome;
try {
  const { api, storefront } = await startApiAndStorefront(
    path.resolve(root, process.env.LH_DIR ?? 'apps/storefront'),
    procs,
  );
  const { products } = await (await fetch(`${api}/products?limit=1`)).json();
  const urls = { home: '/', catalogue: '/products', product: `/product/${products[0]._id}` };
  chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  for (const name of (process.env.LH_PAGE ?? 'catalogue').split(','))
    for (let i = 0; i < Number(process.env.LH_RUNS ?? 1); i++) {
      const { lhr } = await lighthouse(storefront + urls[name], {
        port: chrome.port,
        logLevel: 'error',
        onlyCategories: ['performance'],
        extraHeaders: { Cookie: `language=${process.env.LH_LANG ?? 'en'}` },
      });
      const a = lhr.audits;
      console.log(
        `${name} [${process.env.LH_LANG ?? 'en'}] perf ${Math.round(lhr.categories.performance.score * 100)} FCP ${Math.round(a['first-contentful-paint'].numericValue)} LCP ${Math.round(a['largest-contentful-paint'].numericValue)} TBT ${Math.round(a['total-blocking-time'].numericValue)} SI ${Math.round(a['speed-index'].numericValue)} CLS ${a['cumulative-layout-shift'].numericValue.toFixed(3)}`,
      );
      console.log(
        '  long tasks:',
        (a['long-tasks']?.details?.items ?? [])
          .map(
            (t) => `${Math.round(t.duration)}@${Math.round(t.startTime)} ${String(t.url).split('/').pop()}`,
          )
          .join(' | '),
      );
      console.log(
        '  main thread:',
        (a['mainthread-work-breakdown']?.details?.items ?? [])
          .map((t) => `${t.groupLabel ?? t.group} ${Math.round(t.duration)}`)
          .join(', '),
      );
      console.log(
        '  bootup:',
        (a['bootup-time']?.details?.items ?? [])
          .map(
            (t) =>
              `${String(t.url).split('/').pop()} total ${Math.round(t.total)} script ${Math.round(t.scripting)} parse ${Math.round(t.scriptParseCompile)}`,
          )
          .join(' | '),
      );
      const lcp = a['largest-contentful-paint-element']?.details?.items ?? [];
      for (const it of lcp) {
        if (it.node) console.log('  lcp element:', it.node.selector, String(it.node.snippet).slice(0, 160));
        else if (it.items)
          console.log(
            '  lcp phases:',
            it.items.map((p) => `${p.phase ?? p.node?.selector} ${Math.round(p.timing ?? 0)}`).join(', '),
          );
      }
      if (process.env.LH_NETWORK)
        for (const r of a['network-requests']?.details?.items ?? [])
          console.log(
            `  net ${String(r.url)
              .replace(/^https?:\/\/[^/]+/, '')
              .slice(0, 70)} ${r.resourceType} ${r.priority} ` +
              `${Math.round(r.networkRequestTime ?? r.startTime)}-${Math.round(r.networkEndTime ?? r.endTime)} ms ` +
              `${Math.round((r.transferSize ?? 0) / 102.4) / 10} KiB`,
          );
      console.log(
        '  render-blocking:',
        (a['render-blocking-resources']?.details?.items ?? [])
          .map((t) => `${String(t.url).split('/').pop()} ${Math.round(t.wastedMs)}`)
          .join(', '),
      );
    }
} finally {
  if (chrome) await chrome.kill();
  for (const p of procs.reverse()) await p.stop();
}
