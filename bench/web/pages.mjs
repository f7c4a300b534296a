#!/usr/bin/env node
// Storefront pages per second (issue 32): anonymous home, catalogue and product pages, and the same pages of a
// signed-in shopper, with 50 connections for 10 s each (autocannon, `Accept-Encoding: br`), the storefront in
// production mode with the built API beside it (in-memory engine, seeded). Two storefronts in turn: the page
// cache off (PAGE_CACHE_MAX_BYTES=0: every page rendered per request, as before it) and on (the defaults).
//
//   node bench/web/pages.mjs                       # builds the API and the storefront first (under the build lock)
//   BENCH_SKIP_BUILD=1 node bench/web/pages.mjs    # use the existing builds
//   BENCH_DURATION=10 BENCH_CONNECTIONS=50 ...     # seconds per page, connections
//   BENCH_MODES=after ...                          # only one storefront (before | after)
//   BENCH_OUT=path.json ...                        # where to write the results
//   BENCH_CPU_PAGES=200 ...                        # pages asked (4 connections) to measure CPU per page
//   BENCH_PAGES=signed-in ...                      # only these pages (anonymous | signed-in; default both)
//   BENCH_WORKERS=2 ...                            # the storefront's STOREFRONT_WORKERS (default 1)
//   BENCH_STOREFRONT=/tmp/sf-copy ...              # a storefront copied earlier (its build, server and public
//                                                  # folders): compares two versions back to back
//
// Writes bench/results/pages-<YYYY-MM-DD>.json (or BENCH_OUT). The machine is shared: note its load with the figures.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';
import { freePort, root, start, waitFor } from './stack.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Pages asked (with 4 connections) to measure the CPU time of one page; 0 skips it. */
const CPU_PAGES = Number(process.env.BENCH_CPU_PAGES ?? 200);
const MODES = (process.env.BENCH_MODES ?? 'before,after').split(',').filter(Boolean);
const MODE_ENV = { before: { PAGE_CACHE_MAX_BYTES: '0' }, after: {} };
const PAGES = (process.env.BENCH_PAGES ?? 'anonymous,signed-in').split(',').filter(Boolean);
const WORKERS = process.env.BENCH_WORKERS ?? '1';
const GIVEN_COPY = process.env.BENCH_STOREFRONT ? path.resolve(process.env.BENCH_STOREFRONT) : undefined;

/** A private copy of the storefront's server and build: other jobs may rebuild (and empty) the build meanwhile. */
const copy = GIVEN_COPY ?? path.join(root, 'apps/storefront/.bench-pages');

function buildAndSnapshot() {
  if (GIVEN_COPY) return;
  const steps = [];
  if (process.env.BENCH_SKIP_BUILD !== '1')
    steps.push('npx tsc -p apps/api/tsconfig.build.json', 'npm run build -w @shop/storefront');
  steps.push(
    `rm -rf ${copy} && mkdir -p ${copy} && cp -r apps/storefront/build apps/storefront/server apps/storefront/public ${copy}/`,
  );
  execFileSync('flock', ['/tmp/frontend-build.lock', 'sh', '-c', steps.join(' && ')], {
    cwd: root,
    stdio: 'inherit',
  });
}

function machine() {
  const cpu =
    fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.+)/)?.[1] ?? os.cpus()[0]?.model;
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    cpu,
    node: process.version,
  };
}

/** CPU time (user + system) a process has used so far, in ms (Linux: /proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The CPU time of a process and of its children (a storefront of several workers: server/cluster.cjs). */
function treeCpuMs(pid) {
  let total = cpuMs(pid);
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const child of children ? children.split(' ') : []) total += treeCpuMs(Number(child));
  }
  return total;
}

const loadAverage = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

function cannon(url, headers, duration, connections) {
  return autocannon({ url, headers, duration, connections, timeout: 20 });
}

async function measure(page, storefront, pids) {
  const url = `${storefront}${page.path}`;
  const headers = { 'Accept-Encoding': 'br', ...(page.cookie ? { Cookie: page.cookie } : {}) };
  const check = await fetch(url, { headers });
  await check.arrayBuffer();
  if (check.status !== 200) throw new Error(`${url}: ${check.status}`);
  if (WARMUP > 0) await cannon(url, headers, WARMUP, 10);
  // CPU time of one page in each process (storefront, API), over a fixed number of pages all answered:
  // on a shared machine it moves far less with the other work than pages per second do
  let storefrontCpu = null;
  let apiCpu = null;
  if (CPU_PAGES > 0) {
    const cpuBefore = pids.map(treeCpuMs);
    const c = await autocannon({ url, headers, amount: CPU_PAGES, connections: 4, timeout: 60 });
    [storefrontCpu, apiCpu] = pids.map(
      (pid, i) => Math.round(((treeCpuMs(pid) - cpuBefore[i]) / (c.requests.total || 1)) * 10) / 10,
    );
  }
  const loadBefore = loadAverage();
  const r = await cannon(url, headers, DURATION, CONNECTIONS);
  return {
    page: page.name,
    path: page.path,
    signedIn: Boolean(page.cookie),
    cacheControl: check.headers.get('cache-control'),
    pageCache: check.headers.get('x-page-cache'),
    contentEncoding: check.headers.get('content-encoding'),
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    bytesPerRequest: r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    loadAverageBefore: loadBefore,
    cpuMsPerPage: { storefront: storefrontCpu, api: apiCpu },
  };
}

async function main() {
  buildAndSnapshot();
  const procs = [];
  const results = [];
  try {
    const apiPort = await freePort();
    const api = `http://127.0.0.1:${apiPort}/api`;
    const a = start(['apps/api/dist/main.js'], {
      NODE_ENV: 'development',
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      EMBEDDED_IN_MEMORY: 'true',
      MONGOMS_ENABLED: 'false',
      SEED_ON_EMPTY: 'true',
      MONGODB_URI: '',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000',
      PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
    });
    procs.push(a);
    await waitFor(`${api}/health`, a);

    const { products } = await (await fetch(`${api}/products?limit=1`)).json();
    const email = `bench-${Date.now()}@example.et`;
    const registered = await fetch(`${api}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench Shopper',
        email,
        password: 'Abeba@2024!',
        confirmPassword: 'Abeba@2024!',
      }),
    });
    const { token } = await registered.json();
    if (!token) throw new Error(`register: ${registered.status}`);
    await fetch(`${api}/cart/add`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ productId: products[0]._id, quantity: 1 }),
    });
    const anonymous = [
      { name: 'home', path: '/' },
      { name: 'catalogue', path: '/products' },
      { name: 'product', path: `/product/${products[0]._id}` },
    ];
    const pages = [
      ...(PAGES.includes('anonymous') ? anonymous : []),
      ...(PAGES.includes('signed-in')
        ? anonymous.map((p) => ({ ...p, name: `${p.name} (signed in)`, cookie: `token=${token}` }))
        : []),
    ];

    for (const mode of MODES) {
      const sfPort = await freePort();
      const storefront = `http://127.0.0.1:${sfPort}`;
      const s = start(
        [path.join(copy, 'server/index.cjs')],
        {
          NODE_ENV: 'production',
          PORT: String(sfPort),
          HOST: '127.0.0.1',
          API_URL: api,
          ADMIN_URL: 'http://127.0.0.1:1/admin',
          LOG_LEVEL: 'warn',
          STOREFRONT_WORKERS: WORKERS,
          ...MODE_ENV[mode],
        },
        copy,
      );
      procs.push(s);
      await waitFor(storefront, s);
      for (const page of pages) {
        process.stdout.write(`${mode} ${page.name} ... `);
        const result = { mode, ...(await measure(page, storefront, [s.child.pid, a.child.pid])) };
        results.push(result);
        console.log(
          `${result.requestsPerSecond} pages/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms` +
            `, CPU per page ${result.cpuMsPerPage.storefront} ms storefront + ${result.cpuMsPerPage.api} ms API` +
            ` (${result.cacheControl}; ${result.pageCache ?? 'no page cache'}; load ${result.loadAverageBefore.join(' ')})`,
        );
      }
      await s.stop();
    }

    const out = {
      date: new Date().toISOString(),
      command: `BENCH_DURATION=${DURATION} BENCH_CONNECTIONS=${CONNECTIONS} BENCH_MODES=${MODES.join(',')} BENCH_PAGES=${PAGES.join(',')} BENCH_WORKERS=${WORKERS}${GIVEN_COPY ? ` BENCH_STOREFRONT=${GIVEN_COPY}` : ''} node bench/web/pages.mjs`,
      storefront: GIVEN_COPY ?? 'apps/storefront/build (copied at start)',
      note: 'before: PAGE_CACHE_MAX_BYTES=0 (every page rendered per request); after: the page cache with its defaults',
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim(),
      machine: machine(),
      loadAverageAtEnd: loadAverage(),
      results,
    };
    const file = process.env.BENCH_OUT
      ? path.resolve(process.env.BENCH_OUT)
      : path.join(root, 'bench', 'results', `pages-${new Date().toISOString().slice(0, 10)}.json`);
    fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
    console.log(`wrote ${path.relative(root, file)}`);
  } finally {
    for (const p of procs.reverse()) await p.stop();
    if (!GIVEN_COPY) fs.rmSync(copy, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
