#!/usr/bin/env node
// Throughput of the embedded engine through the official driver: inserts and indexed finds per second,
// in memory and on disk; then a catalogue at scale (BENCH_SCALE_DOCS, default 100,000 products): the
// sorted page find({ active: true, category }).sort({ price: 1 }).skip(180).limit(20) against
// findOne({ _id }) in the same run (the ratio is the figure), countDocuments of a category, the
// engine's heap at that size, and its start time (journal replay) from a data folder of that size.
// Bounded in count and time. Run after `npm run build -w @shop/embedded-mongo`:
//   node bench/embedded-mongo.mjs                       # full run
//   BENCH_SCALE_DOCS=10000 node bench/embedded-mongo.mjs # a quick run
//   BENCH_SCALE_ONLY=1 BENCH_PAGE_RUNS=500 node --expose-gc bench/embedded-mongo.mjs  # only the 100,000 figures
// Writes bench/results/embedded-mongo.json. EMBEDDED_MONGO_DIST=<folder> benchmarks another build of the
// engine (e.g. a copy of an older dist, for a before/after comparison) and then writes nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fill as fillProducts, productIndexes } from './lib/products.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = process.env.EMBEDDED_MONGO_DIST
  ? path.resolve(process.env.EMBEDDED_MONGO_DIST)
  : path.join(root, 'libs/embedded-mongo/dist');
const { startEmbeddedMongo } = require(path.join(dist, 'index.js'));
const { MongoClient, ObjectId } = require(
  require.resolve('mongodb', { paths: [path.join(root, 'libs/embedded-mongo')] }),
);

const SINGLE = 2000;
const BATCH_DOCS = 20000;
const FINDS = 3000;
const TIME_LIMIT_MS = 60_000;

async function measure(label, count, fn) {
  const started = performance.now();
  let done = 0;
  for (; done < count && performance.now() - started < TIME_LIMIT_MS; done++) await fn(done);
  const seconds = (performance.now() - started) / 1000;
  return {
    label,
    operations: done,
    seconds: Number(seconds.toFixed(3)),
    perSecond: Math.round(done / seconds),
  };
}

async function run(mode) {
  const dir = mode === 'disk' ? fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-bench-')) : undefined;
  const server = await startEmbeddedMongo({ inMemory: mode === 'memory', dbPath: dir });
  const client = await MongoClient.connect(server.uri);
  const coll = client.db('bench').collection('items');
  await coll.createIndex({ sku: 1 }, { unique: true });
  await coll.createIndex({ cat: 1 });
  const ids = [];
  const results = [];
  results.push(
    await measure('insertOne', SINGLE, async (i) => {
      const { insertedId } = await coll.insertOne({
        sku: `s${i}`,
        price: i,
        name: `Product ${i}`,
        active: i % 10 !== 0,
        cat: `c${i % 200}`,
      });
      ids.push(insertedId);
    }),
  );
  const batches = BATCH_DOCS / 1000;
  const batch = await measure('insertMany(1000)', batches, (b) =>
    coll.insertMany(Array.from({ length: 1000 }, (_, i) => ({ sku: `b${b}-${i}`, price: i }))),
  );
  results.push({
    ...batch,
    label: 'insertMany documents',
    operations: batch.operations * 1000,
    perSecond: batch.perSecond * 1000,
  });
  results.push(
    await measure('findOne by _id', FINDS, (i) =>
      coll.findOne({ _id: ids[i % ids.length] ?? new ObjectId() }),
    ),
  );
  results.push(
    await measure('findOne by unique sku', Math.min(FINDS, 300), (i) =>
      coll.findOne({ sku: `s${i % SINGLE}` }),
    ),
  );
  // the shapes the API sends: _id with another condition, _id $in, and a non-unique indexed field
  results.push(
    await measure('findOne {_id, active: true}', Math.min(FINDS, 300), (i) =>
      coll.findOne({ _id: ids[i % ids.length], active: true }),
    ),
  );
  results.push(
    await measure('find {_id: {$in: 10 ids}}', Math.min(FINDS, 300), (i) =>
      coll
        .find({ _id: { $in: Array.from({ length: 10 }, (_, k) => ids[(i * 10 + k) % ids.length]) } })
        .toArray(),
    ),
  );
  results.push(
    await measure('find {cat} (10 of 22,000, indexed)', Math.min(FINDS, 300), (i) =>
      coll.find({ cat: `c${i % 200}` }).toArray(),
    ),
  );
  results.push(
    await measure('updateOne {_id, price >= 0} $inc', Math.min(FINDS, 300), (i) =>
      coll.updateOne({ _id: ids[i % ids.length], price: { $gte: 0 } }, { $inc: { price: 1 } }),
    ),
  );
  await client.close();
  await server.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  return { mode, collectionSize: SINGLE + BATCH_DOCS, results };
}

const SCALE_DOCS = Number(process.env.BENCH_SCALE_DOCS ?? 100_000);
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 2000);

const mb = (bytes) => Math.round(bytes / 1024 / 1024);

async function scale() {
  const out = { documents: SCALE_DOCS };
  // memory: the heap the engine holds for the catalogue (the engine runs in this process)
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const server = await startEmbeddedMongo({ inMemory: true });
  const client = await MongoClient.connect(server.uri);
  const coll = client.db('bench').collection('products');
  await productIndexes(coll);
  const loadStarted = performance.now();
  const ids = await fillProducts(coll, SCALE_DOCS, ObjectId);
  out.loadSeconds = Number(((performance.now() - loadStarted) / 1000).toFixed(2));
  global.gc?.();
  const mem = process.memoryUsage();
  out.memory = {
    heapUsedMB: mb(mem.heapUsed - heapBefore),
    rssGrowthMB: mb(mem.rss - rssBefore),
    note: global.gc ? 'after gc' : 'run with node --expose-gc for a heap figure after collection',
  };
  const results = [];
  const floor = await measure('findOne({ _id })', PAGE_RUNS, (i) =>
    coll.findOne({ _id: ids[(i * 7919) % ids.length] }),
  );
  results.push(floor);
  const page = await measure(
    'find({active, category}).sort({price: 1}).skip(180).limit(20)',
    PAGE_RUNS,
    (i) =>
      coll
        .find({ active: true, category: `c${(i % 19) + 1}` })
        .sort({ priceSantim: 1 })
        .skip(180)
        .limit(20)
        .toArray(),
  );
  results.push({ ...page, ratioToFindOneById: Number((floor.perSecond / page.perSecond).toFixed(2)) });
  const count = await measure('countDocuments({active, category})', PAGE_RUNS, (i) =>
    coll.countDocuments({ active: true, category: `c${(i % 19) + 1}` }),
  );
  results.push({ ...count, ratioToFindOneById: Number((floor.perSecond / count.perSecond).toFixed(2)) });
  const featured = await measure('find({active}).sort(featured).skip(180).limit(20)', PAGE_RUNS, () =>
    coll
      .find({ active: true })
      .sort({ isFeatured: -1, rating: -1, createdAt: -1, _id: 1 })
      .skip(180)
      .limit(20)
      .toArray(),
  );
  results.push({
    ...featured,
    ratioToFindOneById: Number((floor.perSecond / featured.perSecond).toFixed(2)),
  });
  const search = await measure('find({active, searchTerms ^prefix}).sort(price)', 300, (i) =>
    coll
      .find({ active: true, $and: [{ searchTerms: { $regex: `^w${i % 100}` } }] })
      .sort({ priceSantim: 1, _id: 1 })
      .limit(20)
      .toArray(),
  );
  results.push({ ...search, ratioToFindOneById: Number((floor.perSecond / search.perSecond).toFixed(2)) });
  const explain = await coll
    .find({ active: true, category: 'c3' })
    .sort({ priceSantim: 1 })
    .skip(180)
    .limit(20)
    .explain('executionStats');
  out.sortedPagePlan = {
    index: explain.queryPlanner.winningPlan.inputStage?.indexName ?? explain.queryPlanner.winningPlan.stage,
    keysExamined: explain.executionStats.totalKeysExamined,
    docsExamined: explain.executionStats.totalDocsExamined,
  };
  out.results = results;
  await client.close();
  await server.stop();

  // start time: a data folder holding the catalogue, reopened (journal replay and compaction)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-bench-scale-'));
  const disk = await startEmbeddedMongo({ dbPath: dir });
  const diskClient = await MongoClient.connect(disk.uri);
  const diskColl = diskClient.db('bench').collection('products');
  await productIndexes(diskColl);
  await fillProducts(diskColl, SCALE_DOCS, ObjectId);
  await diskClient.close();
  await disk.stop();
  out.journalMB = mb(fs.statSync(path.join(dir, 'journal.bson')).size);
  const started = performance.now();
  const reopened = await startEmbeddedMongo({ dbPath: dir });
  out.startSeconds = Number(((performance.now() - started) / 1000).toFixed(2));
  const check = await MongoClient.connect(reopened.uri);
  out.documentsAfterRestart = await check.db('bench').collection('products').countDocuments({});
  await check.close();
  await reopened.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

const report = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
  // BENCH_SCALE_ONLY=1 skips the 22,000-document insert/find runs
  runs: process.env.BENCH_SCALE_ONLY ? [] : [await run('memory'), await run('disk')],
  scale: await scale(),
};
if (!process.env.EMBEDDED_MONGO_DIST) {
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(root, `bench/results/embedded-mongo${process.env.BENCH_SCALE_ONLY ? '-scale' : ''}.json`),
    JSON.stringify(report, null, 2) + '\n',
  );
}
console.log(`\nscale (${report.scale.documents} products, load average ${report.loadAverage.join(' ')})`);
for (const x of report.scale.results)
  console.log(
    `  ${x.label.padEnd(62)} ${String(x.perSecond).padStart(8)} /s${x.ratioToFindOneById ? `  (${x.ratioToFindOneById}x findOne by _id)` : ''}`,
  );
console.log(`  sorted page plan: ${JSON.stringify(report.scale.sortedPagePlan)}`);
console.log(`  memory: ${JSON.stringify(report.scale.memory)}, load ${report.scale.loadSeconds}s`);
console.log(`  start (journal replay, ${report.scale.journalMB} MB): ${report.scale.startSeconds}s`);
for (const r of report.runs) {
  console.log(`\n${r.mode} (${r.collectionSize} documents)`);
  for (const x of r.results)
    console.log(
      `  ${x.label.padEnd(30)} ${String(x.perSecond).padStart(8)} /s  (${x.operations} in ${x.seconds}s)`,
    );
}
