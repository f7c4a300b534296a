import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { apiJson, launch, productInStock, session, STRONG_PASSWORD, uniqueEmail } from './account-support';
import { ADMIN } from './shop-support';
import { firstHolds, startStack, type Stack } from './stack';

/**
 * The storefront's page cache over the whole stack (docs/decisions/0087-page-cache.md): anonymous
 * pages kept compressed with strong ETags and a public Cache-Control, personal pages rendered per
 * request and `private, no-store`, and a product written through the admin API shown on its page
 * within the API's HOT_CACHE_TTL_MS (2 s by default).
 */
const HOT_CACHE_TTL_MS = 2000;
const PUBLIC = 'public, max-age=0, s-maxage=60, stale-while-revalidate=300';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A raw request (no decoding by the client): the bytes and headers exactly as the storefront sent them. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
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

const text = (a: Answer) =>
  (a.headers['content-encoding'] === 'br' ? brotliDecompressSync(a.body) : a.body).toString('utf8');

describe('storefront page cache', () => {
  let stack: Stack;
  let browser: Browser;
  let product: { _id: string; name: string };

  beforeAll(async () => {
    stack = await startStack({
      apiEnv: { AUTH_RATE_LIMIT: '1000', HOT_CACHE_TTL_MS: String(HOT_CACHE_TTL_MS) },
    });
    browser = await launch();
    product = await productInStock(stack, 3);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('answers anonymous home, catalogue and product pages from the cache: brotli, strong ETag, public, 304', async () => {
    for (const path of ['/', '/products?category=skin-care&utm_source=sms', `/product/${product._id}`]) {
      const url = `${stack.storefront}${path}`;
      const first = await raw(url, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(first.status).toBe(200);
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers['cache-control']).toBe(PUBLIC);
      expect(first.headers.vary).toBe('Accept-Encoding, Cookie, Save-Data');
      expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{20,}-br"$/);
      expect(text(first)).toContain('<!DOCTYPE html>');
      expect(text(first)).not.toContain('utm_source');

      const second = await raw(url, { 'Accept-Encoding': 'br' });
      expect(['hit', 'revalidated']).toContain(second.headers['x-page-cache']);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.body.equals(first.body)).toBe(true);

      const revalidated = await raw(url, { 'Accept-Encoding': 'br', 'If-None-Match': first.headers.etag! });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);

      const plain = await raw(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString('utf8')).toBe(text(first));
      expect(plain.headers.etag).toBe(first.headers.etag!.replace('-br"', '"'));

      const head = await raw(url, { 'Accept-Encoding': 'br' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(Number(head.headers['content-length'])).toBe(first.body.length);
    }
    // the language is in the address (docs/decisions/0092): the Amharic catalogue is its own page, kept too
    const amharic = await raw(`${stack.storefront}/am/products?category=skin-care`);
    expect(amharic.body.toString('utf8')).toContain('<html lang="am"');
    expect(amharic.headers['cache-control']).toBe(PUBLIC);
    expect(amharic.headers.etag).not.toBe(
      (await raw(`${stack.storefront}/products?category=skin-care`)).headers.etag,
    );
    // a person whose cookie says Amharic is sent to it from the English address, and that answer is kept by nobody
    const remembered = await raw(`${stack.storefront}/products?category=skin-care`, {
      Cookie: 'language=am',
      Accept: 'text/html',
      'User-Agent':
        'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
    });
    expect(remembered.status).toBe(302);
    expect(remembered.headers.location).toBe('/am/products?category=skin-care');
    expect(remembered.headers['cache-control']).toBe('private, no-store');
  });

  it('answers a signed-in shopper’s and a guest cart’s pages privately, each their own (from the page’s template), and never shows them to anyone else', async () => {
    const names = ['Tsion Cachecheck', 'Dawit Cachecheck'];
    const tokens: string[] = [];
    for (const name of names) {
      const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
        name,
        email: uniqueEmail('page-cache'),
        password: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
      });
      expect(registered.status).toBe(201);
      tokens.push(registered.body.token);
      expect(
        (
          await apiJson(stack, 'POST', '/cart/add', registered.body.token, {
            productId: product._id,
            quantity: 2,
          })
        ).status,
      ).toBe(200);
    }
    const guest = await apiJson(stack, 'POST', '/cart/add', undefined, {
      productId: product._id,
      quantity: 3,
    });
    const cartId: string = guest.body.cartId;
    expect(cartId).toMatch(/^[a-f0-9]{32}$/);

    const pages = ['/', '/products', `/product/${product._id}`, '/about'];
    for (const path of pages) {
      const url = `${stack.storefront}${path}`;
      // each shopper their own page, twice (no copy of the first served to the second)
      for (let round = 0; round < 2; round++)
        for (const [i, token] of tokens.entries()) {
          const mine = await raw(url, { Cookie: `language=en; token=${token}`, 'Accept-Encoding': 'br' });
          expect(mine.status).toBe(200);
          expect(mine.headers['cache-control']).toBe('private, no-store');
          expect(mine.headers.etag).toBeUndefined();
          // written into the page's kept template (docs/decisions/0107)
          expect(mine.headers['x-page-cache']).toBe('personal-template');
          const html = text(mine);
          expect(html).toContain(names[i]);
          expect(html).not.toContain(names[1 - i]);
          expect(html).toContain('"cartCount":2');
        }
      const guestPage = await raw(url, { Cookie: `cart_id=${cartId}` });
      expect(guestPage.headers['cache-control']).toBe('private, no-store');
      expect(guestPage.body.toString('utf8')).toContain('"cartCount":3');
      // and the anonymous page (kept) has none of it
      for (const cookie of [undefined, 'language=en']) {
        const anonymous = await raw(url, cookie ? { Cookie: cookie } : {});
        expect(anonymous.headers['cache-control']).toBe(PUBLIC);
        const html = anonymous.body.toString('utf8');
        for (const name of names) expect(html).not.toContain(name);
        expect(html).toContain('"cartCount":0');
        expect(html).toContain('"user":null');
      }
    }
    // a flash message in the address is for one visitor
    const flash = await raw(`${stack.storefront}/product/${product._id}?added=1`);
    expect(flash.headers['cache-control']).toBe('private, no-store');
  });

  it('shows a product renamed through the admin API on its page within HOT_CACHE_TTL_MS', async () => {
    const url = `${stack.storefront}/product/${product._id}`;
    await raw(url);
    // kept: answered from the cache (checked again if PAGE_CACHE_CHECK_MS passed on a slow machine)
    expect(['hit', 'revalidated']).toContain((await raw(url)).headers['x-page-cache']);
    const admin = await apiJson(stack, 'POST', '/auth/login', undefined, ADMIN);
    const token: string = admin.body.token;
    const current = await apiJson(stack, 'GET', `/admin/products/${product._id}`, token);
    const renamed = `Renamed Cache Butter ${Date.now()}`;
    const written = await apiJson(stack, 'PUT', `/admin/products/${product._id}`, token, {
      ...current.body,
      name: renamed,
    });
    expect(written.status).toBe(200);
    const shownAfter = await firstHolds(async () => (await raw(url)).body.toString('utf8').includes(renamed));
    expect(shownAfter).toBeDefined();
    expect(shownAfter!).toBeLessThan(HOT_CACHE_TTL_MS);
    // and kept again: the next request is a hit with the new name
    const after = await raw(url);
    expect(after.body.toString('utf8')).toContain(renamed);
    expect(['hit', 'revalidated']).toContain(after.headers['x-page-cache']);
  });

  it('a kept page hydrates in the browser and a guest adds to the cart from it, with and without JavaScript', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const s = await session(browser, stack, 'en', javaScriptEnabled);
      const url = `${stack.storefront}/product/${product._id}`;
      await raw(url); // kept before this visitor comes
      const answer = await s.page.goto(url);
      expect(answer!.headers()['cache-control']).toBe(PUBLIC);
      if (javaScriptEnabled) await s.page.waitForSelector('html[data-hydrated]');
      await s.page.getByRole('button', { name: 'Add to Cart' }).click();
      await s.page.getByText('Added to Cart!').first().waitFor();
      await s.page.getByRole('banner').getByTestId('cart-badge').filter({ hasText: '1' }).waitFor();
      // now a guest with a cart: the pages are rendered for this visitor, with the cart's count
      expect((await s.context.cookies(stack.storefront)).some((c) => c.name === 'cart_id')).toBe(true);
      const home = await s.page.goto(`${stack.storefront}/`);
      expect(home!.headers()['cache-control']).toBe('private, no-store');
      await s.page.getByRole('banner').getByTestId('cart-badge').filter({ hasText: '1' }).waitFor();
      await s.context.close();
      expect(s.errors).toEqual([]);
    }
  });
});
