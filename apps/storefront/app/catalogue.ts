import {
  CATALOGUE_PAGE_SIZE,
  CATEGORY_SLUGS,
  cartBadge,
  maxAddable,
  PRICE_RANGES,
  PRODUCT_SORTS,
  SUB_CATEGORY_SLUGS,
  type CategorySlug,
  type ProductSort,
  type SubCategorySlug,
} from '@shop/shared';

/** The catalogue's filters as they live in the URL (the single source of truth). */
export interface CatalogueFilters {
  page: number;
  search: string;
  priceRange: string;
  category: CategorySlug | '';
  subCategory: SubCategorySlug | '';
  sort: ProductSort | '';
  minRating: number | '';
  inStock: boolean;
  /** Brands chosen (any of them; docs/decisions/0091-catalogue-facets.md). */
  brands: string[];
}

/** The query sent to `GET /api/products`. */
export interface ProductQuery {
  page: number;
  limit: number;
  search?: string;
  minPrice?: number;
  maxPrice?: number;
  category?: CategorySlug;
  subCategory?: SubCategorySlug;
  sort?: ProductSort;
  minRating?: number;
  inStock?: boolean;
  brand?: string[];
  /** The drawer's counts (`category,brand`). */
  facets?: string;
}

/** Brands a catalogue URL may choose at once (the API's bound), each at most as long as a search. */
export const MAX_BRANDS = 20;

/** The chosen brands of a URL (`brand=A&brand=B`): non-empty, each once, within the API's bounds. */
export function readBrands(params: URLSearchParams): string[] {
  const brands: string[] = [];
  for (const raw of params.getAll('brand')) {
    const brand = raw.trim().slice(0, SEARCH_MAX_LENGTH);
    if (brand && !brands.some((b) => b.toLowerCase() === brand.toLowerCase())) brands.push(brand);
  }
  return brands.slice(0, MAX_BRANDS);
}

export const RATING_FILTERS = [4, 3, 2, 1] as const;
export const SEARCH_MAX_LENGTH = 100;

/** Maps a price-range key of docs/product.md §5 to minPrice/maxPrice; 'all' and unknown keys to nothing. */
export function priceRangeQuery(key: string | null | undefined): { minPrice?: number; maxPrice?: number } {
  const range = PRICE_RANGES.find((r) => r.key === key);
  if (!range || !('min' in range)) return {};
  return 'max' in range ? { minPrice: range.min, maxPrice: range.max } : { minPrice: range.min };
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return value && (values as readonly string[]).includes(value) ? (value as T) : '';
}

/** Reads the filters from the URL; anything unknown is ignored rather than sent to the API. */
export function readFilters(params: URLSearchParams): CatalogueFilters {
  const page = Math.floor(Number(params.get('page')));
  const rating = Number(params.get('minRating'));
  const priceRange = params.get('priceRange') ?? '';
  return {
    page: Number.isFinite(page) && page >= 1 && page <= 100000 ? page : 1,
    search: (params.get('search') ?? '').trim().slice(0, SEARCH_MAX_LENGTH),
    priceRange: PRICE_RANGES.some((r) => r.key === priceRange && r.key !== 'all') ? priceRange : '',
    category: oneOf(CATEGORY_SLUGS, params.get('category')),
    subCategory: oneOf(SUB_CATEGORY_SLUGS, params.get('subCategory')),
    sort: oneOf(PRODUCT_SORTS, params.get('sort')),
    minRating: (RATING_FILTERS as readonly number[]).includes(rating) ? rating : '',
    inStock: params.get('inStock') === 'true' || params.get('inStock') === 'on',
    brands: readBrands(params),
  };
}

/** The API query for a set of filters: 20 per page, only what is set. */
export function productQuery(f: CatalogueFilters): ProductQuery {
  return {
    page: f.page,
    limit: CATALOGUE_PAGE_SIZE,
    ...(f.search ? { search: f.search } : {}),
    ...priceRangeQuery(f.priceRange),
    ...(f.category ? { category: f.category } : {}),
    ...(f.subCategory ? { subCategory: f.subCategory } : {}),
    ...(f.sort ? { sort: f.sort } : {}),
    ...(f.minRating !== '' ? { minRating: f.minRating } : {}),
    ...(f.inStock ? { inStock: true } : {}),
    ...(f.brands.length ? { brand: f.brands } : {}),
  };
}

/** The URL search string for a set of filters (defaults left out, so links stay short and shareable). */
export function filtersToSearch(f: Partial<CatalogueFilters>): string {
  const p = new URLSearchParams();
  if (f.search) p.set('search', f.search);
  if (f.priceRange) p.set('priceRange', f.priceRange);
  if (f.category) p.set('category', f.category);
  if (f.subCategory) p.set('subCategory', f.subCategory);
  if (f.sort) p.set('sort', f.sort);
  if (f.minRating !== undefined && f.minRating !== '') p.set('minRating', String(f.minRating));
  if (f.inStock) p.set('inStock', 'true');
  for (const brand of f.brands ?? []) p.append('brand', brand);
  if (f.page && f.page > 1) p.set('page', String(f.page));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export type PageItem = { type: 'page'; page: number } | { type: 'ellipsis'; key: string };

/**
 * Numbered pagination with a window of `size` page links around the current page, plus the first
 * and last pages with an ellipsis where pages are skipped.
 */
export function paginationWindow(current: number, totalPages: number, size = 5): PageItem[] {
  if (totalPages <= 1) return totalPages === 1 ? [{ type: 'page', page: 1 }] : [];
  const page = Math.min(Math.max(1, current), totalPages);
  let start = Math.max(1, page - Math.floor(size / 2));
  const end = Math.min(totalPages, start + size - 1);
  start = Math.max(1, end - size + 1);
  const items: PageItem[] = [];
  if (start > 1) {
    items.push({ type: 'page', page: 1 });
    if (start > 2) items.push({ type: 'ellipsis', key: 'start' });
  }
  for (let n = start; n <= end; n++) items.push({ type: 'page', page: n });
  if (end < totalPages) {
    if (end < totalPages - 1) items.push({ type: 'ellipsis', key: 'end' });
    items.push({ type: 'page', page: totalPages });
  }
  return items;
}

/** The 'Showing x - y of n products' numbers for a page. */
export function showingRange(
  page: number,
  total: number,
  pageSize = CATALOGUE_PAGE_SIZE,
): { from: number; to: number; total: number } {
  if (total <= 0) return { from: 0, to: 0, total: 0 };
  const from = (page - 1) * pageSize + 1;
  if (from > total) return { from: 0, to: 0, total };
  return { from, to: Math.min(page * pageSize, total), total };
}

/** Cart badge text: the count, capped at 99+ (the rule lives in libs/shared). */
export const badgeCount = cartBadge;

/** The name the header shows for an account: an account made by phone sign-in may have no name yet, its number stands in. */
export function accountName(user: { name?: string | null; phone?: string | null }): string {
  return user.name || user.phone || '';
}

/** The avatar's letter: the name's first, upper case. */
export function accountInitial(name: string): string {
  return name.slice(0, 1).toUpperCase();
}

/** Quantities offered on the card and detail page: 1..min(10, stock), the same bound the API applies per add. */
export function quantityOptions(stock: number): number[] {
  return Array.from({ length: maxAddable(Math.floor(stock)) }, (_, i) => i + 1);
}

/** Units of a product's size as Amharic readers write them (the size itself is free text from the back office). */
const AMHARIC_UNITS: Record<string, string> = {
  ml: 'ሚሊ',
  l: 'ሊትር',
  g: 'ግራም',
  gr: 'ግራም',
  kg: 'ኪሎ',
  pcs: 'ፍሬ',
  pc: 'ፍሬ',
  oz: 'አውንስ',
};

/** A product's size in the page's language: `30 ml` stays in English, reads `30 ሚሊ` in Amharic. */
export function sizeText(size: string, lang: string): string {
  if (lang !== 'am') return size;
  return size
    .replace(/(\d)\s*x\s*(?=\d)/gi, '$1 × ')
    .replace(/(^|\d|\s)(ml|l|g|gr|kg|pcs|pc|oz)\b\.?/gi, (match, before: string, unit: string) => {
      const name = AMHARIC_UNITS[unit.toLowerCase()];
      return name ? `${before}${/\d/.test(before) ? ' ' : ''}${name}` : match;
    });
}
