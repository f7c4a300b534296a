/** Fewest characters before the header search asks for suggestions (cheap on metered data). */
export const MIN_SUGGESTION_CHARS = 2;

/** A part of a suggestion's name: `match` parts are shown in <mark> (the text the shopper typed). */
export interface NamePart {
  text: string;
  match: boolean;
}

/**
 * The ranges `[start, end)` (UTF-16 offsets, as the API's suggestions answer them) made safe to cut
 * a name of `length` with: whole numbers inside the name, non-empty, sorted, overlapping or touching
 * ones merged. Anything else (a malformed range) is dropped rather than trusted.
 */
export function normalizeRanges(ranges: unknown, length: number): [number, number][] {
  if (!Array.isArray(ranges)) return [];
  const valid = ranges
    .filter(
      (r): r is [number, number] =>
        Array.isArray(r) && r.length === 2 && Number.isInteger(r[0]) && Number.isInteger(r[1]),
    )
    .map(([s, e]): [number, number] => [Math.max(0, s), Math.min(length, e)])
    .filter(([s, e]) => s < e)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of valid) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

/** The name cut at the highlight ranges: plain and matched parts in order, together the whole name. */
export function highlightParts(name: string, ranges: unknown): NamePart[] {
  const parts: NamePart[] = [];
  let at = 0;
  for (const [s, e] of normalizeRanges(ranges, name.length)) {
    if (s > at) parts.push({ text: name.slice(at, s), match: false });
    parts.push({ text: name.slice(s, e), match: true });
    at = e;
  }
  if (at < name.length || parts.length === 0) parts.push({ text: name.slice(at), match: false });
  return parts;
}

/** The links of the dropdown's options in the order the arrow keys go: products, categories, brands, 'view all'. */
export function optionUrls(
  suggestions: { products: { url: string }[]; categories: { url: string }[]; brands: { url: string }[] },
  viewAll: string,
): string[] {
  return [
    ...suggestions.products.map((p) => p.url),
    ...suggestions.categories.map((c) => c.url),
    ...suggestions.brands.map((b) => b.url),
    viewAll,
  ];
}

/** What the polite status says when the list opens: '5 suggestions', '1 suggestion', 'No suggestions'. */
export function countText(
  count: number,
  t: (key: string, params?: Record<string, string | number>) => string,
) {
  if (count === 0) return t('header.noSuggestions');
  return count === 1 ? t('header.suggestionsCountOne') : t('header.suggestionsCount', { count });
}
