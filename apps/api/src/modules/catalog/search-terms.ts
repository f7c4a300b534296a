/** Words of Latin, Ge'ez and other scripts, with their combining marks; everything else separates words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const MAX_TERMS = 2000;
export const MAX_QUERY_WORDS = 8;

/** Amharic writes "of", "in", "for" and "from" as a first syllable of the word (የሞሪንጋ = of moringa). */
const AMHARIC_PREPOSITION = /^[የበለከ](?=\p{Script=Ethiopic}{2})/u;

/** A word, and for an Amharic word with a leading preposition also the word without it. */
export function withoutAmharicPreposition(word: string): string[] {
  return AMHARIC_PREPOSITION.test(word) ? [word, word.slice(1)] : [word];
}

/** The lower-cased words of a text, as stored in and matched against `searchTerms`. */
export function wordsOf(text: string | undefined): string[] {
  return text ? (text.toLowerCase().match(WORD) ?? []) : [];
}

/**
 * The distinct words of a product's name, Amharic name, brand, description and ingredients.
 * Stored on the product and indexed (multikey), so that a search is an index range scan per
 * query word (`^word` on lower-cased terms) instead of a regular expression over every document.
 */
export function productSearchTerms(product: {
  name?: string;
  nameAm?: string;
  brand?: string;
  description?: string;
  descriptionAm?: string;
  ingredients?: string[];
}): string[] {
  const texts = [
    product.name,
    product.nameAm,
    product.brand,
    product.description,
    product.descriptionAm,
    ...(product.ingredients ?? []),
  ];
  return [...new Set(texts.flatMap(wordsOf).flatMap(withoutAmharicPreposition))].slice(0, MAX_TERMS);
}
