import { Injectable } from '@nestjs/common';
import { salePriceFields } from './sale-price';
import { CATEGORIES, storefrontPaths } from '@shop/shared';
import type {
  SuggestedBrandDto,
  SuggestedCategoryDto,
  SuggestedProductDto,
  SuggestionLang,
  SuggestionsDto,
} from './dto/suggestions.dto';
import { hasEthiopic, transliterate } from './ethiopic';
import { SearchIndex } from './search-index';
import { factsOf, firstPlaces, type Matches } from './search-results';
import { allowedEdits, queryWords, type ProductFacts } from './search-query';
import { withoutAmharicPreposition } from './search-terms';

/** Categories and brands suggested at most. */
const MAX_GROUPS = 3;
/** The top products whose categories and brands are suggested even when their names do not match. */
const TOP_FOR_GROUPS = 5;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** Edits between two words, a swap of neighbouring letters counting as one (optimal string alignment). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
    }
  return rows[a.length][b.length];
}

/** Whether a word of a name matches a query word: by prefix (the shopper is typing) or within its typos. */
function wordMatches(nameWord: string, queryWord: string): boolean {
  if (nameWord.startsWith(queryWord)) return true;
  const edits = allowedEdits(queryWord);
  return edits > 0 && editDistance(nameWord.slice(0, queryWord.length + edits), queryWord, edits) <= edits;
}

/** Whether a text (a category's or brand's name, in any script) has a word that matches one of the query's. */
function textMatches(text: string, words: readonly string[]): boolean {
  const own = (text.toLowerCase().match(WORD) ?? []).flatMap(withoutAmharicPreposition);
  const all = own.flatMap((w) => (hasEthiopic(w) ? [w, ...transliterate(w)] : [w]));
  return words.some((q) => all.some((w) => wordMatches(w, q)));
}

/**
 * The [start, end) ranges of `name` (UTF-16) that matched the query: the typed part of a word the
 * query's word starts, or a whole word the index matched (a typo); an Amharic word's preposition is
 * left out of its range.
 */
export function highlightRanges(
  name: string,
  words: readonly string[],
  terms: readonly string[],
): [number, number][] {
  const matched = new Set(terms);
  const ranges: [number, number][] = [];
  for (const found of name.matchAll(WORD)) {
    const start = found.index ?? 0;
    const word = found[0].toLowerCase();
    const forms = withoutAmharicPreposition(word).map((form) => ({
      form,
      at: start + word.length - form.length,
    }));
    let range: [number, number] | undefined;
    for (const { form, at } of forms) {
      const typed = words.find((q) => form.startsWith(q));
      if (typed) range = [at, at + Math.min(typed.length, form.length)];
      else if (matched.has(form)) range = [at, at + form.length];
      if (range) break;
    }
    if (range) ranges.push(range);
  }
  return ranges;
}

/**
 * The header's predictive search (GET /products/suggestions): the top products of the same search as
 * the listing's, and the categories and brands that match the words or hold the top products, with
 * how many matching products each has (docs/decisions/0084-search-index.md).
 */
@Injectable()
export class SuggestionsService {
  constructor(private readonly search: SearchIndex) {}

  async suggest(text: string, limit: number, lang: SuggestionLang): Promise<SuggestionsDto> {
    const query = text.trim();
    await this.search.currentFor(query);
    // the matches' arrays are lent until the next search: read before anything is awaited
    const found = query ? this.search.searchNow(query) : null;
    if (!found?.docs.length) return { query, products: [], categories: [], brands: [] };
    const words = queryWords(query);
    // the top products, most relevant first
    const top = firstPlaces(found, Math.max(limit, TOP_FOR_GROUPS)).map(
      (at) => found.facts[found.docs[at]] as ProductFacts,
    );
    return {
      query,
      products: top.slice(0, limit).map((facts) => this.product(facts, words, lang, found.terms(facts.id))),
      categories: this.categories(found, top, words, lang),
      brands: this.brands(found, top, words),
    };
  }

  private product(
    facts: ProductFacts,
    words: readonly string[],
    lang: SuggestionLang,
    terms: readonly string[],
  ): SuggestedProductDto {
    const name = lang === 'am' && facts.nameAm ? facts.nameAm : facts.name;
    // the price of the moment (a running sale's), the regular or compare-at price above it (docs/decisions/0095)
    const { price, compareAtPrice: before } = salePriceFields(facts);
    return {
      _id: facts.id,
      name,
      brand: facts.brand,
      price,
      ...(before !== undefined && before > price ? { compareAtPrice: before } : {}),
      image: facts.image,
      url: storefrontPaths.product(facts.id),
      highlight: highlightRanges(name, words, terms),
    };
  }

  private categories(
    found: Matches,
    topFacts: readonly ProductFacts[],
    words: readonly string[],
    lang: SuggestionLang,
  ): SuggestedCategoryDto[] {
    const counts = countBy(found, (facts) => facts.category);
    const top = new Set(topFacts.slice(0, TOP_FOR_GROUPS).map((facts) => facts.category));
    return CATEGORIES.map((category) => ({
      category,
      count: counts.get(category.slug) ?? 0,
      named: textMatches(`${category.slug} ${category.name.en} ${category.name.am}`, words),
    }))
      .filter((c) => c.count > 0 && (c.named || top.has(c.category.slug)))
      .sort((a, b) => Number(b.named) - Number(a.named) || b.count - a.count)
      .slice(0, MAX_GROUPS)
      .map(({ category, count }) => ({
        slug: category.slug,
        name: category.name[lang],
        count,
        url: `/products?category=${encodeURIComponent(category.slug)}`,
      }));
  }

  private brands(
    found: Matches,
    topFacts: readonly ProductFacts[],
    words: readonly string[],
  ): SuggestedBrandDto[] {
    const counts = countBy(found, (facts) => facts.brand || undefined);
    const top = new Set(topFacts.slice(0, TOP_FOR_GROUPS).map((facts) => facts.brand));
    return (
      [...counts]
        .map(([name, count]) => ({ name, count, named: textMatches(name, words) }))
        .filter((b) => b.named || top.has(b.name))
        .sort(
          (a, b) => Number(b.named) - Number(a.named) || b.count - a.count || a.name.localeCompare(b.name),
        )
        .slice(0, MAX_GROUPS)
        // the catalogue has no brand filter: a brand opens the search for its name (docs/decisions/0086-predictive-search-box.md)
        .map(({ name, count }) => ({ name, count, url: `/products?search=${encodeURIComponent(name)}` }))
    );
  }
}

function countBy(found: Matches, key: (facts: ProductFacts) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const facts of factsOf(found)) {
    const value = key(facts);
    if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}
