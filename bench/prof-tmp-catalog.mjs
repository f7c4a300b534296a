// temporary profiling script (not committed)
import { createRequire } from 'node:module';
import * as path from 'node:path';
const require = createRequire(import.meta.url);
const root = '/work/wt/engine';
const { startEmbeddedMongo } = require(path.join(root, 'libs/embedded-mongo/dist/index.js'));
const mongoose = require(require.resolve('mongoose', { paths: [path.join(root, 'apps/api')] }));
const { ProductSchema } = require(path.join(root, 'apps/api/dist/modules/catalog/schemas/product.schema.js'));
const { productSearchTerms } = require(path.join(root, 'apps/api/dist/modules/catalog/search-terms.js'));
const N = Number(process.env.N ?? 10000);
const server = await startEmbeddedMongo({ inMemory: true });
const conn = await mongoose.createConnection(server.uri, { dbName: 'bench' }).asPromise();
const Product = conn.model('Product', ProductSchema);
await Product.init();
const CATS = ['skincare', 'makeup', 'haircare', 'fragrance'];
const docs = [];
const now = Date.now();
for (let i = 0; i < N; i++) {
  const doc = { _id: new mongoose.Types.ObjectId(), name: `Shea Serum ${i}`, sku: `B-${i}`, brand: 'Harar Glow',
    description: 'A natural serum made with shea from Ethiopia.', ingredients: ['Shea', 'Water'], keyIngredients: [], benefits: [],
    priceSantim: 5000 + ((i * 3571) % 300000), currency: 'ETB', images: ['/x.svg'], stock: 1 + (i % 80), lowStockThreshold: 5,
    category: CATS[i % 4], skinTypes: [], active: true, isFeatured: i % 50 === 0, rating: Math.round((((i * 37) % 50) / 10) * 10) / 10,
    reviewCount: (i * 13) % 200, createdAt: new Date(now - i * 60000), updatedAt: new Date(now - i * 60000) };
  doc.searchTerms = productSearchTerms(doc);
  docs.push(doc);
}
for (let i = 0; i < N; i += 1000) await Product.collection.insertMany(docs.slice(i, i + 1000));
const SORTS = { featured: { isFeatured: -1, rating: -1, createdAt: -1, _id: 1 }, price_asc: { priceSantim: 1, _id: 1 },
  price_desc: { priceSantim: -1, _id: -1 }, reviews: { reviewCount: -1, rating: -1, _id: 1 }, newest: { createdAt: -1, _id: -1 } };
const SORT_KEYS = Object.keys(SORTS);
async function request(k, mode) {
  const filter = { active: true };
  let sort = SORTS.featured, page = (k % 800) + 1;
  if (mode === 'crawler') {
    page = (k % 40) + 1;
    const category = ['', ...CATS][Math.floor(k / 40) % 5];
    if (category) filter.category = category;
    sort = SORTS[SORT_KEYS[Math.floor(k / 200) % 5]];
    if (Math.floor(k / 1000) % 2) filter.priceSantim = { $gte: (50 + (k % 7) * 100) * 100, $lte: (2000 + (k % 5) * 500) * 100 };
  }
  const [list, count] = await Promise.all([
    Product.find(filter).sort(sort).skip((page - 1) * 20).limit(20).lean().exec(),
    Product.countDocuments(filter).exec(),
  ]);
  return list.length + count;
}
const mode = process.env.MODE ?? 'rotating';
for (let k = 0; k < 200; k++) await request(k * 37, mode); // warm
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const c0 = cpu(), t0 = performance.now();
const R = Number(process.env.R ?? 1000);
for (let k = 0; k < R; k++) await request(k, mode);
console.log(mode, N, 'per request: wall ms', ((performance.now() - t0) / R).toFixed(2), 'cpu ms', ((cpu() - c0) / R).toFixed(2));
await conn.close(); await server.stop();
