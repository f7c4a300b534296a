import MiniSearch from 'minisearch';
import {
  FIELD_BOOSTS,
  SEARCH_FIELDS,
  indexWords,
  toSearchEntry,
  wordForms,
  wordQuery,
  type SearchDocument,
} from '../src/modules/catalog/search-query';
import { Scorer } from '../src/modules/catalog/search-scorer';

/**
 * The scorer of search-scorer.ts must answer what MiniSearch's own search answers for one query word
 * (the same products, scores and matched terms): it reads MiniSearch's internals, so an upgrade of
 * MiniSearch that changes them fails here (docs/decisions/0090-search-speed.md).
 */
const WORDS = ['Moringa', 'Shea Butter', 'Coffee', 'Teff', 'Black Seed', 'Aloe', 'Frankincense', 'Honey'];
const KINDS = ['Serum', 'Shampoo', 'Body Butter', 'Face Mask', 'Soap', 'Hair Oil'];
const BRANDS = ['Buna Beauty', 'Sheba Naturals', 'Addis Glow', 'Lalibela Botanicals'];
const AMHARIC = ['የሞሪንጋ ሴረም', 'የቡና ሳሙና', 'ሻምፑ', 'የዕጣን ዘይት', 'የማር ሎሽን'];
const CATEGORIES = [
  ['skincare', 'serums'],
  ['haircare', 'shampoos'],
  ['bodycare', undefined],
] as const;

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
  for (let i = 0; i < 600; i++) {
    const word = WORDS[i % WORDS.length];
    const kind = KINDS[(i >> 2) % KINDS.length];
    const [category, subCategory] = CATEGORIES[i % CATEGORIES.length];
    const { document } = toSearchEntry({
      _id: i.toString(16).padStart(24, '0'),
      name: `${word} ${kind} ${i + 1}`,
      nameAm: i % 3 === 0 ? AMHARIC[i % AMHARIC.length] : undefined,
      brand: BRANDS[i % BRANDS.length],
      category,
      subCategory,
      description: `A natural ${kind.toLowerCase()} made with ${WORDS[(i * 7) % WORDS.length].toLowerCase()} from Ethiopia.${i % 5 === 0 ? ' Great for dry skin and dry hair.' : ''}`,
      keyIngredients: i % 4 === 0 ? [word] : [],
      ingredients: [word, WORDS[(i + 3) % WORDS.length], 'Water'],
    });
    mini.add(document);
  }
  return mini;
}

const QUERIES = [
  'moringa', 'mor', 'morniga', 'moringa', 'serun', 'coffe', 'shea', 'butter', 'buna', 'bunna', 'itan',
  'shampu', 'ሻምፑ', 'የቡና', 'ቡና', 'natural', 'dry', 'a', 'frankincens', 'honey', 'bod', 'sh', '1', '12',
  'ethiopia', 'hair', 'serums', 'skin', 'zzzz', 'lalibela', 'glow', 'teff', 'tef', 'blak',
]; // prettier-ignore

function compare(mini: MiniSearch<SearchDocument>, scorer: Scorer, word: string, last: boolean) {
  // the scorer first: MiniSearch's search takes a discarded product's postings out as it meets them
  const scores = scorer.word(wordForms(word, last));
  const expected = new Map(mini.search(wordQuery(word, last)).map((r) => [r.id as string, r]));
  expect(scores.docs.length).toBe(expected.size);
  const ids = new Map<number, string>([...expected.keys()].map((id) => [scorer.shortId(id) as number, id]));
  for (let i = 0; i < scores.docs.length; i++) {
    const id = ids.get(scores.docs[i]);
    expect(id).toBeDefined();
    const want = expected.get(id as string)!;
    expect(Math.abs(scores.values[i] - want.score)).toBeLessThanOrEqual(Math.abs(want.score) * 1e-9);
    expect(scorer.termsOf(scores, scores.docs[i]).sort()).toEqual([...want.terms].sort());
  }
}

describe('search: the scorer answers what MiniSearch answers', () => {
  it('gives every product of every word, as the last word (prefix) and not, its MiniSearch score and terms', () => {
    const mini = index();
    const scorer = new Scorer(mini, FIELD_BOOSTS);
    for (const word of QUERIES) {
      compare(mini, scorer, word, true);
      compare(mini, scorer, word, false);
    }
    // a word matched no product: nothing, no terms
    expect(scorer.word(wordForms('qqqq', true)).docs.length).toBe(0);
  });

  it('leaves out discarded and replaced products, scoring the others as MiniSearch does', () => {
    const mini = index();
    for (let i = 0; i < 600; i += 7) mini.discard(i.toString(16).padStart(24, '0'));
    const { document } = toSearchEntry({
      _id: (5).toString(16).padStart(24, '0'),
      name: 'Moringa Mist',
      brand: 'Buna Beauty',
    });
    mini.replace(document);
    // a scorer per word: MiniSearch's search took out the postings of discarded products the scorer kept
    for (const word of ['moringa', 'mist', 'buna', 'serum', 'natural', 'coffe']) {
      compare(mini, new Scorer(mini, FIELD_BOOSTS), word, true);
      compare(mini, new Scorer(mini, FIELD_BOOSTS), word, false);
    }
  });

  it('keeps at most its budget of term vectors and still answers the same after forgetting some', () => {
    const mini = index();
    const scorer = new Scorer(mini, FIELD_BOOSTS, 500);
    for (const word of QUERIES) compare(mini, scorer, word, true);
    for (const word of QUERIES.slice().reverse()) compare(mini, scorer, word, false);
  });
});
