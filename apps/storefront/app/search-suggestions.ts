import type { Language } from '@shop/i18n';
import { CATEGORIES, SUB_CATEGORIES, isSameSitePath, storefrontPaths } from '@shop/shared';
import { SEARCH_MAX_LENGTH, filtersToSearch } from './catalogue';
import { MIN_SUGGESTION_CHARS, normalizeRanges } from './components/suggestion-list';
import { shelfPriceText } from './price-words';

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** Products in the dropdown (the API's `limit`). */
export const MAX_SUGGESTIONS = 5;

/** The answer of `GET /api/products/suggestions` (docs/decisions/0086-predictive-search-box.md). */
export interface SuggestionsAnswer {
  query?: string;
  products?: {
    _id: string;
    name: string;
    brand?: string;
    price: number;
    compareAtPrice?: number;
    image?: string | null;
    url?: string;
    highlight?: [number, number][];
  }[];
  categories?: { slug: string; name?: string; count?: number; url?: string }[];
  brands?: { name: string; count?: number; url?: string }[];
}

export interface ProductSuggestion {
  id: string;
  /** In the page's language (the API answers it in `lang`). */
  name: string;
  /** Sorted, merged ranges of `name` to show in <mark>. */
  highlight: [number, number][];
  brand: string;
  /** The price with the VAT words of the shop's setting, e.g. 'ETB 4,350.00 + VAT'. */
  price: string;
  image: string | null;
  url: string;
}

export interface LinkSuggestion {
  name: string;
  count: number;
  url: string;
}

/** What the header's search box shows: products, then categories, then brands. */
export interface Suggestions {
  query: string;
  products: ProductSuggestion[];
  categories: LinkSuggestion[];
  brands: LinkSuggestion[];
}

export const NO_SUGGESTIONS: Suggestions = { query: '', products: [], categories: [], brands: [] };

/** The text the box asks about: trimmed, at most 100 characters; '' when too short to ask. */
export function suggestionQuery(raw: string | null): string {
  const q = (raw ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
  return q.length >= MIN_SUGGESTION_CHARS ? q : '';
}

/**
 * A category's catalogue link, built from the catalogue's own filters (catalogue.ts), so that it cannot
 * name a parameter the catalogue ignores: a sub-category opens with its category. Unknown slugs: none.
 */
function categoryLink(slug: string, lang: Language): { name: string; url: string } | undefined {
  const category = CATEGORIES.find((c) => c.slug === slug);
  if (category)
    return { name: category.name[lang], url: `/products${filtersToSearch({ category: category.slug })}` };
  const sub = SUB_CATEGORIES.find((c) => c.slug === slug);
  if (sub)
    return {
      name: sub.name[lang],
      url: `/products${filtersToSearch({ category: sub.category, subCategory: sub.slug })}`,
    };
  return undefined;
}

/**
 * The API's suggestions as the box shows them: names in the page's language, prices with the shop's VAT
 * words, product links checked to stay on this site, category and brand links to the catalogue. The
 * catalogue has no brand filter, so a brand opens the search for its name (docs/decisions/0086-predictive-search-box.md).
 */
export function toSuggestions(
  answer: SuggestionsAnswer | undefined,
  query: string,
  options: { lang: Language; pricesIncludeTax: boolean; t: Translate },
): Suggestions {
  const { lang, pricesIncludeTax, t } = options;
  const products = (answer?.products ?? []).slice(0, MAX_SUGGESTIONS).map((p): ProductSuggestion => ({
    id: p._id,
    name: p.name,
    highlight: normalizeRanges(p.highlight, p.name.length),
    brand: p.brand ?? '',
    price: shelfPriceText(p.price, lang, pricesIncludeTax, t),
    image: p.image ?? null,
    url: p.url && isSameSitePath(p.url) ? p.url : storefrontPaths.product(p._id),
  }));
  const categories = (answer?.categories ?? []).slice(0, 3).flatMap((c): LinkSuggestion[] => {
    const link = categoryLink(c.slug, lang);
    return link ? [{ ...link, count: c.count ?? 0 }] : [];
  });
  const brands = (answer?.brands ?? []).slice(0, 3).map((b): LinkSuggestion => ({
    name: b.name,
    count: b.count ?? 0,
    url: `/products${filtersToSearch({ search: b.name })}`,
  }));
  return { query, products, categories, brands };
}
