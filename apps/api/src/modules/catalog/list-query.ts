import {
  CATALOGUE_PAGE_SIZE,
  CATEGORY_SLUGS,
  MAX_PAGE_SIZE,
  PRODUCT_SORTS,
  SUB_CATEGORY_SLUGS,
} from '@shop/shared';
import { parse } from 'node:querystring';
import { isCleanText } from '../../common/validation';
import {
  BOOLEAN_WORDS,
  LIST_FACETS,
  MAX_LIST_BRANDS,
  MAX_LIST_PAGE,
  MAX_LIST_TEXT,
  MAX_RATING,
  type ListFacet,
  type ListProductsQuery,
} from './dto/list-products.query';

const PAGE = /^[1-9][0-9]{0,5}$/;
const LIMIT = /^[1-9][0-9]{0,2}$/;
const PRICE = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?$/;
const RATING = /^[1-5](\.[0-9]{1,2})?$/;
const CATEGORIES = new Set<string>(CATEGORY_SLUGS);
const SUB_CATEGORIES = new Set<string>(SUB_CATEGORY_SLUGS);
const SORTS = new Set<string>(PRODUCT_SORTS);
const FACETS = new Set<string>(LIST_FACETS);

/**
 * The catalogue list's query string read the way Express (`querystring`), class-transformer and the
 * ValidationPipe read it, for the plainly valid queries only: each known parameter at most once,
 * numbers written plainly within their bounds, known slugs, clean texts of at most 100 UTF-16 units.
 * Anything else (unknown or repeated parameters, odd numbers, long texts...) answers undefined and
 * goes through Nest's pipeline, which validates it and answers or refuses it with the usual shape,
 * so that this shortcut can never accept what the pipeline refuses nor read a value differently.
 */
export function parseListQuery(raw: string): ListProductsQuery | undefined {
  const query: ListProductsQuery = { page: 1, limit: CATALOGUE_PAGE_SIZE };
  if (!raw) return query;
  const params = parse(raw);
  for (const key in params) {
    const value = params[key];
    if (key === 'brand') {
      const brands = typeof value === 'string' ? [value] : value;
      if (!brands || brands.length > MAX_LIST_BRANDS) return undefined;
      for (const brand of brands) if (brand.length > MAX_LIST_TEXT || !isCleanText(brand)) return undefined;
      query.brand = brands;
      continue;
    }
    if (typeof value !== 'string') return undefined;
    switch (key) {
      case 'page':
        if (!PAGE.test(value) || Number(value) > MAX_LIST_PAGE) return undefined;
        query.page = Number(value);
        break;
      case 'limit':
        if (!LIMIT.test(value) || Number(value) > MAX_PAGE_SIZE) return undefined;
        query.limit = Number(value);
        break;
      case 'minPrice':
      case 'maxPrice':
        if (!PRICE.test(value)) return undefined;
        query[key] = Number(value);
        break;
      case 'minRating':
        if (!RATING.test(value) || Number(value) > MAX_RATING) return undefined;
        query.minRating = Number(value);
        break;
      case 'category':
        if (!CATEGORIES.has(value)) return undefined;
        query.category = value;
        break;
      case 'subCategory':
        if (!SUB_CATEGORIES.has(value)) return undefined;
        query.subCategory = value;
        break;
      case 'sort':
        if (!SORTS.has(value)) return undefined;
        query.sort = value as ListProductsQuery['sort'];
        break;
      case 'inStock':
        if (!Object.hasOwn(BOOLEAN_WORDS, value)) return undefined;
        query.inStock = BOOLEAN_WORDS[value];
        break;
      case 'search':
        if (value.length > MAX_LIST_TEXT || !isCleanText(value)) return undefined;
        query.search = value;
        break;
      case 'facets': {
        const facets = value.split(',');
        if (facets.length > LIST_FACETS.length || !facets.every((f) => FACETS.has(f))) return undefined;
        query.facets = facets as ListFacet[];
        break;
      }
      default:
        return undefined;
    }
  }
  return query;
}
