import MiniSearch from 'minisearch';
import {
  FIELD_BOOSTS,
  SEARCH_FIELDS,
  indexWords,
  toSearchEntry,
  wordForms,
  wordQuery,
  type IndexSource,
  type SearchDocument,
} from '../src/modules/catalog/search-query';
import { Postings, compactPostings } from '../src/modules/catalog/search-postings';
import { Scorer } from '../src/modules/catalog/search-scorer';

/**
 * The index's postings over typed arrays (search-postings.ts, docs/decisions/0103-search-memory.md)
 * must be MiniSearch's maps in all but memory: the same entries in the same order through every change
 * MiniSearch makes to them, and an index compacted after its build must answer every word with the
 * very same scores (not merely close ones) as one left as MiniSearch made it, before and after
 * products are added, replaced, discarded and vacuumed away.
 */

function entries(map: Map<number, number> | Postings): [number, number][] {
  return [...map];
}

describe('search postings: a Map of ids to frequencies over typed arrays', () => {
  it('answers as a Map through additions, changes, deletions (while walked), big frequencies and revivals', () => {
    const map = new Map<number, number>();
    for (let id = 0; id < 40; id += 2) map.set(id, (id % 5) + 1);
    const postings = new Postings(map);
    expect(entries(postings)).toEqual(entries(map));
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let next = 40;
    for (let step = 0; step < 3000; step++) {
      const op = random(6);
      const id = random(next + 1);
      if (op === 0) {
        next += 1 + random(3);
        map.set(next, 1 + random(3));
        postings.set(next, map.get(next)!);
      } else if (op === 1 && map.has(id)) {
        const freq = random(4) === 0 ? 250 + random(400) : 1 + random(9);
        map.set(id, freq);
        postings.set(id, freq);
      } else if (op === 2) {
        expect(postings.delete(id)).toBe(map.delete(id));
      } else if (op === 3) {
        // a walk that deletes as it goes (MiniSearch's vacuum and search do)
        for (const [at] of postings) if (at % 7 === random(7)) postings.delete(at);
        for (const [at] of map) if (!postings.has(at)) map.delete(at);
      } else if (op === 4) {
        expect(postings.get(id)).toBe(map.get(id));
        expect(postings.has(id)).toBe(map.has(id));
      } else {
        // an id put back below the last one (not done by MiniSearch, whose ids only grow; kept in order)
        if (!map.has(id) && id < next) {
          map.set(id, 2);
          postings.set(id, 2);
          const sorted = [...map].sort((a, b) => a[0] - b[0]);
          map.clear();
          for (const [k, v] of sorted) map.set(k, v);
        }
      }
      expect(postings.size).toBe(map.size);
    }
    expect(entries(postings)).toEqual(entries(map));
    expect([...postings.keys()]).toEqual([...map.keys()]);
    expect([...postings.values()]).toEqual([...map.values()]);
    expect(postings.size).toBeGreaterThan(100);
    expect(() => postings.set(1, 0)).toThrow(RangeError);
  });
});

const WORDS = ['Moringa', 'Shea Butter', 'Coffee', 'Teff', 'Black Seed', 'Aloe', 'Frankincense', 'Honey'];
const KINDS = ['Serum', 'Shampoo', 'Body Butter', 'Face Mask', 'Soap', 'Hair Oil'];
const BRANDS = ['Buna Beauty', 'Sheba Naturals', 'Addis Glow'];
const PLACES = [
  ['skincare', 'serums'],
  ['haircare', 'shampoos'],
  ['bodycare', undefined],
] as const;

function product(i: number, name?: string): IndexSource {
  const word = WORDS[i % WORDS.length];
  const kind = KINDS[(i >> 2) % KINDS.length];
  const [category, subCategory] = PLACES[i % PLACES.length];
  return {
    _id: i.toString(16).padStart(24, '0'),
    name: name ?? `${word} ${kind} ${i + 1}`,
    nameAm: i % 3 === 0 ? 'የሞሪንጋ ሴረም' : undefined,
    brand: BRANDS[i % BRANDS.length],
    category,
    subCategory,
    description: `A natural ${kind.toLowerCase()} with ${WORDS[(i * 7) % WORDS.length].toLowerCase()}.`,
    keyIngredients: i % 4 === 0 ? [word] : [],
    ingredients: [word, WORDS[(i + 3) % WORDS.length], 'Water'],
  };
}

function index(): MiniSearch<SearchDocument> {
  const mini = new MiniSearch<SearchDocument>({
    idField: 'id',
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    tokenize: indexWords,
    processTerm: (term) => term,
    searchOptions: { boost: { ...FIELD_BOOSTS }, tokenize: (text) => [text] },
    autoVacuum: false,
  });
  for (let i = 0; i < 400; i++) mini.add(toSearchEntry(product(i)).document);
  return mini;
}

const QUERIES = [
  'moringa', 'mor', 'morniga', 'serun', 'coffe', 'shea', 'butter', 'buna', 'natural', 'a', 'hair',
  'serums', 'skincare', 'bod', 'sh', '1', '12', 'water', 'ሴረም', 'frankincens', 'glow', 'mist',
]; // prettier-ignore

/** Every query word's scores by both indexes: the same products, scores and terms, exactly. */
function same(plain: MiniSearch<SearchDocument>, compact: MiniSearch<SearchDocument>): void {
  const a = new Scorer(plain, FIELD_BOOSTS);
  const b = new Scorer(compact, FIELD_BOOSTS);
  for (const word of QUERIES)
    for (const last of [true, false]) {
      const x = a.word(wordForms(word, last));
      const y = b.word(wordForms(word, last));
      expect([...y.docs]).toEqual([...x.docs]);
      expect([...y.values]).toEqual([...x.values]);
      expect([...y.terms].sort()).toEqual([...x.terms].sort());
    }
}

describe('search postings: an index compacted after its build', () => {
  it('answers every word exactly as the index MiniSearch made, through additions, replacements, discards and a vacuum', async () => {
    const plain = index();
    const compact = index();
    const turned = compactPostings(compact, 8);
    expect(turned).toBeGreaterThan(20);
    const fields = (compact as unknown as { _index: { get(t: string): Map<number, unknown> } })._index.get(
      'moringa',
    )!;
    expect([...fields.values()].some((postings) => postings instanceof Postings)).toBe(true);
    same(plain, compact);

    for (const mini of [plain, compact]) {
      for (let i = 400; i < 430; i++) mini.add(toSearchEntry(product(i)).document);
      for (let i = 0; i < 400; i += 9) mini.discard(product(i)._id as string);
      mini.replace(toSearchEntry(product(5, 'Moringa Mist')).document);
      mini.replace(toSearchEntry(product(10, 'Coffee Scrub 11')).document);
    }
    same(plain, compact);
    // MiniSearch's own search (it takes the discarded products' postings out as it meets them) agrees too
    for (const word of QUERIES) {
      const x = plain.search(wordQuery(word, true));
      const y = compact.search(wordQuery(word, true));
      expect(y.map((r) => [r.id, r.score])).toEqual(x.map((r) => [r.id, r.score]));
    }
    await plain.vacuum();
    await compact.vacuum();
    same(plain, compact);
    expect(JSON.stringify(compact)).toBe(JSON.stringify(plain));
  });
});
