#!/usr/bin/env node
// API throughput benchmark: the built API on the in-memory embedded engine (its own process, like mongod,
// reached over a Unix socket as a mongod on the same machine would be)
// seeded with 10,000 products,
// measured with autocannon, and compared with a bare Node http server answering a pre-serialised
// catalogue page (the floor: what this machine can do with no framework and no database).
//
//   npx tsc -p apps/api/tsconfig.build.json && npx tsc -p libs/embedded-mongo/tsconfig.build.json   # build first
//   node bench/api/run.mjs                    # 100 connections, 5 s warm-up + 20 s per endpoint
//   BENCH_DURATION=5 BENCH_WARMUP=2 node bench/api/run.mjs   # a quick run
//   BENCH_PRODUCTS=100000 BENCH_ONLY=catalogue node bench/api/run.mjs   # the catalogue at 100,000 products
//   BENCH_ONLY=distinct node bench/api/run.mjs   # the search with a different query each time (issue 31)
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' node bench/api/run.mjs   # profile API and engine
//   BENCH_API_DIST=/tmp/before/apps/api/dist node bench/api/run.mjs   # a private build (its tree needs node_modules)
//
// Each case also reports the CPU time per request of the API and of the engine process (user + system,
// from /proc, Linux), which says what a request costs even when other work shares the machine.
//
// Writes bench/results/api-<YYYY-MM-DD>[-<products>][-only-<cases>].json (BENCH_OUT=<file> writes there instead).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, benchProducts, distinctSearches } from './catalogue.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { MongoClient, ObjectId } = require('mongodb');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** BENCH_API_DIST=<dir>: a private build of the API (`tsc -p apps/api/tsconfig.build.json --outDir <dir>`) to compare two versions. */
const apiDist = process.env.BENCH_API_DIST
  ? path.resolve(process.env.BENCH_API_DIST)
  : path.join(root, 'apps/api/dist');
const apiMain = path.join(apiDist, 'main.js');
const settings = {
  products: Number(process.env.BENCH_PRODUCTS ?? 10000),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 100),
  pipelining: 1,
  durationSeconds: Number(process.env.BENCH_DURATION ?? 20),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 5),
  customers: Number(process.env.BENCH_CUSTOMERS ?? 100),
  /** BENCH_ONLY=catalogue,product: only the cases whose name contains one of these (the floor always runs). */
  only: (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean),
};

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof': extra Node flags for the API and engine processes. */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

function startProcess(args, env) {
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const waitFor = async (pattern, ms = 60000) => {
    const end = Date.now() + ms;
    for (;;) {
      const m = pattern.exec(output);
      if (m) return m;
      if (child.exitCode !== null) throw new Error(`process exited early:\n${output}`);
      if (Date.now() > end) throw new Error(`timed out waiting for ${pattern}:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10000).unref();
    });
  return { child, waitFor, stop, output: () => output };
}

/** 10,000 products written straight into the API's database, shaped as the catalogue module stores them. */
async function seed(uri, dbName) {
  const { productSearchTerms } = require(path.join(apiDist, 'modules/catalog/search-terms.js'));
  const client = await MongoClient.connect(uri);
  const products = client.db(dbName).collection('products');
  const docs = benchProducts(settings.products, ObjectId, productSearchTerms);
  for (let i = 0; i < docs.length; i += 1000)
    await products.insertMany(docs.slice(i, i + 1000), { ordered: false });
  await client.close();
  return docs.map((d) => String(d._id));
}

async function post(base, urlPath, body, headers = {}) {
  const res = await fetch(`${base}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${urlPath} -> ${res.status} ${JSON.stringify(json)}`);
  return json;
}

function run(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on('error', reject);
  });
}

let settleUrl;
/** Requests still queued in the API when a run ends would slow the next run: wait until it answers at once. */
async function settle() {
  if (!settleUrl) return;
  for (let i = 0; i < 600; i++) {
    const started = Date.now();
    await fetch(settleUrl)
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
    if (Date.now() - started < 50) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Processes whose CPU time each measured run reports (the API and the engine), by name. */
const cpuWatched = new Map();
const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ
/** CPU time (user + system) a process has used so far, in ms, from /proc (undefined where there is none). */
function cpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** A process's resident memory in MB, from /proc (undefined where there is none). */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return undefined;
  }
}

/** Searches asked by `nextSearch`, and how many of them repeated an earlier query (none, ideally). */
const searchStats = { asked: 0, repeated: 0 };
function searchQueries() {
  const next = distinctSearches(settings.products, searchStats);
  return () => `/api/products?search=${encodeURIComponent(next())}`;
}

/** Warm-up (discarded), then the measured run. */
async function measure(name, options) {
  if (settings.only.length && !name.startsWith('floor') && !settings.only.some((o) => name.includes(o)))
    return { name, skipped: true };
  const base = { connections: settings.connections, pipelining: settings.pipelining, timeout: 30 };
  process.stdout.write(`${name}: warm-up ${settings.warmupSeconds}s, `);
  if (settings.warmupSeconds > 0) {
    await run({ ...base, ...options(), duration: settings.warmupSeconds });
    await settle();
  }
  process.stdout.write(`measuring ${settings.durationSeconds}s ... `);
  const cpuBefore = new Map([...cpuWatched].map(([who, pid]) => [who, cpuMs(pid)]));
  const r = await run({ ...base, ...options(), duration: settings.durationSeconds });
  // CPU time per request: what a request costs each process, whatever else the machine is doing
  // (requests per second on a shared machine measure the neighbours as much as the code)
  const cpuMsPerRequest = {};
  for (const [who, pid] of cpuWatched) {
    const before = cpuBefore.get(who);
    const after = cpuMs(pid);
    if (before !== undefined && after !== undefined && r.requests.total > 0)
      cpuMsPerRequest[who] = Math.round(((after - before) / r.requests.total) * 1000) / 1000;
  }
  await settle();
  const summary = {
    name,
    requestsPerSec: Math.round(r.requests.average * 10) / 10,
    latencyMs: { p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, average: r.latency.average },
    totalRequests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    throughputBytesPerSec: Math.round(r.throughput.average),
    cpuMsPerRequest,
    loadAverageAfter: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
  const cpu = Object.entries(cpuMsPerRequest)
    .map(([who, ms]) => `${who} ${ms}`)
    .join(', ');
  console.log(
    `${summary.requestsPerSec} req/s, p50 ${summary.latencyMs.p50} ms, p99 ${summary.latencyMs.p99} ms, errors ${summary.errors}, non-2xx ${summary.non2xx}${cpu ? `; CPU ms per request: ${cpu}` : ''}`,
  );
  return summary;
}

function machine() {
  const cpu =
    fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.+)/)?.[1] ?? os.cpus()[0]?.model;
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    cpu,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

async function main() {
  if (!fs.existsSync(apiMain)) {
    console.error('apps/api/dist/main.js is missing: run `npx tsc -p apps/api/tsconfig.build.json` first.');
    process.exit(1);
  }
  const engineCli = path.join(root, 'libs/embedded-mongo/dist/cli.js');
  if (!fs.existsSync(engineCli)) {
    console.error(
      'libs/embedded-mongo/dist/cli.js is missing: run `npx tsc -p libs/embedded-mongo/tsconfig.build.json` first.',
    );
    process.exit(1);
  }
  const apiPort = await freePort();
  const floorPort = await freePort();
  const enginePort = await freePort();
  // The database in its own process, as mongod would be: its work never blocks the API's event loop.
  // the API reaches the engine over a Unix socket, as it would a mongod on the same machine
  // (`npm run start:cluster` does the same)
  const socketPath = path.join(os.tmpdir(), `bench-engine-${enginePort}.sock`);
  const engine = startProcess(
    [engineCli, '--memory', '--port', String(enginePort), '--socket', socketPath],
    {},
  );
  await engine.waitFor(/embedded-mongo listening/);
  // the catalogue is stored before the API starts, as in production: the API builds its search index
  // from it at start (docs/decisions/0084-search-index.md), and the build's time and size are reported
  const engineUri = `mongodb://${encodeURIComponent(socketPath)}/?directConnection=true`;
  console.log(`Engine up; seeding ${settings.products} products ...`);
  const ids = await seed(engineUri, 'bench');
  // the API's Node flags as deployed (apps/api/Dockerfile's NODE_OPTIONS: decision 0103)
  const api = startProcess(['--max-semi-space-size=64', apiMain], {
    NODE_ENV: 'production',
    ALLOW_NO_MAIL: 'true', // no SMTP server in the benchmark: messages stay in the outbox
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_SECRET_KEY: randomBytes(16).toString('hex'),
    CORS_ORIGINS: 'http://localhost:3000',
    EMBEDDED_IN_MEMORY: 'true',
    MONGOMS_ENABLED: 'false',
    SEED_ON_EMPTY: 'false',
    AUTH_RATE_LIMIT: '100000',
    MONGODB_URI: engineUri,
    MONGODB_DB: 'bench',
    ALLOW_TEST_PAYMENTS: 'true',
  });
  const stops = [engine.stop, api.stop];
  cpuWatched.set('api', api.child.pid);
  cpuWatched.set('engine', engine.child.pid);
  try {
    await api.waitFor(/API listening/);
    const base = `http://127.0.0.1:${apiPort}`;
    settleUrl = `${base}/api/health`;
    const [, indexed, buildMs, heapMb] = await api.waitFor(
      /Search index: (\d+) products in (\d+) ms \(heap \+(-?\d+) MB\)/,
      600000,
    );
    const searchIndex = {
      products: Number(indexed),
      buildMs: Number(buildMs),
      heapGrowthMb: Number(heapMb),
      apiRssMbAfterBuild: rssMb(api.child.pid),
    };
    console.log(`API on ${base}; search index: ${JSON.stringify(searchIndex)}`);
    for (const probe of [
      '/api/products',
      '/api/products?search=moringa%20serum',
      `/api/products/${ids[0]}`,
    ]) {
      const started = Date.now();
      const res = await fetch(`${base}${probe}`);
      await res.arrayBuffer();
      console.log(`  one request ${probe}: ${res.status} in ${Date.now() - started} ms`);
    }

    const tokens = [];
    for (let i = 0; i < settings.customers; i++) {
      const res = await post(base, '/api/auth/register', {
        name: `Bench Customer ${i}`,
        email: `bench${i}@example.et`,
        password: 'Bench@2026x',
      });
      tokens.push(res.token);
    }

    // The floor: a bare http server answering the same catalogue page, serialised once.
    const page = await (await fetch(`${base}/api/products`)).text();
    const pageFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-floor-')), 'page.json');
    fs.writeFileSync(pageFile, page);
    const floor = startProcess(
      [
        '-e',
        `const b=require('fs').readFileSync(${JSON.stringify(pageFile)});require('http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':b.length});s.end(b)}).listen(${floorPort},'127.0.0.1',()=>console.log('floor listening'))`,
      ],
      {},
    );
    stops.push(floor.stop);
    await floor.waitFor(/floor listening/);

    const results = [];
    cpuWatched.set('floor', floor.child.pid);
    const floorResult = await measure('floor: bare http server, pre-serialised catalogue page', () => ({
      url: `http://127.0.0.1:${floorPort}/api/products`,
    }));
    cpuWatched.delete('floor');

    const url = (p) => `${base}${p}`;
    results.push({
      method: 'GET',
      path: '/api/products',
      ...(await measure('catalogue list', () => ({ url: url('/api/products') }))),
    });
    /** GET requests whose path `nextPath()` picks afresh for every request. */
    const rotatingGet = (nextPath) => ({
      url: base,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextPath() }) }],
    });
    let pageNumber = 0;
    results.push({
      method: 'GET',
      path: '/api/products?page={1..800} (rotating: mostly micro-cache misses)',
      ...(await measure('catalogue list, rotating pages', () =>
        rotatingGet(() => `/api/products?page=${(pageNumber++ % 800) + 1}`),
      )),
    });
    results.push({
      method: 'GET',
      path: '/api/products?search=moringa serum',
      ...(await measure('search', () => ({ url: url('/api/products?search=moringa%20serum') }))),
    });
    const nextSearch = searchQueries();
    results.push({
      method: 'GET',
      path: '/api/products?search={a different query each time: catalogue words, some cut short, some with typos}',
      ...(await measure('search, distinct queries', () => rotatingGet(nextSearch))),
      queries: { ...searchStats },
    });
    // a crawler walking the filters: every category (and none), every sort, price ranges and pages
    const SORT_KEYS = ['featured', 'price_asc', 'price_desc', 'newest', 'reviews'];
    const CATEGORY_KEYS = ['', ...Object.keys(CATEGORIES)];
    let combination = 0;
    const crawlerPath = () => {
      const k = combination++;
      const params = new URLSearchParams({ page: String((k % 40) + 1) });
      const category = CATEGORY_KEYS[Math.floor(k / 40) % CATEGORY_KEYS.length];
      if (category) params.set('category', category);
      params.set('sort', SORT_KEYS[Math.floor(k / 200) % SORT_KEYS.length]);
      if (Math.floor(k / 1000) % 2) {
        params.set('minPrice', String(50 + (k % 7) * 100));
        params.set('maxPrice', String(2000 + (k % 5) * 500));
      }
      return `/api/products?${params}`;
    };
    results.push({
      method: 'GET',
      path: '/api/products?category&sort&minPrice&maxPrice&page (rotating filters: micro-cache misses)',
      ...(await measure('catalogue list, rotating filters, sorts and pages', () => rotatingGet(crawlerPath))),
    });
    let next = 0;
    results.push({
      method: 'GET',
      path: '/api/products/{id} (rotating over 10,000 ids)',
      ...(await measure('product detail', () =>
        rotatingGet(() => `/api/products/${ids[next++ % ids.length]}`),
      )),
    });

    const cartProducts = ids.slice(0, 1000);

    // Each connection is one signed-in customer (setupClient). A cart holds 3 products whose quantities
    // grow: a cart answer carries live data of every line, so an ever-growing cart would measure cart size.
    const customerPerConnection = () => {
      let next = 0;
      return (client) => client.setHeaders({ authorization: `Bearer ${tokens[next++ % tokens.length]}` });
    };
    /** One autocannon request adding a unit of the product `next()` picks to the connection's cart. */
    const addToCart = (next) => ({
      method: 'POST',
      setupRequest: (req) => ({
        ...req,
        path: '/api/cart/add',
        headers: { ...req.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ productId: next(), quantity: 1 }),
      }),
    });
    let addCounter = 0;
    results.push({
      method: 'POST',
      path: '/api/cart/add',
      ...(await measure('add to cart (authenticated)', () => ({
        url: base,
        setupClient: customerPerConnection(),
        requests: [addToCart(() => cartProducts[addCounter++ % 3])],
      }))),
    });
    // Empty the carts that the add-to-cart run filled, so that orders hold one line.
    for (const token of tokens)
      await fetch(`${base}/api/cart/clear`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });

    let orderCounter = 0;
    const orderRun = await measure('order placement (add one line, then POST /api/orders)', () => ({
      url: base,
      setupClient: customerPerConnection(),
      requests: [
        addToCart(() => cartProducts[orderCounter++ % cartProducts.length]),
        {
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            path: '/api/orders',
            headers: {
              ...req.headers,
              'content-type': 'application/json',
              'idempotency-key': `bench-${process.pid}-${randomBytes(8).toString('hex')}`,
            },
            body: JSON.stringify({
              shippingAddress: {
                street: 'Bole Road 12',
                city: 'Addis Ababa',
                state: 'Addis Ababa',
                zipCode: '1000',
                country: 'Ethiopia',
              },
              paymentMethod: 'chapa',
              shippingMethod: 'standard',
            }),
          }),
        },
      ],
    }));
    // Both requests of a checkout are counted by autocannon: orders per second are half of it.
    results.push({
      method: 'POST',
      path: '/api/cart/add + /api/orders (each order its own Idempotency-Key)',
      ...orderRun,
      ordersPerSec: Math.round((orderRun.requestsPerSec / 2) * 10) / 10,
    });

    for (let i = results.length - 1; i >= 0; i--) if (results[i].skipped) results.splice(i, 1);
    const floorRps = floorResult.requestsPerSec;
    for (const r of results) r.ratioToFloor = Math.round((r.requestsPerSec / floorRps) * 10000) / 10000;
    const date = new Date().toISOString().slice(0, 10);
    const out = {
      date: new Date().toISOString(),
      command: `BENCH_DURATION=${settings.durationSeconds} BENCH_WARMUP=${settings.warmupSeconds} node bench/api/run.mjs`,
      machine: machine(),
      settings: {
        ...settings,
        database: 'embedded engine (libs/embedded-mongo), in memory, in its own process, over a Unix socket',
        nodeEnv: 'production',
        microCacheMs: 1000,
      },
      searchIndex,
      floor: floorResult,
      endpoints: results,
    };
    const suffix = `${settings.products === 10000 ? '' : `-${settings.products}`}${settings.only.length ? `-only-${settings.only.join('+')}` : ''}`;
    const file = process.env.BENCH_OUT
      ? path.resolve(process.env.BENCH_OUT)
      : path.join(root, 'bench', 'results', `api-${date}${suffix}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
    console.log(`\nwrote ${path.relative(root, file)}`);
    for (const r of results)
      console.log(
        `  ${r.name.padEnd(60)} ${String(r.requestsPerSec).padStart(9)} req/s  x${r.ratioToFloor} of floor  p99 ${r.latencyMs.p99} ms  CPU ms/req api ${r.cpuMsPerRequest?.api ?? '-'} engine ${r.cpuMsPerRequest?.engine ?? '-'}`,
      );
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
