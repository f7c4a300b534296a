#!/usr/bin/env node --expose-gc
// The search index alone (issue 31 point 3): its memory and the CPU of a distinct query, without HTTP
// nor database. The API's SearchIndex (from a build) over the synthetic catalogue of bench/api/run.mjs,
// each product passed through BSON as the driver hands it over (so its strings are copies, as in the API),
// then the same distinct queries as the row `search, distinct queries`, each followed by the listing's
// first page by relevance (24 products).
//
//   npx tsc -p apps/api/tsconfig.build.json                      # build first (or BENCH_API_DIST=<dir>)
//   node --expose-gc bench/api/search-index.mjs                   # 10,000 products
//   BENCH_PRODUCTS=100000 node --expose-gc bench/api/search-index.mjs
//
// Prints (and with BENCH_OUT=<file> writes) heap and array buffers after a garbage collection before and
// after the build, the build's time, and the time per query, wall and CPU (all, then the queries after
// the first 2,000; CPU time is the figure to compare on a shared machine).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchProducts, distinctSearches } from './catalogue.mjs';

const require = createRequire(import.meta.url);
const { ObjectId, BSON } = require('mongodb');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = process.env.BENCH_API_DIST
  ? path.resolve(process.env.BENCH_API_DIST)
  : path.join(root, 'apps/api/dist');
const products = Number(process.env.BENCH_PRODUCTS ?? 10000);
const queries = Number(process.env.BENCH_QUERIES ?? 20000);
const PAGE = 24;

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(1);
}
const { SearchIndex } = require(path.join(dist, 'modules/catalog/search-index.js'));
const { INDEXED_FIELDS } = require(path.join(dist, 'modules/catalog/search-query.js'));
const results = require(path.join(dist, 'modules/catalog/search-results.js'));
const { productSearchTerms } = require(path.join(dist, 'modules/catalog/search-terms.js'));

/** A product as the database answers the index's projection (a fresh BSON copy each time it is read). */
const project = (doc) => {
  const out = {};
  for (const field of Object.keys(INDEXED_FIELDS)) if (doc[field] !== undefined) out[field] = doc[field];
  out._id = doc._id;
  return BSON.deserialize(BSON.serialize(out));
};

const base = settle();
let docs = benchProducts(products, ObjectId, productSearchTerms);
/** A product's place in the catalogue (its ObjectId differs from run to run; its place does not). */
const place = new Map(docs.map((doc, i) => [String(doc._id), i]));
/** The parts of a Mongoose model the index uses, over `docs`. */
const model = {
  find: () => ({
    lean: () => ({
      batchSize: () => ({
        cursor: () => ({
          async *[Symbol.asyncIterator]() {
            for (const doc of docs) yield project(doc);
          },
        }),
      }),
      exec: async () => [],
    }),
  }),
  countDocuments: () => ({ exec: async () => docs.length }),
};
const changes = { listen: () => () => undefined };

function settle() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  const m = process.memoryUsage();
  return { heapMb: m.heapUsed / 2 ** 20, arrayBuffersMb: m.arrayBuffers / 2 ** 20, rssMb: m.rss / 2 ** 20 };
}
const round = (n) => Math.round(n * 10) / 10;

const index = new SearchIndex(model, changes, { hotCacheMaxAgeMs: 3_600_000 });
const started = performance.now();
await index.current();
const buildMs = performance.now() - started;
// the documents were the benchmark's (the database's, in the API): what is left is the index's
docs = docs.map(() => undefined);
docs.length = 0;
// what the build left for the collector (its last batch, the cursor) goes first
await new Promise((resolve) => setTimeout(resolve, 1000));
const index0 = settle();

/** Every query's count and first page (ids in order), digested: two builds that answer alike print the same. */
const digest = createHash('sha1');
/** The first page by relevance, as the listing asks it (whatever shape this build's result has). */
const firstPage = (found) => {
  if (!found) return 0;
  const ids = found.hits
    ? results.firstInOrder(found.hits, PAGE, results.byRelevance).map((hit) => hit.facts.id)
    : results.pageOf(found, 1, PAGE).map((facts) => facts.id);
  digest.update(`${found.hits?.length ?? found.docs.length}:${ids.map((id) => place.get(id)).join(',')};`);
  return ids.length;
};

const next = distinctSearches(products);
const texts = Array.from({ length: queries }, () => next());
let matched = 0;
/** CPU time of this process so far (ms): what the queries cost whatever else the machine runs. */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const t0 = performance.now();
const c0 = cpu();
let tWarm = t0;
let cWarm = c0;
for (let i = 0; i < texts.length; i++) {
  if (i === 2000) {
    tWarm = performance.now();
    cWarm = cpu();
  }
  // as the listing asks (its arrays lent) where this build can, else as earlier builds did
  if (index.searchNow) {
    await index.currentFor(texts[i]);
    matched += firstPage(index.searchNow(texts[i]));
  } else matched += firstPage(await index.search(texts[i]));
}
const t1 = performance.now();
const c1 = cpu();
const after = settle();
// (the index is read after the measure: a variable not read again could be collected before it)
const indexed = index.size;
const out = {
  date: new Date().toISOString(),
  dist,
  products: indexed,
  node: process.version,
  buildMs: Math.round(buildMs),
  memoryMb: {
    heapBefore: round(base.heapMb),
    heapAfterBuild: round(index0.heapMb),
    indexHeap: round(index0.heapMb - base.heapMb),
    arrayBuffersBefore: round(base.arrayBuffersMb),
    arrayBuffersAfterBuild: round(index0.arrayBuffersMb),
    // the index's typed arrays are outside the heap: heap and array buffers together are its memory
    indexArrayBuffers: round(index0.arrayBuffersMb - base.arrayBuffersMb),
    indexTotal: round(index0.heapMb - base.heapMb + index0.arrayBuffersMb - base.arrayBuffersMb),
    heapAfterQueries: round(after.heapMb),
    arrayBuffersAfterQueries: round(after.arrayBuffersMb),
    rssAfterQueries: round(after.rssMb),
  },
  queries: texts.length,
  msPerQuery: Math.round(((t1 - t0) / texts.length) * 1000) / 1000,
  msPerQueryAfter2000: Math.round(((t1 - tWarm) / (texts.length - 2000)) * 1000) / 1000,
  cpuMsPerQuery: Math.round(((c1 - c0) / texts.length) * 1000) / 1000,
  cpuMsPerQueryAfter2000: Math.round(((c1 - cWarm) / (texts.length - 2000)) * 1000) / 1000,
  loadAverage: (await import('node:os')).loadavg().map((l) => Math.round(l * 100) / 100),
  pageEntries: matched,
  answersDigest: digest.digest('hex'),
};
console.log(JSON.stringify(out, null, 2));
if (process.env.BENCH_OUT)
  fs.writeFileSync(path.resolve(process.env.BENCH_OUT), JSON.stringify(out, null, 2) + '\n');
