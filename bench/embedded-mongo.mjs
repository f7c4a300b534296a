#!/usr/bin/env node
// Throughput of the embedded engine through the official driver: inserts and indexed finds per second,
// in memory and on disk. Bounded in count and time. Run after `npm run build -w @shop/embedded-mongo`.
// Writes bench/results/embedded-mongo.json. EMBEDDED_MONGO_DIST=<folder> benchmarks another build of the
// engine (e.g. a copy of an older dist, for a before/after comparison) and then writes nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

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

const report = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  runs: [await run('memory'), await run('disk')],
};
if (!process.env.EMBEDDED_MONGO_DIST) {
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'bench/results/embedded-mongo.json'),
    JSON.stringify(report, null, 2) + '\n',
  );
}
for (const r of report.runs) {
  console.log(`\n${r.mode} (${r.collectionSize} documents)`);
  for (const x of r.results)
    console.log(
      `  ${x.label.padEnd(30)} ${String(x.perSecond).padStart(8)} /s  (${x.operations} in ${x.seconds}s)`,
    );
}
