import { createTranslator } from '@shop/i18n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countText, highlightParts, normalizeRanges, optionUrls } from './components/suggestion-list';
import { loader } from './routes/search.suggestions';
import { NO_SUGGESTIONS, suggestionQuery, toSuggestions, type SuggestionsAnswer } from './search-suggestions';

const en = createTranslator('en');
const am = createTranslator('am');

describe('highlight splitting', () => {
  it('cuts the name at the ranges, the parts together giving the whole name', () => {
    expect(highlightParts('Moringa Glow Serum', [[0, 7]])).toEqual([
      { text: 'Moringa', match: true },
      { text: ' Glow Serum', match: false },
    ]);
    expect(
      highlightParts('Coconut & Moringa Moisture Shampoo', [
        [10, 17],
        [27, 31],
      ]),
    ).toEqual([
      { text: 'Coconut & ', match: false },
      { text: 'Moringa', match: true },
      { text: ' Moisture ', match: false },
      { text: 'Sham', match: true },
      { text: 'poo', match: false },
    ]);
  });

  it('marks Ethiopic text by its UTF-16 offsets', () => {
    // 'የሞሪንጋ ብርሃን ሴረም': the prefix 'የ' is not part of the matched word
    expect(highlightParts('የሞሪንጋ ብርሃን ሴረም', [[1, 5]])).toEqual([
      { text: 'የ', match: false },
      { text: 'ሞሪንጋ', match: true },
      { text: ' ብርሃን ሴረም', match: false },
    ]);
  });

  it('shows the name unmarked without ranges (a match through the transliteration)', () => {
    expect(highlightParts('ቡና ማት ሊፕስቲክ', [])).toEqual([{ text: 'ቡና ማት ሊፕስቲክ', match: false }]);
    expect(highlightParts('Buna Matte Lipstick', undefined)).toEqual([
      { text: 'Buna Matte Lipstick', match: false },
    ]);
  });

  it('merges overlapping and touching ranges, sorts them, clamps them to the name and drops malformed ones', () => {
    expect(
      normalizeRanges([[5, 9], [0, 3], [2, 4], [4, 5], [12, 40], [-3, 0], [7, 7], [1.5, 2], 'x', [1]], 14),
    ).toEqual([
      [0, 9],
      [12, 14],
    ]);
    expect(normalizeRanges('0-4', 10)).toEqual([]);
    expect(highlightParts('Shea', [[0, 99]])).toEqual([{ text: 'Shea', match: true }]);
    expect(highlightParts('', [[0, 3]])).toEqual([{ text: '', match: false }]);
  });
});

describe('options and status', () => {
  it('goes through products, categories, brands, then view all', () => {
    expect(
      optionUrls(
        {
          products: [{ url: '/product/a' }, { url: '/product/b' }],
          categories: [{ url: '/products?category=skincare' }],
          brands: [{ url: '/products?search=Buna+Beauty' }],
        },
        '/products?search=bu',
      ),
    ).toEqual([
      '/product/a',
      '/product/b',
      '/products?category=skincare',
      '/products?search=Buna+Beauty',
      '/products?search=bu',
    ]);
    expect(optionUrls(NO_SUGGESTIONS, '/products?search=zz')).toEqual(['/products?search=zz']);
  });

  it('announces the count in the page language', () => {
    expect(countText(5, en)).toBe('5 suggestions');
    expect(countText(1, en)).toBe('1 suggestion');
    expect(countText(0, en)).toBe('No suggestions');
    expect(countText(5, am)).toBe('5 ጥቆማዎች');
    expect(countText(1, am)).toBe('1 ጥቆማ');
    expect(countText(0, am)).toBe('ምንም ጥቆማ የለም');
  });
});

const ANSWER: SuggestionsAnswer = {
  query: 'bunna',
  products: [
    {
      _id: '64b000000000000000000001',
      name: 'Buna Matte Lipstick',
      brand: 'Buna Beauty',
      price: 4350,
      compareAtPrice: 5200,
      image: '/api/uploads/lipstick.webp',
      url: '/product/64b000000000000000000001',
      highlight: [
        [0, 4],
        [2, 4],
      ],
    },
    {
      _id: '64b000000000000000000002',
      name: 'Coffee Volume Mascara',
      brand: 'Buna Beauty',
      price: 520,
      image: null,
      // never a link off the site, whatever the answer says
      url: '//evil.example/x',
      highlight: [],
    },
  ],
  categories: [
    { slug: 'makeup', name: 'Make-up', count: 12, url: '/products?category=makeup' },
    { slug: 'serums', name: 'Serums', count: 6, url: '/products?subCategory=serums' },
    { slug: 'hair-care', name: 'Hair care', count: 3, url: '/products?category=hair-care' },
  ],
  brands: [{ name: 'Buna Beauty', count: 5, url: '/products?brand=Buna%20Beauty' }],
};

describe("the suggestions route's mapping", () => {
  it('passes products through with the shelf price, VAT words, image and a same-site link', () => {
    const s = toSuggestions(ANSWER, 'bunna', { lang: 'en', pricesIncludeTax: false, t: en });
    expect(s.query).toBe('bunna');
    expect(s.products).toEqual([
      {
        id: '64b000000000000000000001',
        name: 'Buna Matte Lipstick',
        highlight: [[0, 4]],
        brand: 'Buna Beauty',
        price: 'ETB 4,350.00 + VAT',
        image: '/api/uploads/lipstick.webp',
        url: '/product/64b000000000000000000001',
      },
      {
        id: '64b000000000000000000002',
        name: 'Coffee Volume Mascara',
        highlight: [],
        brand: 'Buna Beauty',
        price: 'ETB 520.00 + VAT',
        image: null,
        url: '/product/64b000000000000000000002',
      },
    ]);
    const included = toSuggestions(ANSWER, 'bunna', { lang: 'am', pricesIncludeTax: true, t: am });
    expect(included.products[0].price).toBe(`4,350.00 ብር ${am('product.inclVat')}`);
  });

  it("links categories to the catalogue's own filters, named in the page language; unknown slugs are left out", () => {
    const s = toSuggestions(ANSWER, 'bunna', { lang: 'en', pricesIncludeTax: false, t: en });
    expect(s.categories).toEqual([
      { name: 'Makeup', count: 12, url: '/products?category=makeup' },
      { name: 'Serums', count: 6, url: '/products?category=skincare&subCategory=serums' },
    ]);
    const a = toSuggestions(ANSWER, 'bunna', { lang: 'am', pricesIncludeTax: false, t: am });
    expect(a.categories.map((c) => c.name)).toEqual(['ሜካፕ', 'ሴረሞች']);
  });

  it('opens a brand as the search for its name (the catalogue has no brand filter)', () => {
    const s = toSuggestions(ANSWER, 'bunna', { lang: 'en', pricesIncludeTax: false, t: en });
    expect(s.brands).toEqual([{ name: 'Buna Beauty', count: 5, url: '/products?search=Buna+Beauty' }]);
  });

  it('keeps at most 5 products and 3 categories and brands; no answer gives empty lists', () => {
    const many: SuggestionsAnswer = {
      products: Array.from({ length: 8 }, (_, i) => ({ _id: `p${i}`, name: `P${i}`, price: 1 })),
      categories: ['skincare', 'makeup', 'haircare', 'fragrance'].map((slug) => ({ slug, count: 1 })),
      brands: ['A', 'B', 'C', 'D'].map((name) => ({ name, count: 1 })),
    };
    const s = toSuggestions(many, 'p', { lang: 'en', pricesIncludeTax: false, t: en });
    expect([s.products.length, s.categories.length, s.brands.length]).toEqual([5, 3, 3]);
    expect(toSuggestions(undefined, 'zz', { lang: 'en', pricesIncludeTax: false, t: en })).toEqual({
      ...NO_SUGGESTIONS,
      query: 'zz',
    });
  });

  it('asks only from 2 characters, trimmed, at most 100', () => {
    expect(suggestionQuery(null)).toBe('');
    expect(suggestionQuery(' b ')).toBe('');
    expect(suggestionQuery(' ቡና ')).toBe('ቡና');
    expect(suggestionQuery('x'.repeat(150))).toHaveLength(100);
  });
});

describe('the suggestions route', () => {
  afterEach(() => vi.unstubAllGlobals());

  function stubApi(suggestions: unknown, status = 200) {
    const calls: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request | string) => {
        const url = new URL(typeof input === 'string' ? input : input.url);
        calls.push(url);
        const body = url.pathname.endsWith('/settings/public') ? { pricesIncludeTax: false } : suggestions;
        return new Response(JSON.stringify(body), {
          status: url.pathname.endsWith('/settings/public') ? 200 : status,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    return calls;
  }

  const get = (query: string, cookie = '') =>
    loader({
      request: new Request(`http://shop.test/search/suggestions?${query}`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    });

  it("asks the API's predictive search with the text, 5 products and the page language", async () => {
    const calls = stubApi(ANSWER);
    const res = await get('q=%20bunna%20&lang=am');
    const body = await res.json();
    const asked = calls.find((u) => u.pathname === '/api/products/suggestions');
    expect(Object.fromEntries(asked!.searchParams)).toEqual({ q: 'bunna', limit: '5', lang: 'am' });
    expect(body.products.map((p: { name: string }) => p.name)).toEqual([
      'Buna Matte Lipstick',
      'Coffee Volume Mascara',
    ]);
    expect(body.products[0].price).toBe('4,350.00 ብር + ተ.እ.ታ');
    expect(res.headers.get('Cache-Control')).toBe('private, max-age=30');
  });

  it('takes the language from the cookie when the URL has none', async () => {
    const calls = stubApi(ANSWER);
    await get('q=buna', 'language=am');
    expect(calls.find((u) => u.pathname === '/api/products/suggestions')!.searchParams.get('lang')).toBe(
      'am',
    );
  });

  it('asks nothing for one character, and is not cached when the API fails', async () => {
    const calls = stubApi(ANSWER);
    expect(await (await get('q=b')).json()).toEqual(NO_SUGGESTIONS);
    expect(calls).toEqual([]);
    stubApi({ code: 'INTERNAL' }, 500);
    const failed = await get('q=buna');
    expect(await failed.json()).toEqual({ ...NO_SUGGESTIONS, query: 'buna' });
    expect(failed.headers.get('Cache-Control')).toBe('no-store');
  });
});
