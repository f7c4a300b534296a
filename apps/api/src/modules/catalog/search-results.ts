import { toSantim, type ProductSort } from '@shop/shared';
import type { ListProductsQuery } from './dto/list-products.query';
import type { ProductFacts } from './search-query';

/**
 * A search's matching products as typed arrays (docs/decisions/0101-search-speed-2.md): no object per
 * match, so a word found in 100,000 products costs two arrays, not 100,000 objects and their garbage.
 */
export interface Matches {
  /** The products by the index's numeric id, ascending. */
  readonly docs: Int32Array;
  /** Each product's relevance (`scores[i]` is `docs[i]`'s): where its words match, times the rating tie-break. */
  readonly scores: Float64Array;
  /** Facts by numeric id (every id of `docs` has them). */
  readonly facts: readonly (ProductFacts | undefined)[];
  /**
   * By numeric id, the product's id (24 hex digits) as two numbers (`idKeys[2 * doc]`: its first 12
   * digits, `[2 * doc + 1]`: the last 12; NaN for an id of another form): ordered as the ids, so that
   * ties of relevance are broken without comparing strings (decision 0103).
   */
  readonly idKeys?: Float64Array;
}

type Compare = (a: ProductFacts, b: ProductFacts) => number;

const byId = (a: ProductFacts, b: ProductFacts) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The listing's sorts over the search's matches, with the tie-breaks of the database's (listings.service.ts). */
export const SORTERS: Readonly<Record<ProductSort, Compare>> = {
  featured: (a, b) =>
    Number(b.isFeatured) - Number(a.isFeatured) ||
    b.rating - a.rating ||
    b.createdAt - a.createdAt ||
    byId(a, b),
  price_asc: (a, b) => a.priceSantim - b.priceSantim || byId(a, b),
  price_desc: (a, b) => b.priceSantim - a.priceSantim || byId(b, a),
  reviews: (a, b) => b.reviewCount - a.reviewCount || b.rating - a.rating || byId(a, b),
  newest: (a, b) => b.createdAt - a.createdAt || byId(b, a),
};

/** The order of two matches (by their place in `matches`): most relevant first (ties by id), or the sort asked for. */
function placeOrder(matches: Matches, sort: ProductSort | undefined): (a: number, b: number) => number {
  const { docs, scores, facts } = matches;
  const factsAt = (at: number) => facts[docs[at]] as ProductFacts;
  const keys = matches.idKeys;
  if (!sort && keys)
    return (a, b) => {
      const x = docs[a] * 2;
      const y = docs[b] * 2;
      const order = scores[b] - scores[a] || keys[x] - keys[y] || keys[x + 1] - keys[y + 1];
      // NaN: an id of another form, compared as strings
      return order === order ? order : byId(factsAt(a), factsAt(b));
    };
  if (!sort) return (a, b) => scores[b] - scores[a] || byId(factsAt(a), factsAt(b));
  const compare = SORTERS[sort];
  return (a, b) => compare(factsAt(a), factsAt(b));
}

/**
 * The places of the first `k` matches in the listing's order (a total order): one pass keeping the best
 * k in order, so that a page of a search matching thousands of products does not sort them all.
 */
export function firstPlaces(matches: Matches, k: number, sort?: ProductSort): number[] {
  const n = matches.docs.length;
  if (k <= 0 || n === 0) return [];
  const compare = placeOrder(matches, sort);
  if (n <= k * 4)
    return Array.from({ length: n }, (_, at) => at)
      .sort(compare)
      .slice(0, k);
  const { scores } = matches;
  const top: number[] = [];
  // by relevance, most matches score below the k-th kept: told by one comparison of numbers
  let worst = -Infinity;
  for (let at = 0; at < n; at++) {
    if (top.length === k && ((!sort && scores[at] < worst) || compare(at, top[k - 1]) >= 0)) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(top[middle], at) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, at);
    if (top.length > k) top.pop();
    if (top.length === k) worst = scores[top[k - 1]];
  }
  return top;
}

/** The facts of page `page` (of `limit` products) of the matches in the listing's order. */
export function pageOf(matches: Matches, page: number, limit: number, sort?: ProductSort): ProductFacts[] {
  return firstPlaces(matches, page * limit, sort)
    .slice((page - 1) * limit)
    .map((at) => matches.facts[matches.docs[at]] as ProductFacts);
}

/** The matches that pass the listing's filters (price range, category, sub-category, brand, rating, stock). */
export function filterMatches(matches: Matches, query: ListProductsQuery): Matches {
  const unfiltered =
    query.minPrice === undefined &&
    query.maxPrice === undefined &&
    !query.category &&
    !query.subCategory &&
    query.brand === undefined &&
    query.minRating === undefined &&
    !query.inStock;
  if (unfiltered) return matches;
  const min = query.minPrice !== undefined ? toSantim(query.minPrice) : undefined;
  const max = query.maxPrice !== undefined ? toSantim(query.maxPrice) : undefined;
  const brands = query.brand && new Set(query.brand.map((b) => b.toLowerCase()));
  const { docs, scores } = matches;
  const keptDocs = new Int32Array(docs.length);
  const keptScores = new Float64Array(docs.length);
  let n = 0;
  for (let at = 0; at < docs.length; at++) {
    const facts = matches.facts[docs[at]] as ProductFacts;
    if (min !== undefined && facts.priceSantim < min) continue;
    if (max !== undefined && facts.priceSantim > max) continue;
    if (query.category && facts.category !== query.category) continue;
    if (query.subCategory && facts.subCategory !== query.subCategory) continue;
    if (brands && !brands.has(facts.brandKey)) continue;
    if (query.minRating !== undefined && facts.rating < query.minRating) continue;
    if (query.inStock && !(facts.stock > 0)) continue;
    keptDocs[n] = docs[at];
    keptScores[n] = scores[at];
    n++;
  }
  return {
    docs: keptDocs.subarray(0, n),
    scores: keptScores.subarray(0, n),
    facts: matches.facts,
    idKeys: matches.idKeys,
  };
}

/** Each match's facts, in id order (for counts). */
export function* factsOf(matches: Matches): Generator<ProductFacts> {
  for (let at = 0; at < matches.docs.length; at++) yield matches.facts[matches.docs[at]] as ProductFacts;
}
