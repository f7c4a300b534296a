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

/** The matches that pass the listing's filters (price range, category, sub-category, brand, rating, stock), in order. */
export function filterHits(hits: readonly SearchHit[], query: ListProductsQuery): ProductFacts[] {
  const min = query.minPrice !== undefined ? toSantim(query.minPrice) : undefined;
  const max = query.maxPrice !== undefined ? toSantim(query.maxPrice) : undefined;
  const brand = query.brand?.toLowerCase();
  const out: ProductFacts[] = [];
  for (const { facts } of hits) {
    if (min !== undefined && facts.priceSantim < min) continue;
    if (max !== undefined && facts.priceSantim > max) continue;
    if (query.category && facts.category !== query.category) continue;
    if (query.subCategory && facts.subCategory !== query.subCategory) continue;
    if (brand !== undefined && facts.brandKey !== brand) continue;
    if (query.minRating !== undefined && facts.rating < query.minRating) continue;
    if (query.inStock && !(facts.stock > 0)) continue;
    out.push(facts);
  }
  return out;
}
