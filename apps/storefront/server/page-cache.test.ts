import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The page cache (docs/decisions/0087-page-cache.md): anonymous pages rendered once per URL and
 * language, kept compressed in a memory bounded by bytes, strong ETags and 304s, one render per key at
 * a time, checks of the API answers a page was rendered from, and personal requests never kept.
 */
const require = createRequire(import.meta.url);
const pageCache = require('./page-cache.cjs') as {
  ByteLru: new (
    maxBytes: number,
    maxEntries: number,
  ) => {
    bytes: number;
    size: number;
    evictions: number;
    get(key: string): unknown;
    set(key: string, entry: { bytes: number }): boolean;
  };
  chooseEncoding(header: string | undefined): string;
  classify(req: { method: string; url: string; headers: IncomingHttpHeaders; protocol?: string }): {
    kind: string;
    key?: string;
    url?: string;
    lang?: string;
    saveData?: boolean;
    template?: { kind: string; key: string; url: string; lang: string; saveData: boolean };
  };
  createPageCache(options: {
    maxBytes: number;
    maxEntries: number;
    checkMs: number;
    render: (page: { url: string; lang: string; kind: string }) => Promise<Rendered>;
    current: (deps: Dep[]) => Promise<boolean>;
    personalPage?: (template: string, request: Request) => Promise<string | null>;
    now?: () => number;
  }): {
    middleware: express.RequestHandler;
    counts: Record<string, number>;
    lru: { size: number; bytes: number };
  };
  apiChecker(options: {
    checkMs: number;
    fetch: typeof fetch;
    now?: () => number;
  }): (deps: Dep[]) => Promise<boolean>;
  pageCacheConfig(env: Record<string, string | undefined>): {
    maxBytes: number;
    maxEntries: number;
    checkMs: number;
    personal: boolean;
  };
  PUBLIC_CACHE_CONTROL: string;
};

interface Dep {
  url: string;
  headers: Record<string, string>;
  etag: string;
}
interface Rendered {
  status: number;
  headers: Headers;
  body: Buffer;
  deps: Dep[];
  tracked: boolean;
  degraded: boolean;
}

const html = (text: string, status = 200, extra: Record<string, string> = {}): Rendered => ({
  status,
  headers: new Headers({ 'Content-Type': 'text/html; charset=utf-8', ...extra }),
  body: Buffer.from(`<!DOCTYPE html><html><body>${text}${' '.repeat(2000)}</body></html>`),
  deps: [{ url: 'http://api/api/products', headers: {}, etag: '"v1"' }],
  tracked: true,
  degraded: false,
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A raw request (node's http, no decoding), so the test sees exactly the bytes and headers sent. */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** The cache in an Express app as server/index.cjs mounts it; behind it, a page that names its cookie. */
async function serve(options: {
  render: (page: { url: string; lang: string; kind: string }) => Promise<Rendered>;
  current?: (deps: Dep[]) => Promise<boolean>;
  personalPage?: (template: string, request: Request) => Promise<string | null>;
  maxBytes?: number;
  maxEntries?: number;
  checkMs?: number;
  now?: () => number;
}) {
  const cache = pageCache.createPageCache({
    maxBytes: options.maxBytes ?? 1024 * 1024,
    maxEntries: options.maxEntries ?? 100,
    checkMs: options.checkMs ?? 1000,
    render: options.render,
    current: options.current ?? (async () => true),
    personalPage: options.personalPage,
    now: options.now,
  });
  const app = express();
  app.use(compression());
  let perRequest = 0;
  app.all('*', cache.middleware, (req, res) => {
    perRequest++;
    res.type('html').send(`<p>for ${req.headers.cookie ?? 'nobody'}</p>`);
  });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, cache, perRequest: () => perRequest };
}

describe('which requests are kept (classify)', () => {
  const req = (url: string, headers: IncomingHttpHeaders = {}, method = 'GET') => ({
    method,
    url,
    headers: { host: 'shop.test', ...headers },
    protocol: 'https',
  });

  it('keys the catalogue by language cookie and query, without campaign parameters', () => {
    const plain = pageCache.classify(req('/products?category=skin-care&page=2'));
    expect(plain).toEqual({
      kind: 'cached',
      key: '- https://shop.test/products?category=skin-care&page=2',
      url: 'https://shop.test/products?category=skin-care&page=2',
      lang: '',
      saveData: false,
    });
    const tracked = pageCache.classify(req('/products?utm_source=sms&category=skin-care&page=2&fbclid=x'));
    expect(tracked.key).toBe(plain.key);
    expect(tracked.url).toBe(plain.url);
    const amharic = pageCache.classify(req('/products?category=skin-care&page=2', { cookie: 'language=am' }));
    expect(amharic.kind).toBe('cached');
    expect(amharic.lang).toBe('am');
    expect(amharic.key).not.toBe(plain.key);
    // an explicit English choice is a page of its own (the root loader says whether the cookie is set)
    expect(pageCache.classify(req('/', { cookie: 'language=en' })).key).toBe('en https://shop.test/');
    // a phone asking to save data gets a page of its own (small photos, no auto-advancing slider)
    const saving = pageCache.classify(req('/', { 'save-data': 'on' }));
    expect(saving).toMatchObject({ kind: 'cached', saveData: true, url: 'https://shop.test/' });
    expect(saving.key).not.toBe(pageCache.classify(req('/')).key);
    expect(pageCache.classify(req('/', { 'save-data': 'off' })).key).toBe(pageCache.classify(req('/')).key);
  });

  it('sends sessions, guest carts, order tokens, other cookies and flash messages to a per-request render', () => {
    for (const cookie of [
      'token=abc',
      'cart_id=0123456789abcdef0123456789abcdef',
      'language=am; order_token_66aa=xyz',
      'paying_order=66aa',
      'language=en; language=am',
      'something_new=1',
    ])
      expect(pageCache.classify(req('/', { cookie })).kind, cookie).toBe('personal');
    expect(pageCache.classify(req('/', { authorization: 'Bearer x' })).kind).toBe('personal');
    for (const flash of ['added=1', 'cartError=OUT_OF_STOCK&available=2', 'reviewError=x', 'review=saved'])
      expect(pageCache.classify(req(`/product/abc123?${flash}`)).kind, flash).toBe('personal');
  });

  it('gives a shopper on a kept page the template of the page (docs/decisions/0107)', () => {
    const catalogue = pageCache.classify(
      req('/am/products?page=2&utm_source=sms', { cookie: 'language=am; token=abc', 'save-data': 'on' }),
    );
    expect(catalogue).toEqual({
      kind: 'personal',
      template: {
        kind: 'template',
        key: 'template am save-data https://shop.test/am/products?page=2',
        url: 'https://shop.test/am/products?page=2',
        lang: 'am',
        saveData: true,
      },
    });
    // never the anonymous page's key
    expect(catalogue.template!.key).not.toBe(
      pageCache.classify(req('/am/products?page=2', { cookie: 'language=am', 'save-data': 'on' })).key,
    );
    for (const path of ['/', '/am/', '/products', '/about', '/am/faq', '/shipping', '/contact'])
      expect(pageCache.classify(req(path, { cookie: 'cart_id=0123' })).template?.kind, path).toBe('template');
    expect(pageCache.classify(req('/', { authorization: 'Bearer x' })).template?.key).toBe(
      'template - https://shop.test/',
    );
    expect(pageCache.classify(req('/am/product/abc123', { cookie: 'token=abc' })).template?.key).toBe(
      'template - https://shop.test/am/product/abc123',
    );
    // a flash is one visitor's, two language cookies are ambiguous, other pages are the shopper's own
    expect(pageCache.classify(req('/cart', { cookie: 'token=abc' })).kind).toBe('pass');
    expect(pageCache.classify(req('/product/abc123?review=saved', { cookie: 'token=abc' }))).toEqual({
      kind: 'personal',
    });
    expect(pageCache.classify(req('/?added=1', { cookie: 'token=abc' }))).toEqual({ kind: 'personal' });
    expect(pageCache.classify(req('/', { cookie: 'language=en; language=am; token=abc' }))).toEqual({
      kind: 'personal',
    });
    expect(pageCache.classify(req('/', { cookie: 'token=abc', host: 'a.test, b.test' }))).toEqual({
      kind: 'personal',
    });
  });

  it('renders a request whose Host is no host name per request, as before', () => {
    for (const host of ['a.test, b.test', 'shop test', 'shop.test/evil', ''])
      expect(pageCache.classify(req('/', { host })).kind, host).toBe('pass');
    expect(pageCache.classify(req('/', { host: '127.0.0.1:3000' })).kind).toBe('cached');
    expect(pageCache.classify(req('/', { host: '[::1]:3000' })).kind).toBe('cached');
  });

  it('keeps only the public pages, read by GET or HEAD', () => {
    for (const path of [
      '/',
      '/products',
      '/products?search=shea',
      '/product/66f0c1',
      '/about',
      '/faq',
      '/shipping',
      '/contact',
    ])
      expect(pageCache.classify(req(path)).kind, path).toBe('cached');
    expect(pageCache.classify(req('/', {}, 'HEAD')).kind).toBe('cached');
    for (const path of [
      '/cart',
      '/checkout',
      '/profile',
      '/orders',
      '/wishlist',
      '/products.data',
      '/products?_data=routes%2Fproducts',
      '/signin',
    ])
      expect(pageCache.classify(req(path)).kind, path).toBe('pass');
    expect(pageCache.classify(req('/contact', {}, 'POST')).kind).toBe('pass');
  });
});

describe('ByteLru', () => {
  it('drops the least recently used entries once the bytes or the count exceed their bounds', () => {
    const lru = new pageCache.ByteLru(1000, 3);
    lru.set('a', { bytes: 400 });
    lru.set('b', { bytes: 400 });
    lru.get('a'); // a is now the most recently used
    lru.set('c', { bytes: 400 }); // 1200 > 1000: b goes
    expect([lru.get('a'), lru.get('b'), lru.get('c')].map(Boolean)).toEqual([true, false, true]);
    expect(lru.bytes).toBe(800);
    lru.set('d', { bytes: 10 });
    lru.set('e', { bytes: 10 }); // 4 entries > 3: the least recent (a) goes
    expect(lru.size).toBe(3);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.set('huge', { bytes: 2000 })).toBe(false);
    expect(lru.bytes).toBe(420);
  });
});

describe('encodings', () => {
  it('prefers brotli, then gzip, then the bytes themselves, honouring q=0', () => {
    expect(pageCache.chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(pageCache.chooseEncoding('gzip, br;q=0')).toBe('gzip');
    expect(pageCache.chooseEncoding('deflate')).toBe('identity');
    expect(pageCache.chooseEncoding(undefined)).toBe('identity');
    expect(pageCache.chooseEncoding('*')).toBe('br');
  });
});

describe('the cache in front of the pages', () => {
  it('renders a Save-Data page with Save-Data, kept apart from the usual page', async () => {
    const seen: unknown[] = [];
    const { base } = await serve({
      render: async (page) => (
        seen.push((page as { saveData?: boolean }).saveData),
        html(`page ${seen.length}`)
      ),
    });
    const saving = await get(base, '/', { 'Save-Data': 'on' });
    const usual = await get(base, '/');
    const again = await get(base, '/', { 'Save-Data': 'on' });
    expect(seen).toEqual([true, false]);
    expect(again.headers['x-page-cache']).toBe('hit');
    expect(again.body).toEqual(saving.body);
    expect(usual.body).not.toEqual(saving.body);
    expect(usual.headers.vary).toContain('Save-Data');
  });

  it('renders a page once, then answers it compressed with a strong ETag and 304 on If-None-Match', async () => {
    let renders = 0;
    const { base } = await serve({ render: async () => (renders++, html('home page')) });
    const first = await get(base, '/', { 'Accept-Encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['x-page-cache']).toBe('miss');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe(pageCache.PUBLIC_CACHE_CONTROL);
    expect(first.headers.vary).toBe('Accept-Encoding, Cookie, Save-Data');
    const identity = html('home page').body;
    expect(brotliDecompressSync(first.body)).toEqual(identity);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+-br"$/);

    const gz = await get(base, '/', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['x-page-cache']).toBe('hit');
    expect(gunzipSync(gz.body)).toEqual(identity);
    expect(gz.headers.etag).toBe(etag.replace('-br"', '-gz"'));
    const plain = await get(base, '/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(identity);
    expect(Number(plain.headers['content-length'])).toBe(identity.length);
    expect(plain.headers.etag).toBe(etag.replace('-br"', '"'));

    const again = await get(base, '/', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // a client that kept the gzip copy may revalidate while asking for brotli
    expect(
      (await get(base, '/', { 'Accept-Encoding': 'br', 'If-None-Match': gz.headers.etag! })).status,
    ).toBe(304);
    expect((await get(base, '/', { 'If-None-Match': '"something-else"' })).status).toBe(200);

    const head = await get(base, '/', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(first.body.length);
    expect(renders).toBe(1);
  });

  it('renders 50 concurrent misses of one page once', async () => {
    let renders = 0;
    const { base, cache } = await serve({
      render: async () => {
        renders++;
        await new Promise((r) => setTimeout(r, 100));
        return html('catalogue');
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => get(base, '/products?page=1', { 'Accept-Encoding': 'gzip' })),
    );
    expect(renders).toBe(1);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(answers.filter((a) => a.headers['x-page-cache'] === 'miss')).toHaveLength(1);
    expect(cache.counts.shared).toBe(49);
  });

  it('keys by language: an Amharic visitor never gets the English page', async () => {
    const { base } = await serve({ render: async ({ lang }) => html(`lang=${lang || 'default'}`) });
    expect((await get(base, '/about')).body.toString()).toContain('lang=default');
    expect((await get(base, '/about', { Cookie: 'language=am' })).body.toString()).toContain('lang=am');
    expect((await get(base, '/about')).body.toString()).toContain('lang=default');
  });

  it('renders personal requests per request, private and never kept, and never serves them a kept page', async () => {
    let renders = 0;
    const { base, cache, perRequest } = await serve({ render: async () => (renders++, html('anonymous')) });
    await get(base, '/');
    const signedIn = await get(base, '/', { Cookie: 'language=en; token=jwt-of-abebe' });
    expect(signedIn.body.toString()).toBe('<p>for language=en; token=jwt-of-abebe</p>');
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    expect(signedIn.headers.etag).toBeUndefined();
    const guestCart = await get(base, '/', { Cookie: 'cart_id=0123456789abcdef0123456789abcdef' });
    expect(guestCart.body.toString()).toContain('cart_id');
    expect(guestCart.headers['cache-control']).toBe('private, no-store');
    const flash = await get(base, '/product/abc?added=1');
    expect(flash.headers['cache-control']).toBe('private, no-store');
    // and the anonymous page is still the kept one, rendered once
    const anonymous = await get(base, '/');
    expect(anonymous.body.toString()).toContain('anonymous');
    expect(anonymous.headers['x-page-cache']).toBe('hit');
    expect(renders).toBe(1);
    expect(perRequest()).toBe(3);
    expect(cache.lru.size).toBe(1);
  });

  it("writes a shopper's page into the kept template: rendered once as a template, private, never the anonymous page", async () => {
    const rendered: string[] = [];
    const given: { template: string; cookie: string | null; url: string }[] = [];
    const { base, cache, perRequest } = await serve({
      render: async (page) => (
        rendered.push(page.kind),
        html(page.kind === 'template' ? 'TEMPLATE' : 'anonymous')
      ),
      personalPage: async (template, request) => {
        given.push({ template, cookie: request.headers.get('cookie'), url: request.url });
        return template.replace('TEMPLATE', `page of ${request.headers.get('cookie')}`);
      },
    });
    for (const token of ['abebe', 'hirut', 'abebe']) {
      const mine = await get(base, '/products?page=2', { Cookie: `token=${token}`, 'Accept-Encoding': 'br' });
      expect(mine.status).toBe(200);
      expect(mine.headers['x-page-cache']).toBe('personal-template');
      expect(mine.headers['cache-control']).toBe('private, no-store');
      expect(mine.headers.etag).toBeUndefined();
      expect(mine.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(brotliDecompressSync(mine.body).toString()).toContain(`page of token=${token}`);
    }
    expect(given.map((g) => g.cookie)).toEqual(['token=abebe', 'token=hirut', 'token=abebe']);
    expect(given[0].url).toMatch(/\/products\?page=2$/);
    expect(given[0].template).toContain('TEMPLATE');
    // one template render for the three; the anonymous page is its own entry, never the template
    expect(rendered).toEqual(['template']);
    const anonymous = await get(base, '/products?page=2');
    expect(anonymous.body.toString()).toContain('anonymous');
    expect(anonymous.headers['cache-control']).toMatch(/^public/);
    expect(rendered).toEqual(['template', 'cached']);
    expect(cache.counts.templated).toBe(3);
    expect(perRequest()).toBe(0);
    const head = await get(base, '/', { Cookie: 'token=abebe' }, 'HEAD');
    expect(head.body.length).toBe(0);
    expect(head.headers['x-page-cache']).toBe('personal-template');
  });

  it("renders the shopper's page per request when the template cannot serve it (none, refused, failing)", async () => {
    let answer: () => Promise<string | null> = async () => null;
    let status = 200;
    const { base, perRequest } = await serve({
      render: async () => html('TEMPLATE', status),
      personalPage: () => answer(),
    });
    // the shop closed for maintenance (or a template that is not one): personalPage says null
    const refused = await get(base, '/', { Cookie: 'token=abebe' });
    expect(refused.body.toString()).toBe('<p>for token=abebe</p>');
    expect(refused.headers['x-page-cache']).toBe('personal');
    expect(refused.headers['cache-control']).toBe('private, no-store');
    answer = async () => {
      throw new Error('the API is away');
    };
    expect((await get(base, '/about', { Cookie: 'token=abebe' })).body.toString()).toBe(
      '<p>for token=abebe</p>',
    );
    // a page that is no template (a 404, a 503): rendered for the request
    answer = async () => 'never';
    status = 404;
    expect((await get(base, '/faq', { Cookie: 'token=abebe' })).body.toString()).toBe(
      '<p>for token=abebe</p>',
    );
    expect(perRequest()).toBe(3);
  });

  it('renders a template again when the API answers it was rendered from moved', async () => {
    let clock = 0;
    let version = 1;
    const { base } = await serve({
      now: () => clock,
      checkMs: 100,
      render: async () => ({
        ...html(`TEMPLATE v${version}`),
        deps: [{ url: 'http://api/x', headers: {}, etag: `"v${version}"` }],
      }),
      current: async (deps) => deps[0].etag === `"v${version}"`,
      personalPage: async (template) => template,
    });
    expect((await get(base, '/', { Cookie: 'token=a' })).body.toString()).toContain('TEMPLATE v1');
    version = 2;
    expect((await get(base, '/', { Cookie: 'token=a' })).body.toString()).toContain('TEMPLATE v1');
    clock = 150;
    expect((await get(base, '/', { Cookie: 'token=a' })).body.toString()).toContain('TEMPLATE v2');
  });

  it("never writes a shopper's page into a stale template: a failing check renders it for the request", async () => {
    let clock = 0;
    let failing = false;
    const { base, perRequest } = await serve({
      now: () => clock,
      checkMs: 100,
      render: async () => {
        if (failing) throw new Error('the API is away');
        return html('TEMPLATE');
      },
      current: async () => {
        if (failing) throw new Error('the API is away');
        return true;
      },
      personalPage: async (template) => template,
    });
    expect((await get(base, '/', { Cookie: 'token=a' })).headers['x-page-cache']).toBe('personal-template');
    failing = true;
    clock = 150;
    const fallback = await get(base, '/', { Cookie: 'token=a' });
    expect(fallback.body.toString()).toBe('<p>for token=a</p>');
    expect(fallback.headers['x-page-cache']).toBe('personal');
    expect(perRequest()).toBe(1);
  });

  it('renders the request itself when the render for the cache fails', async () => {
    const { base, perRequest } = await serve({
      render: async () => {
        throw new Error('the build is broken');
      },
    });
    const answer = await get(base, '/about');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('<p>for nobody</p>');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(perRequest()).toBe(1);
  });

  it('marks other pages private unless they say otherwise', async () => {
    const { base } = await serve({ render: async () => html('x') });
    const cart = await get(base, '/cart');
    expect(cart.headers['cache-control']).toBe('private, no-store');
    expect(cart.headers['x-page-cache']).toBeUndefined();
  });

  it('does not keep a page answered with a cookie, an error status or a degraded render', async () => {
    const results: Rendered[] = [
      html('with cookie', 200, { 'Set-Cookie': 'x=1' }),
      html('not found', 404),
      { ...html('api down'), degraded: true },
      html('private', 200, { 'Cache-Control': 'private' }),
    ];
    let renders = 0;
    const { base, cache, perRequest } = await serve({ render: async () => results[renders++] });
    // a cookie or an error status: rendered again for the request itself (a 404 links back to its Referer)
    for (const kind of ['with cookie', 'not found']) {
      const answer = await get(base, '/faq');
      expect(answer.body.toString(), kind).toBe('<p>for nobody</p>');
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
    expect(perRequest()).toBe(2);
    // a degraded or private page: sent to the request that rendered it, never kept
    for (const expected of ['api down', 'private']) {
      const answer = await get(base, '/faq');
      expect(answer.body.toString()).toContain(expected);
      expect(answer.headers['x-page-cache']).toBe('uncached');
      expect(answer.headers.etag).toBeUndefined();
      expect(String(answer.headers['cache-control'])).toMatch(/private/);
    }
    expect(renders).toBe(4);
    expect(cache.lru.size).toBe(0);
  });

  it('after PAGE_CACHE_CHECK_MS the next request waits for one check: the same page when the API did not move, the new one when it did', async () => {
    let clock = 0;
    let version = 1;
    let renders = 0;
    let checks = 0;
    const { base, cache } = await serve({
      checkMs: 1000,
      now: () => clock,
      render: async () => {
        renders++;
        return {
          ...html(`price v${version}`),
          deps: [{ url: 'http://api/x', headers: {}, etag: `"v${version}"` }],
        };
      },
      current: async (deps) => {
        checks++;
        return deps[0].etag === `"v${version}"`;
      },
    });
    const first = await get(base, '/product/p1');
    expect(first.body.toString()).toContain('price v1');
    clock = 500;
    expect((await get(base, '/product/p1')).headers['x-page-cache']).toBe('hit');
    expect(checks).toBe(0);
    // unchanged API: one check, the same page and ETag, no render
    clock = 1500;
    const checked = await get(base, '/product/p1');
    expect(checked.headers['x-page-cache']).toBe('revalidated');
    expect(checked.headers.etag).toBe(first.headers.etag);
    expect(checks).toBe(1);
    expect((await get(base, '/product/p1')).headers['x-page-cache']).toBe('hit');
    expect(renders).toBe(1);
    // the product changed: the requests after the interval share one check and one render, and get the new page
    version = 2;
    clock = 3000;
    const fresh = await Promise.all([get(base, '/product/p1'), get(base, '/product/p1')]);
    expect(fresh.map((a) => a.body.toString().includes('price v2'))).toEqual([true, true]);
    expect(fresh[0].headers.etag).not.toBe(first.headers.etag);
    expect(renders).toBe(2);
    expect(checks).toBe(2);
    expect(cache.lru.size).toBe(1);
  });

  it('answers the kept page (stale) when the check fails, and renders again once the API answers', async () => {
    let clock = 0;
    let apiAway = false;
    let renders = 0;
    const { base } = await serve({
      checkMs: 1000,
      now: () => clock,
      render: async () => (renders++, { ...html(`render ${renders}`), degraded: apiAway }),
      current: async () => {
        if (apiAway) throw new Error('ECONNREFUSED');
        return false;
      },
    });
    await get(base, '/products');
    apiAway = true;
    clock = 1500;
    const kept = await get(base, '/products');
    expect(kept.headers['x-page-cache']).toBe('stale');
    expect(kept.body.toString()).toContain('render 1');
    apiAway = false;
    clock = 3000;
    const back = await get(base, '/products');
    expect(back.headers['x-page-cache']).toBe('revalidated');
    expect(back.body.toString()).toContain('render 3');
  });

  it('renders a page whose render read something without an ETag again at its check', async () => {
    let clock = 0;
    let renders = 0;
    const { base } = await serve({
      now: () => clock,
      render: async () => (renders++, { ...html('untracked'), tracked: false }),
      current: async () => true,
    });
    await get(base, '/shipping');
    clock = 1500;
    await get(base, '/shipping');
    await new Promise((r) => setTimeout(r, 20));
    expect(renders).toBe(2);
  });

  it('keeps no more pages than PAGE_CACHE_MAX_BYTES allows', async () => {
    const { base, cache } = await serve({ maxBytes: 40 * 1024, render: async ({ url }) => html(url) });
    for (let page = 1; page <= 20; page++) await get(base, `/products?page=${page}`);
    expect(cache.lru.bytes).toBeLessThanOrEqual(40 * 1024);
    expect(cache.lru.size).toBeGreaterThan(0);
    expect(cache.lru.size).toBeLessThan(20);
    // the last one is kept, the first was dropped
    expect((await get(base, '/products?page=20')).headers['x-page-cache']).toBe('hit');
    expect((await get(base, '/products?page=1')).headers['x-page-cache']).toBe('miss');
  });
});

describe('apiChecker', () => {
  it('asks the API with If-None-Match at most once per interval per answer, for every page', async () => {
    let clock = 0;
    const asked: (string | null)[] = [];
    let etag = '"a"';
    const fakeFetch = (async (_url: string, init: { headers: Record<string, string> }) => {
      asked.push(init.headers['If-None-Match']);
      return init.headers['If-None-Match'] === etag
        ? new Response(null, { status: 304 })
        : new Response('{}', { status: 200, headers: { etag } });
    }) as unknown as typeof fetch;
    const current = pageCache.apiChecker({ checkMs: 1000, fetch: fakeFetch, now: () => clock });
    const dep = { url: 'http://api/api/products', headers: {}, etag: '"a"' };
    expect(await Promise.all([current([dep]), current([dep]), current([dep])])).toEqual([true, true, true]);
    expect(asked).toEqual(['"a"']);
    etag = '"b"';
    expect(await current([dep])).toBe(true); // within the interval: the answer known
    clock = 1001;
    expect(await current([dep])).toBe(false);
    expect(await current([{ ...dep, etag: '"b"' }])).toBe(true);
    expect(asked).toHaveLength(2);
  });
});

describe('pageCacheConfig', () => {
  it('has safe defaults and refuses nonsense', () => {
    expect(pageCache.pageCacheConfig({})).toEqual({
      maxBytes: 64 * 1024 * 1024,
      maxEntries: 5000,
      checkMs: 250,
      personal: true,
    });
    expect(pageCache.pageCacheConfig({ PAGE_CACHE_PERSONAL: 'off' }).personal).toBe(false);
    expect(pageCache.pageCacheConfig({ PAGE_CACHE_PERSONAL: ' On ' }).personal).toBe(true);
    expect(() => pageCache.pageCacheConfig({ PAGE_CACHE_PERSONAL: 'maybe' })).toThrow(/PAGE_CACHE_PERSONAL/);
    expect(pageCache.pageCacheConfig({ PAGE_CACHE_MAX_BYTES: '0' }).maxBytes).toBe(0);
    expect(() => pageCache.pageCacheConfig({ PAGE_CACHE_MAX_BYTES: 'lots' })).toThrow(/PAGE_CACHE_MAX_BYTES/);
    expect(() => pageCache.pageCacheConfig({ PAGE_CACHE_CHECK_MS: '0' })).toThrow(/PAGE_CACHE_CHECK_MS/);
  });
});
