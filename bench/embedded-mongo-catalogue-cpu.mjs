#!/usr/bin/env node
// The engine's CPU time per catalogue page, without the API or a load generator in the way: the queries
// the API sends for one uncached page of the catalogue list (the page's ids and stamps in order, and the
// filter's count: `find` with the stamp projection and `count`), sent straight to an engine process
// holding the API's product indexes and the bench's products, 20 pages at a time. Reports the engine
// process's CPU time (user + system, from /proc) per page for the rotating pages (featured, 1..800) and
// the crawler mix of bench/api/run.mjs (every category, sort, price range and page 1..40).
//
//   npx tsc -p libs/embedded-mongo/tsconfig.build.json         # build first
//   node bench/embedded-mongo-catalogue-cpu.mjs                # 10,000 products
//   BENCH_PRODUCTS=100000 node bench/embedded-mongo-catalogue-cpu.mjs
//   BENCH_ENGINE=/path/to/other/checkout node bench/embedded-mongo-catalogue-cpu.mjs   # another build's engine
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { SORTS } from './lib/products.mjs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { MongoClient, ObjectId } = require('mongodb');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const engineRoot = path.resolve(process.env.BENCH_ENGINE ?? root);
const products = Number(process.env.BENCH_PRODUCTS ?? 10000);
const PAGES = 3000;
const WARMUP = 500;
const CONCURRENCY = 20;

/** CPU time (user + system) a process has used so far, in ms (Linux: 100 ticks per second). */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const CATEGORIES = {
  skincare: ['serums', 'treatments', 'masks'],
  makeup: ['lips', 'eyes'],
  haircare: ['shampoo'],
  fragrance: [],
};
/** The product indexes the API declares (apps/api/src/modules/catalog/schemas/product.schema.ts). */
const INDEXES = [
  { active: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 },
  { active: 1, category: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 },
  { active: 1, priceSantim: 1, _id: 1 },
  { active: 1, category: 1, priceSantim: 1, _id: 1 },
  { active: 1, reviewCount: -1, rating: -1, _id: 1 },
  { active: 1, category: 1, reviewCount: -1, rating: -1, _id: 1 },
  { active: 1, createdAt: -1, _id: -1 },
  { active: 1, category: 1, createdAt: -1, _id: -1 },
  { active: 1, rating: -1 },
  { brand: 1 },
  { stock: 1 },
  { searchTerms: 1 },
];
const STAMP = { _id: 1, updatedAt: 1, priceSantim: 1, stock: 1, rating: 1, reviewCount: 1 };

async function main() {
  const cli = path.join(engineRoot, 'libs/embedded-mongo/dist/cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: build the engine first`);
  const port = 39500 + Math.floor(Math.random() * 400);
  const engine = spawn(process.execPath, [cli, '--memory', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) =>
    engine.stdout.on('data', (d) => String(d).includes('listening') && resolve()),
  );
  const client = await MongoClient.connect(`mongodb://127.0.0.1:${port}/?directConnection=true`);
  try {
    const db = client.db('catalogue_cpu');
    const collection = db.collection('products');
    for (const key of INDEXES) await collection.createIndex(key);
    const categories = Object.keys(CATEGORIES);
    let batch = [];
    for (let i = 0; i < products; i++) {
      const category = categories[i % categories.length];
      const subs = CATEGORIES[category];
      batch.push({
        _id: new ObjectId(),
        name: `Shea Cream ${i + 1}`,
        sku: `BENCH-${i + 1}`,
        brand: `Brand ${i % 5}`,
        description: 'A natural cream made with shea from Ethiopia.',
        ingredients: ['Shea', 'Water'],
        priceSantim: 5000 + ((i * 3571) % 300000),
        currency: 'ETB',
        images: ['/api/assets/products/placeholder.svg'],
        stock: 1 + (i % 80),
        category,
        ...(subs.length ? { subCategory: subs[i % subs.length] } : {}),
        active: true,
        isFeatured: i % 50 === 0,
        rating: Math.round((((i * 37) % 50) / 10) * 10) / 10,
        reviewCount: (i * 13) % 200,
        createdAt: new Date(Date.now() - i * 60000),
        updatedAt: new Date(Date.now() - i * 60000),
      });
      if (batch.length === 1000) {
        await collection.insertMany(batch);
        batch = [];
      }
    }
    if (batch.length) await collection.insertMany(batch);
    const sortNames = Object.keys(SORTS);
    const categoryNames = ['', ...categories];
    /** The k-th page of a run, as bench/api/run.mjs walks them. */
    const page = (k, mode) => {
      const filter = { active: true };
      if (mode === 'rotating') return { filter, sort: SORTS.featured, number: (k % 800) + 1 };
      const category = categoryNames[Math.floor(k / 40) % categoryNames.length];
      if (category) filter.category = category;
      if (Math.floor(k / 1000) % 2)
        filter.priceSantim = { $gte: (50 + (k % 7) * 100) * 100, $lte: (2000 + (k % 5) * 500) * 100 };
      return { filter, sort: SORTS[sortNames[Math.floor(k / 200) % sortNames.length]], number: (k % 40) + 1 };
    };
    const read = async (k, mode) => {
      const { filter, sort, number } = page(k, mode);
      await Promise.all([
        db.command({
          find: 'products',
          filter,
          sort,
          skip: (number - 1) * 20,
          limit: 20,
          batchSize: 20,
          singleBatch: true,
          projection: STAMP,
        }),
        db.command({ count: 'products', query: filter }),
      ]);
    };
    for (const mode of ['rotating', 'crawler']) {
      for (let k = 0; k < WARMUP; k++) await read(k, mode);
      const before = cpuMs(engine.pid);
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < PAGES) await read(next++, mode);
        }),
      );
      const perPage = (cpuMs(engine.pid) - before) / PAGES;
      console.log(
        `${products} products, ${mode}: engine CPU ${perPage.toFixed(3)} ms per page (find + count)`,
      );
    }
  } finally {
    await client.close();
    engine.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
