#!/usr/bin/env node
// What the back office downloads, in Chromium: the JavaScript (same-origin scripts, gzipped at level 9 as
// `run.mjs` and `js-size.mjs` count them) of the sign-in screen, of sign-in → dashboard (everything loaded
// from opening /admin until the dashboard shows its figures), and of each resource page opened after it,
// in English and in Amharic (`localStorage.language`, as a returning staff member).
//
//   node bench/web/admin-js.mjs                      # builds the admin first (serialised by flock)
//   BENCH_SKIP_BUILD=1 node bench/web/admin-js.mjs   # the existing apps/admin/dist
//   ADMIN_DIST=/other/checkout/apps/admin/dist BENCH_SKIP_BUILD=1 node bench/web/admin-js.mjs   # another build
//   BENCH_OUT=bench/results/admin-js-x.json ...      # where to write the results
//
// Needs the built API (apps/api/dist). Writes bench/results/admin-js-<YYYY-MM-DD>.json (or BENCH_OUT).
// Budgets (docs/quality.md): sign-in ≤ 200 KiB, sign-in → dashboard ≤ 250 KiB. Sizes do not depend on load.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROME_FLAGS, freePort, root, start, waitFor } from './stack.mjs';

const BUDGET = { signInKiB: 200, dashboardKiB: 250 };
const ADMIN = { email: 'admin@beauty.et', password: 'Admin@12345' };
/** The resource pages opened from the dashboard, by their menu path. */
const PAGES = ['products', 'orders', 'users', 'contacts', 'reviews', 'audit', 'notifications', 'settings'];

const gzipSize = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;
const kib = (bytes) => Math.round((bytes / 1024) * 10) / 10;

/** A private copy of the admin build and its server: other jobs may rebuild apps/admin/dist meanwhile. */
function snapshot() {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-js-'));
  const dist = process.env.ADMIN_DIST ?? path.join(root, 'apps/admin/dist');
  const steps = [];
  if (process.env.BENCH_SKIP_BUILD !== '1') steps.push('npm run build -w @shop/admin');
  steps.push(`cp -r ${dist} ${copy}/dist && cp apps/admin/serve.mjs ${copy}/serve.mjs`);
  execFileSync('flock', ['/tmp/frontend-build.lock', 'sh', '-c', steps.join(' && ')], {
    cwd: root,
    stdio: 'inherit',
  });
  return copy;
}

async function startApiAndAdmin(copy, procs) {
  const [apiPort, adminPort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}/api`;
  const admin = `http://127.0.0.1:${adminPort}`;
  const a = start(['apps/api/dist/main.js'], {
    NODE_ENV: 'development',
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    EMBEDDED_IN_MEMORY: 'true',
    MONGOMS_ENABLED: 'false',
    SEED_ON_EMPTY: 'true',
    MONGODB_URI: '',
    CORS_ORIGINS: admin,
    ADMIN_URL: admin,
    PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
  });
  procs.push(a);
  await waitFor(`${api}/health`, a);
  const d = start([path.join(copy, 'serve.mjs')], { PORT: String(adminPort), API_URL: api });
  procs.push(d);
  await waitFor(`${admin}/admin`, d);
  return { api, admin };
}

/** The scripts loaded so far, by URL, and a way to take what arrived since the last call. */
function scriptLog(page, origin) {
  const sizes = new Map();
  const pending = new Set();
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script' || !res.url().startsWith(origin)) return;
    const p = res
      .body()
      .then((b) => sizes.set(res.url(), gzipSize(b)))
      .catch(() => undefined)
      .finally(() => pending.delete(p));
    pending.add(p);
  });
  let seen = new Set();
  return async () => {
    await Promise.all([...pending]);
    const files = [...sizes.entries()].filter(([u]) => !seen.has(u)).sort((a, b) => b[1] - a[1]);
    seen = new Set(sizes.keys());
    return {
      jsFiles: files.length,
      jsGzipBytes: files.reduce((n, [, s]) => n + s, 0),
      files: files.map(([u, s]) => ({ file: path.basename(new URL(u).pathname), gzipBytes: s })),
    };
  };
}

async function measure(browser, admin, lang) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript((l) => localStorage.setItem('language', l), lang);
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  const take = scriptLog(page, admin);
  await page.goto(`${admin}/admin`);
  await page.locator('input[name=email]').waitFor();
  await page.waitForLoadState('networkidle');
  const signIn = await take();
  await page.locator('input[name=email]').fill(ADMIN.email);
  await page.locator('input[name=password]').fill(ADMIN.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/admin\/dashboard$/);
  await page.getByTestId('total-orders').waitFor();
  await page.waitForLoadState('networkidle');
  const afterSignIn = await take();
  const dashboard = {
    jsFiles: signIn.jsFiles + afterSignIn.jsFiles,
    jsGzipBytes: signIn.jsGzipBytes + afterSignIn.jsGzipBytes,
    addedAfterSignIn: afterSignIn,
  };
  // the lang attribute is set before the first screen: an Amharic user never sees English first
  const htmlLang = await page.evaluate(() => document.documentElement.lang);
  const pages = [];
  for (const name of PAGES) {
    await page.goto(`${admin}/admin/${name}`);
    await page.locator('main').waitFor();
    await page.waitForLoadState('networkidle');
    const added = await take();
    pages.push({ page: name, ...added });
  }
  await context.close();
  return { lang, htmlLang, signIn, dashboard, pages };
}

async function main() {
  const copy = snapshot();
  const procs = [];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROME_FLAGS });
  try {
    const { admin } = await startApiAndAdmin(copy, procs);
    const results = [];
    for (const lang of ['en', 'am']) {
      const r = await measure(browser, admin, lang);
      results.push(r);
      console.log(
        `${lang}  sign-in ${kib(r.signIn.jsGzipBytes)} KiB gzip (${r.signIn.jsFiles} files)` +
          `  sign-in → dashboard ${kib(r.dashboard.jsGzipBytes)} KiB gzip (${r.dashboard.jsFiles} files)` +
          `  <html lang=${r.htmlLang}>`,
      );
      console.log(`    sign-in: ${r.signIn.files.map((f) => `${f.file} ${kib(f.gzipBytes)}`).join(', ')}`);
      console.log(
        `    + dashboard: ${r.dashboard.addedAfterSignIn.files.map((f) => `${f.file} ${kib(f.gzipBytes)}`).join(', ')}`,
      );
      console.log(`    then: ${r.pages.map((p) => `${p.page} +${kib(p.jsGzipBytes)}`).join(', ')}`);
    }
    const within = results.every(
      (r) =>
        kib(r.signIn.jsGzipBytes) <= BUDGET.signInKiB && kib(r.dashboard.jsGzipBytes) <= BUDGET.dashboardKiB,
    );
    const date = new Date().toISOString().slice(0, 10);
    const out = process.env.BENCH_OUT
      ? path.resolve(process.env.BENCH_OUT)
      : path.join(root, `bench/results/admin-js-${date}.json`);
    fs.writeFileSync(
      out,
      JSON.stringify({ date: new Date().toISOString(), budget: BUDGET, within, results }, null, 2),
    );
    console.log(`${within ? 'within' : 'OVER'} budget; written ${path.relative(root, out)}`);
    if (!within) process.exitCode = 1;
  } finally {
    await browser.close();
    for (const p of procs.reverse()) await p.stop();
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
