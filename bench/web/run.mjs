#!/usr/bin/env node
// Front-end benchmark: Lighthouse (mobile preset, Debian's Chromium) on the storefront's home, catalogue
// and product pages, the JavaScript each page loads (gzipped), and the admin app's bundle (gzipped).
//
//   node bench/web/run.mjs                  # builds the API, storefront and admin first (serialised by flock)
//   BENCH_SKIP_BUILD=1 node bench/web/run.mjs   # use the existing builds
//
// Writes bench/results/web-<YYYY-MM-DD>.json.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const gzipSize = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function build() {
  const lock = (args) => execFileSync('flock', ['/tmp/frontend-build.lock', ...args], { cwd: root, stdio: 'inherit' });
  execFileSync('npx', ['tsc', '-p', 'apps/api/tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  lock(['npm', 'run', 'build', '-w', '@shop/storefront']);
  lock(['npm', 'run', 'build', '-w', '@shop/admin']);
}

function start(args, env, cwd = root) {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10000).unref();
      }),
  };
}

async function waitFor(url, proc) {
  for (let i = 0; i < 480; i++) {
    if (proc.child.exitCode !== null) throw new Error(`${url}: process exited\n${proc.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer\n${proc.output()}`);
}

/** The JavaScript a page loaded, per Lighthouse's network log, fetched again and gzipped here. */
async function javascriptOf(lhr, origin) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = [...new Set(items.filter((i) => i.resourceType === 'Script' && i.url.startsWith(origin)).map((i) => i.url))];
  let raw = 0;
  let gzip = 0;
  for (const url of scripts) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    raw += body.length;
    gzip += gzipSize(body);
  }
  return { files: scripts.length, rawBytes: raw, gzipBytes: gzip, gzipKiB: Math.round((gzip / 1024) * 10) / 10 };
}

/** The admin app: every JS file of its build, and the part its entry page loads first. */
function adminBundle() {
  const dist = path.join(root, 'apps/admin/dist');
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.js')) files.push(p);
    }
  };
  walk(dist);
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)]
    .map((m) => path.join(dist, m[1].replace(/^\/(admin\/)?/, '')))
    .filter((p) => fs.existsSync(p));
  const sum = (list) => list.reduce((acc, p) => { const b = fs.readFileSync(p); return { raw: acc.raw + b.length, gzip: acc.gzip + gzipSize(b) }; }, { raw: 0, gzip: 0 });
  const all = sum(files);
  const initial = sum([...new Set(entry)]);
  return {
    files: files.length,
    rawBytes: all.raw,
    gzipBytes: all.gzip,
    gzipKiB: Math.round((all.gzip / 1024) * 10) / 10,
    entry: { files: new Set(entry).size, gzipBytes: initial.gzip, gzipKiB: Math.round((initial.gzip / 1024) * 10) / 10 },
  };
}

function machine() {
  const cpu = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.+)/)?.[1] ?? os.cpus()[0]?.model;
  let chromium = '';
  try {
    chromium = execFileSync(CHROME_PATH, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    chromium = CHROME_PATH;
  }
  return { nproc: os.availableParallelism?.() ?? os.cpus().length, memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10, cpu, node: process.version, chromium };
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') build();
  const [apiPort, sfPort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}/api`;
  const storefront = `http://127.0.0.1:${sfPort}`;
  const procs = [];
  let chrome;
  try {
    const a = start(['apps/api/dist/main.js'], {
      NODE_ENV: 'development',
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      EMBEDDED_IN_MEMORY: 'true',
      MONGOMS_ENABLED: 'false',
      SEED_ON_EMPTY: 'true',
      MONGODB_URI: '',
      CORS_ORIGINS: storefront,
      STOREFRONT_URL: storefront,
      PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
    });
    procs.push(a);
    await waitFor(`${api}/health`, a);
    const s = start(
      [path.join(root, 'node_modules/@remix-run/serve/dist/cli.js'), 'build/server/index.js'],
      { NODE_ENV: 'production', PORT: String(sfPort), HOST: '127.0.0.1', API_URL: api, ADMIN_URL: 'http://127.0.0.1:1/admin' },
      path.join(root, 'apps/storefront'),
    );
    procs.push(s);
    await waitFor(storefront, s);

    const { products } = await (await fetch(`${api}/products?limit=1`)).json();
    const pages = [
      { name: 'home', url: `${storefront}/` },
      { name: 'catalogue', url: `${storefront}/products` },
      { name: 'product', url: `${storefront}/product/${products[0]._id}` },
    ];

    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    const results = [];
    for (const page of pages) {
      process.stdout.write(`Lighthouse ${page.name} (${page.url}) ... `);
      // The default configuration is the mobile preset (Moto G Power emulation, simulated slow 4G).
      const { lhr } = await lighthouse(page.url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
      const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const result = {
        page: page.name,
        path: new URL(page.url).pathname,
        scores: { performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'), seo: score('seo') },
        metrics: {
          lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
          tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
          cls: Math.round(lhr.audits['cumulative-layout-shift'].numericValue * 1000) / 1000,
          fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
        },
        javascript: await javascriptOf(lhr, storefront),
        runtimeError: lhr.runtimeError?.message,
      };
      results.push(result);
      console.log(JSON.stringify(result.scores), `LCP ${result.metrics.lcpMs} ms, TBT ${result.metrics.tbtMs} ms, CLS ${result.metrics.cls}, JS ${result.javascript.gzipKiB} KiB gz`);
    }

    const out = {
      date: new Date().toISOString(),
      command: 'node bench/web/run.mjs',
      lighthouse: { version: lighthouse.version ?? JSON.parse(fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')).version, preset: 'mobile (default config)', chromeFlags: CHROME_FLAGS },
      machine: machine(),
      storefront: results,
      admin: { bundle: adminBundle() },
    };
    const file = path.join(root, 'bench', 'results', `web-${new Date().toISOString().slice(0, 10)}.json`);
    fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
    console.log(`admin bundle: ${out.admin.bundle.gzipKiB} KiB gz (${out.admin.bundle.files} files; entry ${out.admin.bundle.entry.gzipKiB} KiB gz)`);
    console.log(`wrote ${path.relative(root, file)}`);
  } finally {
    if (chrome) await chrome.kill();
    for (const p of procs.reverse()) await p.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
