#!/usr/bin/env node
// Front-end benchmark: Lighthouse (mobile preset, Debian's Chromium) on the storefront's home, catalogue
// and product pages, the JavaScript each page loads (gzipped), and the admin app's bundle (gzipped).
//
//   node bench/web/run.mjs                  # builds the API, storefront and admin first (serialised by flock)
//   BENCH_SKIP_BUILD=1 node bench/web/run.mjs   # use the existing builds
//   BENCH_RUNS=1 ...                           # one Lighthouse run per page instead of the median of 3
//   BENCH_LANGS=am ...                         # only the Amharic pages (default: en,am; the `language` cookie)
//   BENCH_OUT=path.json ...                    # where to write the results
//
// Writes bench/results/web-<YYYY-MM-DD>.json (or BENCH_OUT).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_FLAGS, root, startApiAndStorefront } from './stack.mjs';

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LANGS = (process.env.BENCH_LANGS ?? 'en,am').split(',').filter(Boolean);
const gzipSize = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;

/** A private copy of the storefront build: other jobs may rebuild (and empty) apps/storefront/build meanwhile. */
const storefrontCopy = path.join(root, 'apps/storefront/.bench-web');

/** Builds (unless BENCH_SKIP_BUILD=1) and copies what the benchmark serves, all under the shared build lock. */
function buildAndSnapshot() {
  const steps = [];
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    steps.push(
      'npx tsc -p apps/api/tsconfig.build.json',
      'npm run build -w @shop/storefront',
      'npm run build -w @shop/admin',
    );
  }
  steps.push(
    `rm -rf ${storefrontCopy} && mkdir -p ${storefrontCopy} && cp -r apps/storefront/build apps/storefront/server apps/storefront/public ${storefrontCopy}/`,
  );
  steps.push(
    `node -e "process.stdout.write(JSON.stringify(require('./bench/web/admin-bundle.cjs')()))" > ${storefrontCopy}/admin-bundle.json`,
  );
  // the builds are shared by every test run of the tree: build under the exclusive lock, copy under the shared one
  const mode = process.env.BENCH_SKIP_BUILD === '1' ? '-s' : '-x';
  execFileSync('flock', [mode, '/tmp/build.lock', 'sh', '-c', steps.join(' && ')], {
    cwd: root,
    stdio: 'inherit',
  });
  return JSON.parse(fs.readFileSync(path.join(storefrontCopy, 'admin-bundle.json'), 'utf8'));
}

/** The JavaScript a page loaded, per Lighthouse's network log, fetched again and gzipped here. */
async function javascriptOf(lhr, origin) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = [
    ...new Set(
      items.filter((i) => i.resourceType === 'Script' && i.url.startsWith(origin)).map((i) => i.url),
    ),
  ];
  let raw = 0;
  let gzip = 0;
  for (const url of scripts) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    raw += body.length;
    gzip += gzipSize(body);
  }
  return {
    files: scripts.length,
    rawBytes: raw,
    gzipBytes: gzip,
    gzipKiB: Math.round((gzip / 1024) * 10) / 10,
  };
}

function machine() {
  const cpu =
    fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.+)/)?.[1] ?? os.cpus()[0]?.model;
  let chromium = '';
  try {
    chromium = execFileSync(CHROME_PATH, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    chromium = CHROME_PATH;
  }
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    cpu,
    node: process.version,
    chromium,
  };
}

async function main() {
  const adminBundle = buildAndSnapshot();
  const procs = [];
  let chrome;
  try {
    const { api, storefront } = await startApiAndStorefront(storefrontCopy, procs);

    const { products } = await (await fetch(`${api}/products?limit=1`)).json();
    // each language at its own address (docs/decisions/0092): an Amharic page is /am/…, opened directly (the
    // remembered choice's redirect from / is one more round trip that a shared or indexed link never makes)
    const pages = LANGS.flatMap((lang) => {
      const at = (p) => `${storefront}${lang === 'am' ? '/am' : ''}${p}`;
      return [
        { name: 'home', url: at('/') },
        { name: 'catalogue', url: at('/products') },
        { name: 'product', url: at(`/product/${products[0]._id}`) },
      ].map((page) => ({ ...page, lang }));
    });

    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    const results = [];
    for (const page of pages) {
      process.stdout.write(`Lighthouse ${page.name} [${page.lang}] (${page.url}) x${RUNS} ... `);
      // The default configuration is the mobile preset (Moto G Power emulation, simulated slow 4G).
      // Lighthouse varies from run to run: the run with the median performance score is reported.
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const { lhr } = await lighthouse(page.url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          // the address says the language; the cookie is the remembered choice of a returning visitor
          extraHeaders: { Cookie: `language=${page.lang}` },
        });
        runs.push(lhr);
      }
      runs.sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
      const lhr = runs[Math.floor(runs.length / 2)];
      const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const result = {
        page: page.name,
        lang: page.lang,
        path: new URL(page.url).pathname,
        scores: {
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
        },
        metrics: {
          lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
          tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
          cls: Math.round(lhr.audits['cumulative-layout-shift'].numericValue * 1000) / 1000,
          fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
        },
        javascript: await javascriptOf(lhr, storefront),
        // What moved: the elements behind the layout shift, as Lighthouse names them.
        layoutShifts: (lhr.audits['layout-shifts']?.details?.items ?? []).slice(0, 3).map((i) => ({
          element: i.node?.selector ?? i.node?.snippet,
          snippet: i.node?.snippet?.slice(0, 160),
          score: Math.round((i.score ?? 0) * 1000) / 1000,
        })),
        performanceScoresOfAllRuns: runs.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)),
        runtimeError: lhr.runtimeError?.message,
      };
      results.push(result);
      console.log(
        JSON.stringify(result.scores),
        `LCP ${result.metrics.lcpMs} ms, TBT ${result.metrics.tbtMs} ms, CLS ${result.metrics.cls}, JS ${result.javascript.gzipKiB} KiB gz`,
      );
    }

    const out = {
      date: new Date().toISOString(),
      command: `BENCH_RUNS=${RUNS} BENCH_LANGS=${LANGS.join(',')} node bench/web/run.mjs`,
      runsPerPage: RUNS,
      lighthouse: {
        version:
          lighthouse.version ??
          JSON.parse(fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8'))
            .version,
        preset: 'mobile (default config)',
        chromeFlags: CHROME_FLAGS,
      },
      machine: machine(),
      storefront: results,
      admin: { bundle: adminBundle },
    };
    const file = process.env.BENCH_OUT
      ? path.resolve(process.env.BENCH_OUT)
      : path.join(root, 'bench', 'results', `web-${new Date().toISOString().slice(0, 10)}.json`);
    fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
    console.log(
      `admin bundle: ${out.admin.bundle.gzipKiB} KiB gz (${out.admin.bundle.files} files; entry ${out.admin.bundle.entry.gzipKiB} KiB gz)`,
    );
    console.log(`wrote ${path.relative(root, file)}`);
  } finally {
    if (chrome) await chrome.kill();
    for (const p of procs.reverse()) await p.stop();
    fs.rmSync(storefrontCopy, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
