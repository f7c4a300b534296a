import type { ProductFacts } from '../src/modules/catalog/search-query';
import { filterMatches, firstPlaces, type Matches } from '../src/modules/catalog/search-results';

/**
 * Ties of relevance are broken by the products' ids; with `idKeys` (the ids as two numbers each,
 * docs/decisions/0103-search-memory.md) the order must be the ids' own string order, whatever digits
 * differ (first or last twelve), and an id of another form falls back to comparing strings.
 */
function keysOf(id: string): [number, number] {
  return /^[0-9a-f]{24}$/.test(id) ? [parseInt(id.slice(0, 12), 16), parseInt(id.slice(12), 16)] : [NaN, NaN];
}

describe('search results: ties broken by the ids as numbers', () => {
  it('orders ties as the id strings do, over both halves of the id and a non-hex id', () => {
    const ids: string[] = [];
    let seed = 11;
    const hex = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return '0123456789abcdef'[seed % 16];
    };
    for (let i = 0; i < 300; i++) {
      // ids sharing their first digits (as ObjectIds made in one second do), some differing only at the end
      const prefix = i % 3 === 0 ? 'ffffffffffff' : `6a0${hex()}${hex()}0000000${hex()}`;
      ids.push(prefix + Array.from({ length: 12 }, hex).join(''));
    }
    ids.push('not-an-object-id', 'ZZZZZZZZZZZZZZZZZZZZZZZZ', '6A00000000000000000000ff');
    const facts = ids.map((id) => ({ id }) as ProductFacts);
    const docs = Int32Array.from(ids.map((_, i) => i));
    // three scores only: most products tie with many others
    const scores = Float64Array.from(ids.map((_, i) => [1.5, 2.25, 1.5 + 1e-12][i % 3]));
    const idKeys = new Float64Array(ids.length * 2);
    ids.forEach((id, i) => idKeys.set(keysOf(id), i * 2));
    const plain: Matches = { docs, scores, facts };
    const keyed: Matches = { docs, scores, facts, idKeys };
    for (const k of [5, 24, 48, ids.length])
      expect(firstPlaces(keyed, k).map((at) => ids[at])).toEqual(firstPlaces(plain, k).map((at) => ids[at]));
    const all = firstPlaces(keyed, ids.length).map((at) => ids[at]);
    const expected = ids
      .map((id, i) => [id, scores[i]] as const)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([id]) => id);
    expect(all).toEqual(expected);
    // the keys follow the matches through the listing's filters
    expect(filterMatches(keyed, { minRating: 0 } as never).idKeys).toBe(idKeys);
  });
});
