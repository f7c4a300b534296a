#!/usr/bin/env node
// Start time and memory of the embedded engine with a data folder holding the catalogue
// (BENCH_START_DOCS products, default 100,000, with the API's product indexes). Run after
// `npx nx run @shop/embedded-mongo:build`:
//   node bench/embedded-mongo-start.mjs
//   BENCH_START_DOCS=10000 node bench/embedded-mongo-start.mjs     # a quick run
// Each start runs in a fresh Node process (as `embedded-mongo --dbpath` or the API would), timed from
// before `require` of the engine to `startEmbeddedMongo` resolving, wall clock and CPU time (the CPU
// time is what a busy, shared machine distorts least), with the heap and RSS after a forced GC:
//   1. first start after the load: a journal only (as written by the inserts) -> bulk index build
//      with a sort, then compaction into snapshot.bson (with each index's order);
//   2. start from the snapshot: indexes built from their stored order, nothing to compact;
//   3. start from the snapshot plus a journal of a day's writes (updates, inserts, deletes) replayed
//      on top of the built indexes.
// Writes bench/results/embedded-mongo-start.json.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fill, product, productIndexes } from './lib/products.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, 'libs/embedded-mongo/dist');
const { startEmbeddedMongo } = require(path.join(dist, 'index.js'));
const mongodb = require.resolve('mongodb', { paths: [path.join(root, 'libs/embedded-mongo')] });
const { MongoClient, ObjectId } = require(mongodb);

const DOCS = Number(process.env.BENCH_START_DOCS ?? 100_000);
const TAIL_UPDATES = Math.round(DOCS / 50);
const loadAverage = () => os.loadavg().map((x) => Number(x.toFixed(2)));

/** One start in a child process: timings, memory, and a check that the data and indexes answer. */
function startOnce(dir) {
  const script = `
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
    const wall0 = performance.now();
    const { startEmbeddedMongo } = require(${JSON.stringify(path.join(dist, 'index.js'))});
    (async () => {
      const server = await startEmbeddedMongo({ dbPath: ${JSON.stringify(dir)} });
      const wall = (performance.now() - wall0) / 1000;
      const cpuSeconds = cpu();
      global.gc();
      const mem = process.memoryUsage();
      const { MongoClient } = require(${JSON.stringify(mongodb)});
      const client = await MongoClient.connect(server.uri);
      const coll = client.db('bench').collection('products');
      const documents = await coll.countDocuments({});
      const explain = await coll.find({ active: true, category: 'c3' }).sort({ priceSantim: 1 }).skip(180).limit(20).explain('executionStats');
      const page = await coll.find({ active: true, category: 'c3' }).sort({ priceSantim: 1 }).skip(180).limit(20).toArray();
      await client.close();
      await server.stop();
      console.log(JSON.stringify({
        seconds: Number(wall.toFixed(2)),
        cpuSeconds: Number(cpuSeconds.toFixed(2)),
        heapUsedMB: Math.round(mem.heapUsed / 1024 / 1024),
        rssMB: Math.round(mem.rss / 1024 / 1024),
        documents,
        sortedPage: { returned: page.length, index: explain.queryPlanner.winningPlan.inputStage?.indexName, keysExamined: explain.executionStats.totalKeysExamined },
      }));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const files = Object.fromEntries(
    fs
      .readdirSync(dir)
      .map((f) => [f, Number((fs.statSync(path.join(dir, f)).size / 1024 / 1024).toFixed(1))]),
  );
  const load = loadAverage();
  const run = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr || run.stdout);
  return { filesMB: files, loadAverage: load, ...JSON.parse(run.stdout.trim().split('\n').pop()) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-start-'));
const report = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  documents: DOCS,
};
try {
  const server = await startEmbeddedMongo({ dbPath: dir });
  const client = await MongoClient.connect(server.uri);
  const coll = client.db('bench').collection('products');
  await productIndexes(coll);
  const loadStarted = performance.now();
  const ids = await fill(coll, DOCS, ObjectId);
  report.loadSeconds = Number(((performance.now() - loadStarted) / 1000).toFixed(2));
  await client.close();
  await server.stop();

  report.firstStart = startOnce(dir); // journal only: bulk build with a sort, then compaction
  report.snapshotStart = startOnce(dir); // snapshot with stored index orders

  // a day of writes after the snapshot: stock updates, new products, deletions
  const day = await startEmbeddedMongo({ dbPath: dir });
  const dayClient = await MongoClient.connect(day.uri);
  const products = dayClient.db('bench').collection('products');
  for (let i = 0; i < TAIL_UPDATES; i++)
    await products.updateOne({ _id: ids[(i * 7919) % ids.length] }, { $inc: { stock: -1 } });
  await products.insertMany(Array.from({ length: 100 }, (_, k) => product(DOCS + k, ObjectId)));
  await products.deleteMany({ _id: { $in: ids.slice(0, 100) } });
  await dayClient.close();
  await day.stop();
  report.tail = { updates: TAIL_UPDATES, inserts: 100, deletes: 100 };
  report.snapshotAndJournalStart = startOnce(dir);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

if (report.snapshotAndJournalStart.documents !== DOCS) throw new Error('documents lost across starts');
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(root, 'bench/results/embedded-mongo-start.json'),
  JSON.stringify(report, null, 2) + '\n',
);
console.log(`${DOCS} products, loaded through the driver in ${report.loadSeconds} s`);
for (const key of ['firstStart', 'snapshotStart', 'snapshotAndJournalStart']) {
  const r = report[key];
  console.log(
    `  ${key.padEnd(24)} ${String(r.seconds).padStart(6)} s wall, ${String(r.cpuSeconds).padStart(6)} s CPU, heap ${r.heapUsedMB} MB, RSS ${r.rssMB} MB, files ${JSON.stringify(r.filesMB)} MB, load ${r.loadAverage.join(' ')}`,
  );
}
