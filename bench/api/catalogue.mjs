// The benchmarks' synthetic catalogue and shoppers' searches (bench/api/run.mjs, bench/api/search-index.mjs):
// the same products and the same distinct queries in both, so the API's figures and the index's alone compare.

export const CATEGORIES = {
  skincare: ['serums', 'treatments', 'masks'],
  makeup: ['lips', 'eyes'],
  haircare: ['shampoo'],
  fragrance: [],
};
export const WORDS = [
  'Shea',
  'Moringa',
  'Coffee',
  'Honey',
  'Aloe',
  'Rose',
  'Argan',
  'Teff',
  'Black Seed',
  'Frankincense',
  'Myrrh',
  'Baobab',
];
export const KINDS = [
  'Serum',
  'Cream',
  'Butter',
  'Mask',
  'Lip Balm',
  'Shampoo',
  'Oil',
  'Cleanser',
  'Toner',
  'Eye Gel',
];
export const BRANDS = [
  'Abyssinia Naturals',
  'Sheba Botanicals',
  'Lalibela Skin',
  'Harar Glow',
  'Simien Beauty',
];

/**
 * `count` products shaped as the catalogue module stores them (`ObjectId`: the driver's class;
 * `searchTerms`: the API's `productSearchTerms`, from its build).
 */
export function benchProducts(count, ObjectId, searchTerms) {
  const now = Date.now();
  const docs = [];
  const categories = Object.keys(CATEGORIES);
  for (let i = 0; i < count; i++) {
    const category = categories[i % categories.length];
    const subs = CATEGORIES[category];
    const name = `${WORDS[i % WORDS.length]} ${KINDS[(i >> 2) % KINDS.length]} ${i + 1}`;
    const brand = BRANDS[i % BRANDS.length];
    const description = `A natural ${KINDS[(i >> 2) % KINDS.length].toLowerCase()} made with ${WORDS[(i * 7) % WORDS.length].toLowerCase()} from Ethiopia.`;
    const ingredients = [WORDS[i % WORDS.length], WORDS[(i + 3) % WORDS.length], 'Water'];
    const doc = {
      _id: new ObjectId(),
      name,
      sku: `BENCH-${String(i + 1).padStart(5, '0')}`,
      brand,
      description,
      ingredients,
      keyIngredients: [],
      benefits: [],
      priceSantim: 5000 + ((i * 3571) % 300000),
      currency: 'ETB',
      images: ['/api/assets/products/placeholder.svg'],
      // The first products serve the cart and order runs: stock that never runs out during a run.
      stock: i < 1000 ? 100_000_000 : 1 + (i % 80),
      lowStockThreshold: 5,
      category,
      ...(subs.length ? { subCategory: subs[i % subs.length] } : {}),
      skinTypes: [],
      active: true,
      isFeatured: i % 50 === 0,
      rating: Math.round((((i * 37) % 50) / 10) * 10) / 10,
      reviewCount: (i * 13) % 200,
      createdAt: new Date(now - i * 60000),
      updatedAt: new Date(now - i * 60000),
    };
    doc.searchTerms = searchTerms(doc);
    docs.push(doc);
  }
  return docs;
}

/**
 * Shoppers' searches, a different one each time (`next()` answers the next query's text): words of the
 * catalogue (a product's ingredient word, its kind, its brand, category, description), one to three of
 * them, the last often cut short as while typing, and about one in three with a typo (a letter swapped
 * with its neighbour, dropped or replaced). The same queries on every run; `stats` counts them and the
 * repeats (none, ideally).
 */
export function distinctSearches(products, stats = { asked: 0, repeated: 0 }) {
  // mulberry32: a small 32-bit generator (integer arithmetic only), the same queries on every run
  let state = 0x2f6b1a3d;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const typo = (word) => {
    if (word.length < 4) return word;
    const at = 1 + Math.floor(random() * (word.length - 2));
    const kind = random();
    if (kind < 0.34) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    if (kind < 0.67) return word.slice(0, at) + word.slice(at + 1);
    return word.slice(0, at) + pick([...'aeiounrst']) + word.slice(at + 1);
  };
  const seen = new Set();
  return () => {
    for (let attempt = 0; ; attempt++) {
      const i = Math.floor(random() * products);
      // the words of product i as seeded (name, brand, category, description, ingredients), 1 to 3 of them
      const category = Object.keys(CATEGORIES)[i % Object.keys(CATEGORIES).length];
      const subs = CATEGORIES[category];
      const vocabulary = [
        ...WORDS[i % WORDS.length].split(' '),
        ...KINDS[(i >> 2) % KINDS.length].split(' '),
        ...BRANDS[i % BRANDS.length].split(' '),
        category,
        ...(subs.length ? [subs[i % subs.length]] : []),
        ...WORDS[(i * 7) % WORDS.length].split(' '),
        ...WORDS[(i + 3) % WORDS.length].split(' '),
        'natural',
      ].map((w) => w.toLowerCase());
      const count = 1 + Math.floor(random() * 3);
      const words = [];
      for (let k = 0; k < count; k++) words.push(pick(vocabulary));
      if (random() < 0.35) {
        const w = Math.floor(random() * words.length);
        words[w] = typo(words[w]);
      }
      const last = words.length - 1;
      if (random() < 0.35 && words[last].length > 3)
        words[last] = words[last].slice(0, 3 + Math.floor(random() * (words[last].length - 3)));
      const query = words.join(' ');
      if (!seen.has(query) || attempt > 50) {
        if (seen.has(query)) stats.repeated++;
        seen.add(query);
        stats.asked++;
        return query;
      }
    }
  };
}
