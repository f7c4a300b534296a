import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The language in the address, at the server (docs/decisions/0092-language-in-the-address.md). */
const require = createRequire(import.meta.url);
const { amharicTwin, isCrawler, localizedLocation, rememberedLanguageRedirect } =
  require('./language-address.cjs') as {
    amharicTwin: (path: string) => string;
    isCrawler: (ua: string) => boolean;
    localizedLocation: (requestPath: string, location: string) => string;
    rememberedLanguageRedirect: (req: object) => string | null;
  };

const PHONE =
  'Mozilla/5.0 (Linux; Android 13; SM-A145F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const visit = (url: string, headers: Record<string, string>, method = 'GET') => ({
  method,
  url,
  originalUrl: url,
  headers: { 'user-agent': PHONE, 'sec-fetch-dest': 'document', ...headers },
});

describe('a visitor whose remembered language is Amharic', () => {
  it('goes from an English page to its Amharic twin, query kept', () => {
    expect(rememberedLanguageRedirect(visit('/', { cookie: 'language=am' }))).toBe('/am/');
    expect(
      rememberedLanguageRedirect(visit('/products?category=skincare', { cookie: 'cart=1; language=am' })),
    ).toBe('/am/products?category=skincare');
    // no Sec-Fetch-Dest (an older browser): a request for HTML is a page visit
    expect(
      rememberedLanguageRedirect({
        method: 'GET',
        url: '/faq',
        headers: { cookie: 'language=am', accept: 'text/html', 'user-agent': PHONE },
      }),
    ).toBe('/am/faq');
  });

  it('is redirected when the service worker fetches the page for a navigation (dest empty, Accept text/html)', () => {
    expect(
      rememberedLanguageRedirect(
        visit('/orders', { cookie: 'language=am', 'sec-fetch-dest': 'empty', accept: 'text/html,*/*;q=0.8' }),
      ),
    ).toBe('/am/orders');
  });

  it('is not redirected on an Amharic page, with another choice, or when it is no page visit', () => {
    expect(rememberedLanguageRedirect(visit('/am/products', { cookie: 'language=am' }))).toBeNull();
    expect(rememberedLanguageRedirect(visit('/products', { cookie: 'language=en' }))).toBeNull();
    expect(rememberedLanguageRedirect(visit('/products', {}))).toBeNull();
    expect(rememberedLanguageRedirect(visit('/products?_data=root', { cookie: 'language=am' }))).toBeNull();
    expect(
      rememberedLanguageRedirect(visit('/products', { cookie: 'language=am', 'sec-fetch-dest': 'empty' })),
    ).toBeNull();
    expect(
      rememberedLanguageRedirect(
        visit('/products', { cookie: 'language=am', 'sec-fetch-dest': 'image', accept: 'text/html' }),
      ),
    ).toBeNull();
    expect(rememberedLanguageRedirect(visit('/cart/add', { cookie: 'language=am' }, 'POST'))).toBeNull();
    for (const path of [
      '/sitemap.xml',
      '/robots.txt',
      '/i18n/am',
      '/language',
      '/favicon.svg',
      '/hero/a.webp',
    ])
      expect(rememberedLanguageRedirect(visit(path, { cookie: 'language=am' }))).toBeNull();
  });

  it('never redirects a crawler; a headless browser is a person’s', () => {
    expect(
      rememberedLanguageRedirect(visit('/', { cookie: 'language=am', 'user-agent': GOOGLEBOT })),
    ).toBeNull();
    expect(isCrawler(GOOGLEBOT)).toBe(true);
    expect(isCrawler('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')).toBe(true);
    expect(
      isCrawler(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36',
      ),
    ).toBe(false);
    expect(isCrawler(PHONE)).toBe(false);
  });
});

describe('redirects of an Amharic request', () => {
  it('stay in Amharic', () => {
    expect(localizedLocation('/am/cart/add', '/product/p1?added=1')).toBe('/am/product/p1?added=1');
    expect(localizedLocation('/am/logout', '/')).toBe('/am/');
    expect(localizedLocation('/am/checkout', '/signin?redirectTo=%2Fam%2Fcheckout')).toBe(
      '/am/signin?redirectTo=%2Fam%2Fcheckout',
    );
    expect(localizedLocation('/am/cart', '/am/cart')).toBe('/am/cart');
  });

  it('leave the language switch, other sites and English requests alone', () => {
    expect(localizedLocation('/am/language', '/products')).toBe('/products');
    expect(localizedLocation('/am/signin', 'http://127.0.0.1:3001/dashboard')).toBe(
      'http://127.0.0.1:3001/dashboard',
    );
    expect(localizedLocation('/am/signin', '//evil.example/')).toBe('//evil.example/');
    expect(localizedLocation('/cart/add', '/product/p1')).toBe('/product/p1');
    expect(localizedLocation('/amber', '/product/p1')).toBe('/product/p1');
  });

  it('twin: the root and a query', () => {
    expect(amharicTwin('/')).toBe('/am/');
    expect(amharicTwin('/?added=1')).toBe('/am/?added=1');
    expect(amharicTwin('/am/faq')).toBe('/am/faq');
  });
});
