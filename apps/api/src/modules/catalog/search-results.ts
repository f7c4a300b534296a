import { toSantim, type ProductSort } from '@shop/shared';
import type { ListProductsQuery } from './dto/list-products.query';
import type { SearchHit } from './search-index';
import type { ProductFacts } from './search-query';

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

/** Most relevant first (ties: by id, as the database's sorts). */
export const byRelevance = (a: SearchHit, b: SearchHit): number =>
  b.score - a.score || byId(a.facts, b.facts);

/** The hits in the listing's sort (`sort`), or by relevance. */
export function hitOrder(sort: ProductSort | undefined): (a: SearchHit, b: SearchHit) => number {
  if (!sort) return byRelevance;
  const compare = SORTERS[sort];
  return (a, b) => compare(a.facts, b.facts);
}

/**
 * The first `k` items in `compare`'s order (a total order): one pass keeping the best k in order, so
 * that a page of a search matching thousands of products does not sort them all.
 */
export function firstInOrder<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (items.length <= k * 4) return [...items].sort(compare).slice(0, k);
  const top: T[] = [];
  for (const item of items) {
    if (top.length === k && compare(item, top[k - 1]) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(top[middle], item) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}

/** The matches that pass the listing's filters (price range, category, sub-category, brand, rating, stock). */
export function filterHits(hits: readonly SearchHit[], query: ListProductsQuery): readonly SearchHit[] {
  const unfiltered =
    query.minPrice === undefined &&
    query.maxPrice === undefined &&
    !query.category &&
    !query.subCategory &&
    query.brand === undefined &&
    query.minRating === undefined &&
    !query.inStock;
  if (unfiltered) return hits;
  const min = query.minPrice !== undefined ? toSantim(query.minPrice) : undefined;
  const max = query.maxPrice !== undefined ? toSantim(query.maxPrice) : undefined;
  const brands = query.brand && new Set(query.brand.map((b) => b.toLowerCase()));
  const out: SearchHit[] = [];
  for (const hit of hits) {
    const facts = hit.facts;
    if (min !== undefined && facts.priceSantim < min) continue;
    if (max !== undefined && facts.priceSantim > max) continue;
    if (query.category && facts.category !== query.category) continue;
    if (query.subCategory && facts.subCategory !== query.subCategory) continue;
    if (brands && !brands.has(facts.brandKey)) continue;
    if (query.minRating !== undefined && facts.rating < query.minRating) continue;
    if (query.inStock && !(facts.stock > 0)) continue;
    out.push(hit);
  }
  return out;
}
