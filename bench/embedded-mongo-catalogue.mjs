#!/usr/bin/env node
// The engine side of one catalogue request, without HTTP: the API's own query (apps/api catalog
// service: find with filters + sort + skip/limit, and countDocuments of the same filter, in parallel)
// through Mongoose with the API's Product schema and indexes, against the embedded engine in this
// process. Reports wall and CPU milliseconds per request for the rotating pages (featured sort, pages
// 1..800) and the crawler mix (every category, sort, price range, pages 1..40), and writes
// bench/results/embedded-mongo-catalogue[-<products>].json. Build the API and the engine first.
//   node bench/embedded-mongo-catalogue.mjs                      # 10,000 products
//   BENCH_PRODUCTS=100000 node bench/embedded-mongo-catalogue.mjs
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/embedded-mongo-catalogue.mjs   # where the time goes
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { SORTS } from './lib/products.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// EMBEDDED_MONGO_DIST=<folder>: another build of the engine (a before/after comparison; writes nothing)
const dist = process.env.EMBEDDED_MONGO_DIST
  ? path.resolve(process.env.EMBEDDED_MONGO_DIST)
  : path.join(root, 'libs/embedded-mongo/dist');
const { startEmbeddedMongo } = require(path.join(dist, 'index.js'));
const mongoose = require(require.resolve('mongoose', { paths: [path.join(root, 'apps/api')] }));
const { ProductSchema } = require(path.join(root, 'apps/api/dist/modules/catalog/schemas/product.schema.js'));
const { productSearchTerms } = require(path.join(root, 'apps/api/dist/modules/catalog/search-terms.js'));

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const PAGE_SIZE = 20;
const CATEGORIES = ['skincare', 'makeup', 'haircare', 'fragrance'];
const SORT_KEYS = Object.keys(SORTS);

const server = await startEmbeddedMongo({ inMemory: true });
const conn = await mongoose.createConnection(server.uri, { dbName: 'bench' }).asPromise();
const Product = conn.model('Product', ProductSchema);
await Product.init(); // the API's indexes
const now = Date.now();
for (let start = 0; start < PRODUCTS; start += 1000) {
  const docs = [];
  for (let i = start; i < Math.min(PRODUCTS, start + 1000); i++) {
    const doc = {
      _id: new mongoose.Types.ObjectId(),
      name: `Shea Serum ${i + 1}`,
      sku: `BENCH-${i + 1}`,
      brand: ['Abyssinia Naturals', 'Sheba Botanicals', 'Harar Glow'][i % 3],
      description: 'A natural serum made with shea from Ethiopia.',
      ingredients: ['Shea', 'Water'],
      priceSantim: 5000 + ((i * 3571) % 300000),
      currency: 'ETB',
      images: ['/api/assets/products/placeholder.svg'],
      stock: 1 + (i % 80),
      category: CATEGORIES[i % CATEGORIES.length],
      active: true,
      isFeatured: i % 50 === 0,
      rating: Math.round((((i * 37) % 50) / 10) * 10) / 10,
      reviewCount: (i * 13) % 200,
      createdAt: new Date(now - i * 60000),
      updatedAt: new Date(now - i * 60000),
    };
    doc.searchTerms = productSearchTerms(doc);
    docs.push(doc);
  }
  await Product.collection.insertMany(docs);
}

/** One catalogue request as CatalogService.listProducts sends it. */
async function request(k, mode) {
  const filter = { active: true };
  let sort = SORTS.featured;
  let page = (k % 800) + 1;
  if (mode === 'crawler') {
    page = (k % 40) + 1;
    const category = ['', ...CATEGORIES][Math.floor(k / 40) % 5];
    if (category) filter.category = category;
    sort = SORTS[SORT_KEYS[Math.floor(k / 200) % SORT_KEYS.length]];
    if (Math.floor(k / 1000) % 2)
      filter.priceSantim = { $gte: (50 + (k % 7) * 100) * 100, $lte: (2000 + (k % 5) * 500) * 100 };
  }
  const [list] = await Promise.all([
    Product.find(filter)
      .sort(sort)
      .skip((page - 1) * PAGE_SIZE)
      .limit(PAGE_SIZE)
      .lean()
      .exec(),
    Product.countDocuments(filter).exec(),
  ]);
  return list.length;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const results = [];
for (const mode of ['rotating', 'crawler']) {
  for (let k = 0; k < 200; k++) await request(k * 37, mode); // warm-up
  const c0 = cpu();
  const t0 = performance.now();
  for (let k = 0; k < REQUESTS; k++) await request(k * 2 + 1, mode);
  results.push({
    mode,
    requests: REQUESTS,
    wallMsPerRequest: Number(((performance.now() - t0) / REQUESTS).toFixed(2)),
    cpuMsPerRequest: Number(((cpu() - c0) / REQUESTS).toFixed(2)),
  });
}
await conn.close();
await server.stop();
const report = {
  date: new Date().toISOString(),
  node: process.version,
  products: PRODUCTS,
  loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
  note: 'engine, Mongoose and the driver in one process: CPU ms per request is the engine side plus the client side',
  results,
};
if (!process.env.EMBEDDED_MONGO_DIST) {
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(
      root,
      `bench/results/embedded-mongo-catalogue${PRODUCTS === 10_000 ? '' : `-${PRODUCTS}`}.json`,
    ),
    JSON.stringify(report, null, 2) + '\n',
  );
}
for (const r of results)
  console.log(
    `${PRODUCTS} products, ${r.mode}: ${r.wallMsPerRequest} ms wall, ${r.cpuMsPerRequest} ms CPU per request`,
  );
