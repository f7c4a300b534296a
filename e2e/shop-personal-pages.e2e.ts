import type { ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Browser } from 'playwright-core';
import { apiJson, launch, STRONG_PASSWORD, uniqueEmail } from './account-support';
import { ADMIN } from './shop-support';
import { firstHolds, startStack, startStorefront, type Stack } from './stack';

/**
 * A shopper's home, catalogue and static pages written into the kept template of the page
 * (apps/storefront/app/personal-page.server.ts, docs/decisions/0107-personal-pages-from-the-kept-page.md):
 * for several shoppers and pages, in both languages, the page is the same bytes as the one React renders
 * for the request (a second storefront with PAGE_CACHE_PERSONAL=off, over the same API), and in
 * Chromium at 390 px it hydrates without an error and its heart and cart work.
 */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function raw(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A customer registered through the API: its token. */
async function customer(stack: Stack, name: string): Promise<string> {
  const { status, body } = await apiJson(stack, 'POST', '/auth/register', undefined, {
    name,
    email: uniqueEmail('personal'),
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
  });
  if (status !== 201) throw new Error(`register ${name}: ${status} ${JSON.stringify(body)}`);
  return body.token;
}

describe('personal pages from the kept template', () => {
  let stack: Stack;
  let browser: Browser;
  let rendered: ChildProcess;
  let renderedUrl: string;
  let renderedLog: () => string = () => '';
  const shoppers: { who: string; cookie: string }[] = [];
  let firstPage: { _id: string; stock: number }[];
  let reviewed: string;

  beforeAll(async () => {
    stack = await startStack({ apiEnv: { AUTH_RATE_LIMIT: '1000' } });
    browser = await launch();
    // the same storefront rendering every page per request, as before: the page React gives each shopper
    const started = await startStorefront(stack, {
      // its pages name the same origin as the other's (canonical and hreflang addresses)
      STOREFRONT_URL: stack.storefront,
      PAGE_CACHE_PERSONAL: 'off',
    });
    renderedUrl = started.url;
    rendered = started.child;
    renderedLog = started.log;

    // the catalogue's first page, as the storefront lists it
    firstPage = (await apiJson(stack, 'GET', '/products?page=1&limit=20')).body.products;
    const inStock = firstPage.filter((p) => p.stock >= 10);

    const guest = await apiJson(stack, 'POST', '/cart/add', undefined, {
      productId: inStock[0]._id,
      quantity: 3,
    });
    shoppers.push({ who: 'a guest with a cart', cookie: `cart_id=${guest.body.cartId}` });

    // a name with every character a page must escape, in text and in an attribute
    const busy = await customer(stack, `Abebe <b>&amp; "Kebede" 'K'`);
    await apiJson(stack, 'POST', '/cart/add', busy, { productId: inStock[1]._id, quantity: 2 });
    await apiJson(stack, 'POST', '/cart/add', busy, { productId: inStock[2]._id, quantity: 1 });
    await apiJson(stack, 'POST', `/wishlist/add/${inStock[2]._id}`, busy, {});
    await apiJson(stack, 'POST', `/wishlist/add/${inStock[3]._id}`, busy, {});
    // two reviews on one product: this shopper's (with a comment to escape) and another's
    reviewed = inStock[2]._id;
    await apiJson(stack, 'POST', `/reviews/product/${reviewed}`, await customer(stack, 'Other Reviewer'), {
      rating: 3,
      comment: 'Fine, a little heavy.',
    });
    const review = await apiJson(stack, 'POST', `/reviews/product/${reviewed}`, busy, {
      rating: 4,
      comment: 'Soft <skin> & "glow"\nsecond line',
    });
    if (review.status !== 201) throw new Error(`review: ${review.status} ${JSON.stringify(review.body)}`);
    shoppers.push({ who: 'a customer with a cart, wishes and a review', cookie: `token=${busy}` });

    shoppers.push({
      who: 'a customer with nothing yet',
      cookie: `language=am; token=${await customer(stack, 'ሰላም ታደሰ')}`,
    });

    // more than 99 in the cart: the badge says 99+
    const many = await customer(stack, 'Many Items');
    for (const p of inStock.slice(0, 11))
      await apiJson(stack, 'POST', '/cart/add', many, { productId: p._id, quantity: 10 });
    shoppers.push({ who: 'a customer with 110 items', cookie: `token=${many}` });

    const admin = await apiJson(stack, 'POST', '/auth/login', undefined, ADMIN);
    shoppers.push({ who: 'an admin', cookie: `token=${admin.body.token}` });

    shoppers.push({ who: 'a session that is no longer valid', cookie: 'token=not-a-token' });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    rendered?.kill('SIGTERM');
    await stack?.stop();
  });

  it('gives each shopper the page React renders for them, byte for byte, in both languages', async () => {
    const pages = [
      `/product/${reviewed}`,
      `/am/product/${reviewed}`,
      `/product/${firstPage[0]._id}`,
      '/',
      '/products',
      '/products?sort=price_asc&page=2',
      '/am',
      '/am/products',
      '/about',
      '/am/faq',
      '/contact',
    ];
    for (const { who, cookie } of shoppers)
      for (const page of pages)
        for (const extra of [{}, { 'Save-Data': 'on', Referer: '/shipping' }] as Record<string, string>[]) {
          // the page the shopper came from on the same storefront ('Go back' without JavaScript)
          const headers = (base: string) => ({
            Cookie: cookie,
            ...extra,
            ...(extra.Referer ? { Referer: `${base}${extra.Referer}` } : {}),
          });
          // twice: the template rendered, then kept
          for (let round = 0; round < 2; round++) {
            const written = await raw(`${stack.storefront}${page}`, headers(stack.storefront));
            const expected = await raw(`${renderedUrl}${page}`, headers(renderedUrl));
            const what = `${who}, ${page}, ${JSON.stringify(extra)}, round ${round}`;
            expect({ what, status: written.status }).toEqual({ what, status: expected.status });
            expect({ what, cache: written.headers['x-page-cache'] }).toEqual({
              what,
              cache: 'personal-template',
            });
            expect(expected.headers['x-page-cache']).toBe('personal');
            for (const answer of [written, expected]) {
              expect(answer.headers['cache-control']).toBe('private, no-store');
              expect(answer.headers.etag).toBeUndefined();
            }
            // the same headers, but for those of the answer itself
            const kept = (h: IncomingHttpHeaders) => {
              const {
                date,
                'x-page-cache': _cache,
                'x-request-id': _id,
                'content-length': _length,
                ...rest
              } = h;
              return {
                ...rest,
                connection: undefined,
                'keep-alive': undefined,
                'transfer-encoding': undefined,
                date: typeof date,
              };
            };
            expect({ what, headers: kept(written.headers) }).toEqual({
              what,
              headers: kept(expected.headers),
            });
            if (written.body !== expected.body) {
              let at = 0;
              while (written.body[at] === expected.body[at]) at++;
              throw new Error(
                `${what}: differs at ${at}\n  written:  ${written.body.slice(at - 200, at + 200)}\n  rendered: ${expected.body.slice(at - 200, at + 200)}`,
              );
            }
          }
        }
  }, 240_000);

  it('shows each shopper their own header and cards (not the template, not another shopper)', async () => {
    const [guest, busy, , many, admin] = shoppers;
    const products = await raw(`${stack.storefront}/products`, { Cookie: busy.cookie });
    expect(products.body).toContain('Abebe &lt;b&gt;&amp;amp; &quot;Kebede&quot; &#x27;K&#x27;');
    expect(products.body).toContain('"cartCount":3');
    expect(products.body).toMatch(/class="count cart-badge"[^>]*>3</);
    expect(products.body.match(/class="heart on"/g)).toHaveLength(2);
    expect(products.body).not.toMatch(/[\uFDD0-\uFDD7]/);
    expect((await raw(`${stack.storefront}/`, { Cookie: many.cookie })).body).toMatch(
      /cart-badge"[^>]*>99\+</,
    );
    expect((await raw(`${stack.storefront}/`, { Cookie: admin.cookie })).body).toContain('/dashboard"');
    expect((await raw(`${stack.storefront}/`, { Cookie: guest.cookie })).body).toContain('"user":null');
    // the anonymous page is still the kept one, without anyone's data
    const anonymous = await raw(`${stack.storefront}/products`);
    expect(anonymous.headers['cache-control']).toMatch(/^public/);
    expect(anonymous.body).toContain('"cartCount":0');
    expect(anonymous.body).not.toContain('Abebe');
    // the product page: the shopper's own review in the edit form, their cart's line
    const product = await raw(`${stack.storefront}/product/${reviewed}`, { Cookie: busy.cookie });
    expect(product.headers['x-page-cache']).toBe('personal-template');
    expect(product.body.match(/id="edit-comment"/g)).toHaveLength(1);
    expect(product.body).toContain('Soft &lt;skin&gt; &amp; &quot;glow&quot;\nsecond line</textarea>');
    expect(product.body).toContain('class="in-cart-text"');
    const other = await raw(`${stack.storefront}/product/${reviewed}`, { Cookie: many.cookie });
    expect(other.body).toContain('id="new-comment"');
    expect(other.body).not.toContain('id="edit-comment"');
    // and the storefront that renders per request logged no error for any of these pages
    expect(renderedLog()).not.toMatch(/error/i);
  });

  it("shows a product renamed through the admin API on a shopper's catalogue within the API's hot cache TTL (2 s)", async () => {
    const [, busy] = shoppers;
    const url = `${stack.storefront}/products`;
    const product = firstPage[5];
    expect((await raw(url, { Cookie: busy.cookie })).headers['x-page-cache']).toBe('personal-template');
    const admin = await apiJson(stack, 'POST', '/auth/login', undefined, ADMIN);
    const current = await apiJson(stack, 'GET', `/admin/products/${product._id}`, admin.body.token);
    const renamed = `Renamed Template Butter ${Date.now()}`;
    const written = await apiJson(stack, 'PUT', `/admin/products/${product._id}`, admin.body.token, {
      ...current.body,
      name: renamed,
    });
    expect(written.status).toBe(200);
    const shownAfter = await firstHolds(async () =>
      (await raw(url, { Cookie: busy.cookie })).body.includes(renamed),
    );
    expect(shownAfter).toBeDefined();
    expect(shownAfter!).toBeLessThan(2000);
    // the shopper's forms are still theirs in the new template
    const after = await raw(url, { Cookie: busy.cookie });
    expect(after.headers['x-page-cache']).toBe('personal-template');
    expect(after.body).toContain('"cartCount":3');
    expect(after.body.match(/class="heart on"/g)).toHaveLength(2);
  });

  it('hydrates at 390 px without an error, and its heart, cart and review form answer', async () => {
    const token = await customer(stack, 'Hirut');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    await context.addCookies([{ name: 'token', value: token, url: stack.storefront, httpOnly: true }]);
    await apiJson(stack, 'POST', '/cart/add', token, { productId: firstPage[0]._id, quantity: 2 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    for (const lang of ['', '/am']) {
      const answer = await page.goto(`${stack.storefront}${lang}/products`);
      expect(answer!.headers()['x-page-cache']).toBe('personal-template');
      await page.waitForSelector('html[data-hydrated]');
      await expect(page.getByTestId('cart-badge').textContent()).resolves.toBe('2');
      await expect(page.locator('.in-cart').count()).resolves.toBe(1);
    }
    const heart = page.locator('.card .heart').nth(1);
    await expect(heart.getAttribute('aria-pressed')).resolves.toBe('false');
    await heart.click();
    await page.waitForSelector('.card:nth-child(2) .heart.on, .card .heart.on');
    await page.locator('.card .add').nth(1).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="cart-badge"]')?.textContent === '3',
    );
    await page.reload();
    await expect(page.locator('.card .heart.on').count()).resolves.toBe(1);
    await expect(page.getByTestId('cart-badge').textContent()).resolves.toBe('3');
    // a product page from its template: the cart's line, the review form, and both answer
    const product = await page.goto(`${stack.storefront}/am/product/${firstPage[0]._id}`);
    expect(product!.headers()['x-page-cache']).toBe('personal-template');
    await page.waitForSelector('html[data-hydrated]');
    await expect(page.locator('.in-cart-text').textContent()).resolves.toMatch(/^2 /);
    await page.locator('#new-comment').fill('ለቆዳዬ ጥሩ ነው።');
    await page.locator('#new-comment').evaluate((el) => (el as HTMLTextAreaElement).form!.requestSubmit());
    await page.waitForURL(/review=saved/);
    await page.waitForSelector('#edit-comment');
    await expect(page.locator('#edit-comment').inputValue()).resolves.toBe('ለቆዳዬ ጥሩ ነው።');
    // and the next visit, from the template again, shows the shopper's own review to edit
    await page.goto(`${stack.storefront}/am/product/${firstPage[0]._id}`);
    await page.waitForSelector('html[data-hydrated]');
    await expect(page.locator('#edit-comment').inputValue()).resolves.toBe('ለቆዳዬ ጥሩ ነው።');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
