import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The language in the address, at the server (docs/decisions/0092-language-in-the-address.md). */
const require = createRequire(import.meta.url);
const { amharicTwin, isCrawler, languageAddress, localizedLocation, rememberedLanguageRedirect } =
  require('./language-address.cjs') as {
    amharicTwin: (path: string) => string;
    isCrawler: (ua: string) => boolean;
    languageAddress: (req: object, res: object, next: () => void) => void;
    localizedLocation: (requestPath: string, location: string) => string;
    rememberedLanguageRedirect: (req: object) => string | null;
  };
const { classify } = require('./page-cache.cjs') as {
  classify: (req: object) => { kind: string; key?: string; saveData?: boolean };
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

describe('Save-Data across the remembered-language redirect (docs/decisions/0100-save-data-and-page-weight.md)', () => {
  /** Runs the middleware: what it answered (a redirect) or the request it handed on. */
  function run(req: { headers: Record<string, string>; [k: string]: unknown }) {
    const headers: Record<string, string[]> = {};
    let redirect: [number, string] | undefined;
    let handedOn = false;
    const res = {
      setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = [value]),
      append: (name: string, value: string) => (headers[name.toLowerCase()] ??= []).push(value),
      redirect: (status: number, to: string) => (redirect = [status, to]),
    };
    languageAddress(req, res, () => (handedOn = true));
    return { headers, redirect, handedOn, req };
  }

  it('the redirect of a data-saving visit says so in a short-lived cookie; the next page is the Save-Data page', () => {
    const first = run(visit('/', { cookie: 'language=am', 'save-data': 'on', host: 'shop.et' }));
    expect(first.redirect).toEqual([302, '/am/']);
    expect(first.headers['cache-control']).toEqual(['private, no-store']);
    expect(first.headers['vary']?.[0]).toMatch(/Save-Data/);
    const cookie = first.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/^save-data=on; Max-Age=(\d+);/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBeLessThanOrEqual(60);
    expect(cookie).toMatch(/HttpOnly/);

    // Chromium drops a Save-Data header added by DevTools on the redirect's hop: only the cookie comes back
    const second = run(visit('/am/', { cookie: 'language=am; save-data=on', host: 'shop.et' }));
    expect(second.handedOn).toBe(true);
    expect(second.req.headers['save-data']).toBe('on');
    expect(second.req.headers.cookie).toBe('language=am');
    // the page cache keys it as the anonymous Save-Data page (not a personal one)
    const kept = classify({ ...second.req, protocol: 'http' });
    expect(kept.kind).toBe('cached');
    expect(kept.saveData).toBe(true);
    expect(kept.key).toBe(
      classify({
        ...visit('/am/', { cookie: 'language=am', 'save-data': 'on', host: 'shop.et' }),
        protocol: 'http',
      }).key,
    );
  });

  it('no cookie without Save-Data; the cookie alone, or saying off, changes nothing else', () => {
    const plain = run(visit('/', { cookie: 'language=am', host: 'shop.et' }));
    expect(plain.redirect).toEqual([302, '/am/']);
    expect(plain.headers['set-cookie']).toBeUndefined();

    const only = run(visit('/am/faq', { cookie: 'save-data=on', host: 'shop.et' }));
    expect(only.req.headers.cookie).toBeUndefined();
    expect(only.req.headers['save-data']).toBe('on');

    const off = run(visit('/am/faq', { cookie: 'token=t; save-data=off', host: 'shop.et' }));
    expect(off.req.headers.cookie).toBe('token=t');
    expect(off.req.headers['save-data']).toBeUndefined();

    const other = run(visit('/am/faq', { cookie: 'language=am; save-datax=on', host: 'shop.et' }));
    expect(other.req.headers.cookie).toBe('language=am; save-datax=on');
    expect(other.req.headers['save-data']).toBeUndefined();
  });
});
