// The catalogue the engine benchmarks load: products shaped as the API stores them, and the indexes the
// API declares on them (apps/api/src/modules/catalog/schemas/product.schema.ts).

/** The catalogue's sort orders as the API sends them (apps/api/src/modules/catalog/listings.service.ts). */
export const SORTS = {
  featured: { isFeatured: -1, rating: -1, createdAt: -1, _id: 1 },
  price_asc: { priceSantim: 1, _id: 1 },
  price_desc: { priceSantim: -1, _id: -1 },
  reviews: { reviewCount: -1, rating: -1, _id: 1 },
  newest: { createdAt: -1, _id: -1 },
};

/** One product; `ObjectId` is the driver's class (each benchmark resolves its own copy of the driver). */
export function product(i, ObjectId) {
  return {
    _id: new ObjectId(),
    name: `Product ${i}`,
    sku: `SKU-${i}`,
    active: i % 10 !== 0,
    category: `c${i % 20}`,
    brand: `brand${i % 50}`,
    priceSantim: ((i * 7919) % 100_000) * 100,
    rating: (i % 50) / 10,
    reviewCount: i % 97,
    isFeatured: i % 13 === 0,
    stock: i % 40,
    createdAt: new Date(1_700_000_000_000 + i * 60_000),
    searchTerms: [`product`, `w${i % 1000}`, `brand${i % 50}`],
    description: 'A natural skincare product made in Ethiopia with shea butter and moringa oil.',
  };
}

/** The indexes the API declares on products. */
export async function productIndexes(coll) {
  await coll.createIndex({ active: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 });
  await coll.createIndex({ active: 1, category: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 });
  await coll.createIndex({ active: 1, priceSantim: 1, _id: 1 });
  await coll.createIndex({ active: 1, category: 1, priceSantim: 1, _id: 1 });
  await coll.createIndex({ active: 1, reviewCount: -1, rating: -1, _id: 1 });
  await coll.createIndex({ active: 1, createdAt: -1, _id: -1 });
  await coll.createIndex({ active: 1, rating: -1 });
  await coll.createIndex({ brand: 1 });
  await coll.createIndex({ sku: 1 }, { unique: true, sparse: true });
  await coll.createIndex({ stock: 1 });
  await coll.createIndex({ searchTerms: 1 });
}

/** Inserts `count` products in batches of 1,000; returns their ids. */
export async function fill(coll, count, ObjectId) {
  const ids = [];
  for (let start = 0; start < count; start += 1000) {
    const docs = Array.from({ length: Math.min(1000, count - start) }, (_, k) =>
      product(start + k, ObjectId),
    );
    for (const d of docs) ids.push(d._id);
    await coll.insertMany(docs);
  }
  return ids;
}
