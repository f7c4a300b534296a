import { CATEGORIES, SUB_CATEGORIES } from '@shop/shared';
import type { ProductSale } from './sale-price';
import type { Query } from 'minisearch';
import { hasEthiopic, transliterate, transliterateText } from './ethiopic';
import type { WordForm } from './search-scorer';
import { MAX_QUERY_WORDS, withoutAmharicPreposition, wordsOf } from './search-terms';

/**
 * What the search index holds of a product and how a query is asked of it (docs/decisions/0084-search-index.md):
 * the fields with their weights, the words of a text as indexed, and a shopper's text as a query
 * (every word must match; the last one also as a prefix; typos by word length; Ethiopic words also
 * through their Latin spellings; two swapped letters count as one typo).
 */

/** A product as the index reads it from the database (the projection of `INDEXED_FIELDS`). */
export interface IndexSource {
  _id: { toHexString(): string } | string;
  name?: string;
  nameAm?: string;
  brand?: string;
  category?: string;
  subCategory?: string;
  description?: string;
  descriptionAm?: string;
  ingredients?: string[];
  ingredientsAm?: string[];
  keyIngredients?: string[];
  priceSantim?: number;
  originalPriceSantim?: number;
  sales?: ProductSale[];
  images?: string[];
  rating?: number;
  reviewCount?: number;
  stock?: number;
  isFeatured?: boolean;
  createdAt?: Date;
  updatedAt?: Date;
  active?: boolean;
}

export const INDEXED_FIELDS = {
  name: 1, nameAm: 1, brand: 1, category: 1, subCategory: 1, description: 1, descriptionAm: 1,
  ingredients: 1, ingredientsAm: 1, keyIngredients: 1, priceSantim: 1, originalPriceSantim: 1, sales: 1,
  images: { $slice: 1 }, rating: 1, reviewCount: 1, stock: 1, isFeatured: 1, createdAt: 1, updatedAt: 1,
  active: 1,
} as const; // prettier-ignore

/** What the listing's filters, sorts and the suggestions read of a matching product, kept beside the index. */
export interface ProductFacts {
  id: string;
  name: string;
  nameAm?: string;
  brand: string;
  /** The brand lower-cased (the listing's brand filter is case-insensitive). */
  brandKey: string;
  category?: string;
  subCategory?: string;
  priceSantim: number;
  originalPriceSantim?: number;
  /** Its scheduled sales (docs/decisions/0095): the suggestions answer the price of the moment. */
  sales?: ProductSale[];
  image: string | null;
  rating: number;
  reviewCount: number;
  stock: number;
  isFeatured: boolean;
  createdAt: number;
}

/** The texts of a product as the index reads them, one per field. */
export interface SearchDocument {
  id: string;
  name: string;
  nameLatn: string;
  brand: string;
  category: string;
  keyIngredients: string;
  ingredients: string;
  description: string;
}

export const SEARCH_FIELDS = [
  'name',
  'nameLatn',
  'brand',
  'category',
  'keyIngredients',
  'ingredients',
  'description',
] as const;

/** Where a word matches: the name first, then brand and category, key ingredients, the rest, the description. */
export const FIELD_BOOSTS: Readonly<Record<(typeof SEARCH_FIELDS)[number], number>> = {
  name: 10,
  nameLatn: 8,
  brand: 5,
  category: 5,
  keyIngredients: 3,
  ingredients: 2,
  description: 1,
};

/** The words of a text as indexed and matched: lower-cased, and an Amharic word also without its preposition. */
export function indexWords(text: string): string[] {
  return wordsOf(text).flatMap(withoutAmharicPreposition);
}

const categoryText = (slug?: string, subSlug?: string): string => {
  const category = CATEGORIES.find((c) => c.slug === slug);
  const sub = SUB_CATEGORIES.find((s) => s.slug === subSlug);
  const names = [category, sub].flatMap((c) => (c ? [c.slug, c.name.en, c.name.am] : []));
  return `${names.join(' ')} ${transliterateText(indexWords(names.join(' ')))}`;
};

/** The index's document and the facts of a stored product. */
export function toSearchEntry(doc: IndexSource): { document: SearchDocument; facts: ProductFacts } {
  const id = typeof doc._id === 'string' ? doc._id : doc._id.toHexString();
  const name = doc.name ?? '';
  const brand = doc.brand ?? '';
  const ethiopic = [doc.nameAm ?? '', brand].join(' ');
  return {
    document: {
      id,
      name: `${name} ${doc.nameAm ?? ''}`,
      nameLatn: transliterateText(indexWords(ethiopic)),
      brand,
      category: categoryText(doc.category, doc.subCategory),
      keyIngredients: (doc.keyIngredients ?? []).join(' '),
      ingredients: [...(doc.ingredients ?? []), ...(doc.ingredientsAm ?? [])].join(' '),
      description: `${doc.description ?? ''} ${doc.descriptionAm ?? ''}`,
    },
    facts: {
      id,
      name,
      ...(doc.nameAm ? { nameAm: doc.nameAm } : {}),
      brand,
      brandKey: brand.toLowerCase(),
      category: doc.category,
      subCategory: doc.subCategory,
      priceSantim: doc.priceSantim ?? 0,
      ...(doc.originalPriceSantim != null ? { originalPriceSantim: doc.originalPriceSantim } : {}),
      ...(doc.sales?.length ? { sales: doc.sales } : {}),
      image: doc.images?.[0] ?? null,
      rating: doc.rating ?? 0,
      reviewCount: doc.reviewCount ?? 0,
      stock: doc.stock ?? 0,
      isFeatured: doc.isFeatured ?? false,
      createdAt: doc.createdAt ? new Date(doc.createdAt).getTime() : 0,
    },
  };
}

/** Typos allowed in a word: none below 4 letters, one for 4 to 7, two from 8. */
export function allowedEdits(word: string): number {
  const letters = [...word].length;
  return letters < 4 ? 0 : letters < 8 ? 1 : 2;
}

/** The word with two neighbouring letters swapped, every way (a swap is one typo, two edits to the index). */
function swaps(word: string): string[] {
  const letters = [...word];
  const out = new Set<string>();
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const swapped = [...letters];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    out.add(swapped.join(''));
  }
  out.delete(word);
  return [...out];
}

const fuzzy = (term: string) => allowedEdits(term);

/** One word of the query: its spellings (fuzzy by length, a prefix when it is the last word), or its swaps. */
export function wordQuery(word: string, last: boolean): Query {
  const forms = new Set<string>([word]);
  if (hasEthiopic(word))
    for (const form of withoutAmharicPreposition(word)) {
      forms.add(form);
      for (const latin of transliterate(form)) forms.add(latin);
    }
  const spelled: Query = { combineWith: 'OR', queries: [...forms], prefix: last, fuzzy };
  const swapped = allowedEdits(word) === 1 && !hasEthiopic(word) ? swaps(word) : [];
  if (!swapped.length) return spelled;
  return {
    combineWith: 'OR',
    queries: [
      spelled,
      { combineWith: 'OR', queries: swapped, prefix: false, fuzzy: false, boostTerm: () => 0.5 },
    ],
  };
}

/**
 * One word of the query as the spellings `wordQuery` asks, for the scorer of search-scorer.ts: the word
 * (and an Ethiopic word's forms and Latin spellings), fuzzy by length and a prefix when it is the last
 * word; then its swaps (exact, half weight). Each spelling once.
 */
export function wordForms(word: string, last: boolean): WordForm[] {
  const forms = new Set<string>([word]);
  if (hasEthiopic(word))
    for (const form of withoutAmharicPreposition(word)) {
      forms.add(form);
      for (const latin of transliterate(form)) forms.add(latin);
    }
  const out: WordForm[] = [...forms].map((term) => ({ term, prefix: last, fuzzy: fuzzy(term), boost: 1 }));
  const swapped = allowedEdits(word) === 1 && !hasEthiopic(word) ? swaps(word) : [];
  for (const term of swapped) if (!forms.has(term)) out.push({ term, prefix: false, fuzzy: 0, boost: 0.5 });
  return out;
}

/** The distinct words of a shopper's text (at most MAX_QUERY_WORDS), in order. */
export function queryWords(text: string): string[] {
  return [...new Set(wordsOf(text))].slice(0, MAX_QUERY_WORDS);
}

/** A shopper's text as a query of the index (every word must match), or null when it has no word. */
export function toQuery(text: string): Query | null {
  const words = queryWords(text);
  if (!words.length) return null;
  return { combineWith: 'AND', queries: words.map((word, i) => wordQuery(word, i === words.length - 1)) };
}
