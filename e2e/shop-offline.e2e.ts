import type { BrowserContext, Page } from 'playwright-core';
import { translate } from '@shop/i18n';
import { productInStock } from './account-support';
import { badEthiopicRuns, ethiopicFonts } from './font-check';
import { CUSTOMER, shopHarness } from './shop-support';

/**
 * The storefront as an installable, offline-tolerant app (docs/decisions/0094-pwa.md), at 390 px in
 * Chromium with the network switched off (`context.setOffline`): the manifest and service worker, a seen
 * product readable offline, the shop's offline page (en, am) for one not seen, an 'Add to cart' made
 * offline reaching the server's cart once after reconnecting with its notice, and nothing personal kept
 * for after sign-out.
 */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe('storefront offline (PWA)', () => {
  const { h, open, login } = shopHarness();

  /** Waits until the page is controlled by the active service worker. */
  async function controlled(page: Page, context: BrowserContext): Promise<void> {
    await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', null, {
      timeout: 20_000,
    });
    expect(context.serviceWorkers().map((w) => new URL(w.url()).pathname)).toContain('/sw.js');
  }

  /** Waits until the service worker kept this address in its pages' cache. */
  async function kept(page: Page, pathname: string): Promise<void> {
    await page.waitForFunction(
      async (p) => {
        const cache = await caches.open('shop-pages-v1');
        return (await cache.keys()).some((r) => new URL(r.url).pathname === p);
      },
      pathname,
      { timeout: 15_000 },
    );
  }

  it('serves the manifests, icons and /sw.js (no-cache), and every page links its language’s manifest', async () => {
    const base = h.stack.storefront;
    const sw = await fetch(`${base}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    const source = await sw.text();
    // the precache list was put in (no placeholder left), with the offline pages
    expect(source).not.toContain('__WB_MANIFEST');
    expect(source).toContain('"/am/offline"');
    for (const [pathname, lang, name] of [
      ['/manifest.webmanifest', 'en', 'Addis Natural Beauty'],
      ['/am/manifest.webmanifest', 'am', 'አዲስ ተፈጥሯዊ ውበት'],
    ]) {
      const res = await fetch(base + pathname);
      expect(res.headers.get('content-type')).toMatch(/application\/manifest\+json/);
      const manifest = await res.json();
      expect(manifest).toMatchObject({ lang, name, display: 'standalone', theme_color: '#3f6b2c' });
      const maskable = manifest.icons.filter((i: { purpose: string }) => i.purpose === 'maskable');
      expect(maskable.map((i: { sizes: string }) => i.sizes).sort()).toEqual(['192x192', '512x512']);
      for (const icon of manifest.icons) {
        const png = await fetch(base + icon.src);
        expect(png.headers.get('content-type')).toBe('image/png');
        const bytes = Buffer.from(await png.arrayBuffer());
        expect(bytes.readUInt32BE(16)).toBe(Number(icon.sizes.split('x')[0])); // PNG width
      }
    }
    for (const lang of ['en', 'am'] as const) {
      const { page, close } = await open('/', { lang, ...PHONE });
      expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe(
        lang === 'am' ? '/am/manifest.webmanifest' : '/manifest.webmanifest',
      );
      expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#3f6b2c');
      await close();
    }
  });

  it('keeps a seen product readable offline and shows the offline page for one not seen (en and am)', async () => {
    const seen = await productInStock(h.stack, 1, 0);
    const unseen = await productInStock(h.stack, 1, 1);
    for (const lang of ['en', 'am'] as const) {
      const { page, context, errors, close } = await open(`/product/${seen._id}`, { lang, ...PHONE });
      // the language's address (Amharic pages under /am/, docs/decisions/0092; with a cookie before)
      const here = new URL(page.url()).pathname;
      const prefix = here.startsWith('/am/') ? '/am' : '';
      await controlled(page, context);
      await kept(page, here);
      const title = (await page.locator('h1').first().textContent())?.trim();
      expect(title).toBeTruthy();

      // a phone short of storage empties the browser's HTTP cache first: what is read offline is the worker's
      await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
      await context.setOffline(true);
      await page.goto(`${h.stack.storefront}${here}`);
      expect((await page.locator('h1').first().textContent())?.trim()).toBe(title);
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      // the kept copy has its texts (not the dictionary's keys)
      expect(await page.locator('form.add-to-cart button[type="submit"]').first().textContent()).toContain(
        translate(lang, 'product.addToCart'),
      );
      // and it hydrates offline: its texts (fetched apart from the page, docs/decisions/0104) were kept too
      await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 10_000 });

      await page.goto(`${h.stack.storefront}${prefix}/product/${unseen._id}`);
      await page.getByTestId('offline-title').waitFor();
      expect(await page.getByTestId('offline-title').textContent()).toBe(
        translate(lang, 'pwa.offline.title'),
      );
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      // 'Try again' reloads the address asked for; the home link is in the page's language
      expect(
        await page.getByRole('link', { name: translate(lang, 'pwa.offline.retry') }).getAttribute('href'),
      ).toBe('');
      if (lang === 'am') {
        // its Ethiopic text in the shop's own font, precached (this machine has no Ethiopic system font:
        // without it every letter is an empty box)
        const uses = await ethiopicFonts(page);
        expect(uses.length).toBeGreaterThan(2);
        expect(badEthiopicRuns(uses)).toEqual([]);
      }
      await context.setOffline(false);
      // offline, the requests the page makes on its own (the service worker's update check) fail
      expect(errors.filter((e) => !/net::ERR_|Failed to fetch/.test(e))).toEqual([]);
      await close();
    }
  });

  it("queues an 'Add to cart' tapped offline and adds it once when the connection returns, with notices", async () => {
    const product = await productInStock(h.stack, 3, 2);
    const { page, context, close } = await open(`/product/${product._id}`, { lang: 'en', ...PHONE });
    await controlled(page, context);
    await kept(page, `/product/${product._id}`);

    await context.setOffline(true);
    await page.locator('form.add-to-cart button[type="submit"]').first().click();
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="pwa-notice"]')?.textContent?.includes(text),
      translate('en', 'pwa.queued.cart'),
    );

    await context.setOffline(false);
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="pwa-notice"]')?.textContent?.includes(text),
      translate('en', 'pwa.sent.cart', { count: 1 }),
      { timeout: 20_000 },
    );
    // the server's cart has it, once (the queue is empty: asking it to send again sends nothing)
    await page.evaluate(() => navigator.serviceWorker.controller?.postMessage({ type: 'shop-flush' }));
    const cart = await page.evaluate(async () => {
      const res = await fetch('/cart?_data=routes%2Fcart');
      return res.json();
    });
    const line = cart.cart.products.find((l: { product: { _id: string } }) => l.product._id === product._id);
    expect(line?.quantity).toBe(1);
    const waiting = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('shop-offline');
          open.onsuccess = () => {
            const req = open.result.transaction('taps').objectStore('taps').count();
            req.onsuccess = () => resolve(req.result);
          };
        }),
    );
    expect(waiting).toBe(0);
    await page.goto(`${h.stack.storefront}/cart`);
    await page.getByText(product.name).first().waitFor();
    await close();
  });

  it("keeps the checkout form's typed values across a dropped connection, never the payment choice, and forgets them once ordered", async () => {
    const product = await productInStock(h.stack, 3, 3);
    const { page, context, close } = await open(`/product/${product._id}`, { lang: 'en', ...PHONE });
    await controlled(page, context);
    await page.locator('form.add-to-cart button[type="submit"]').first().click();
    await page.getByText(translate('en', 'product.addedToCart')).first().waitFor();
    await page.goto(`${h.stack.storefront}/checkout`);
    await page.getByTestId('continue-as-guest').click();
    await page.waitForURL(/\/checkout\?guest=1$/);
    await page.locator('input[name=name]').fill('Almaz Bekele');
    await page.locator('input[name=phone]').fill('0911 29 00 02');
    await page.locator('select[name=state]').selectOption('Addis Ababa');
    await page.locator('input[name=city]').fill('Addis Ababa');
    await page.locator('input[name=street]').fill('Bole Road 14');
    await page.getByLabel(translate('en', 'checkout.payOnDelivery')).check();

    // the connection drops and the page is reloaded: the shop's offline page, then the form again
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('offline-title').waitFor();
    await context.setOffline(false);
    await page.reload();
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await page.waitForFunction(
      () => (document.querySelector('input[name=street]') as HTMLInputElement)?.value === 'Bole Road 14',
    );
    expect(await page.locator('input[name=name]').inputValue()).toBe('Almaz Bekele');
    expect(await page.locator('input[name=phone]').inputValue()).toBe('0911 29 00 02');
    expect(await page.locator('select[name=state]').inputValue()).toBe('Addis Ababa');
    expect(await page.locator('input[name=city]').inputValue()).toBe('Addis Ababa');
    const keptNames = await page.evaluate(() =>
      Object.keys(sessionStorage).filter((k) => k.startsWith('shop-checkout:')),
    );
    expect(keptNames.sort()).toEqual([
      'shop-checkout:city',
      'shop-checkout:name',
      'shop-checkout:phone',
      'shop-checkout:state',
      'shop-checkout:street',
    ]);
    expect(await page.getByLabel(translate('en', 'checkout.payOnDelivery')).isChecked()).toBe(false);

    await page.getByLabel(translate('en', 'checkout.payOnDelivery')).check();
    await page.getByRole('button', { name: translate('en', 'checkout.placeOrder') }).click();
    await page.waitForURL(/\/order-confirmation\/[a-f0-9]{24}$/);
    await page.waitForFunction(
      () => !Object.keys(sessionStorage).some((k) => k.startsWith('shop-checkout:')),
    );
    await close();
  });

  it('keeps nothing personal: after sign-out an account page is not served from the cache offline', async () => {
    const token = await login(CUSTOMER.email, CUSTOMER.password);
    const product = await productInStock(h.stack, 1, 0);
    const { page, context, close } = await open('/orders', { lang: 'en', token, ...PHONE });
    await controlled(page, context);
    await page.goto(`${h.stack.storefront}/product/${product._id}`);
    await page.goto(`${h.stack.storefront}/orders`);
    await page.waitForTimeout(500);
    // signed in, every page is `private, no-store`: none kept, and no kept page names the shopper
    const keptTexts = await page.evaluate(async () => {
      const cache = await caches.open('shop-pages-v1');
      const texts: string[] = [];
      for (const request of await cache.keys())
        texts.push((await (await cache.match(request))!.text()) ?? '');
      return texts;
    });
    expect(keptTexts.filter((t) => t.includes(CUSTOMER.email))).toEqual([]);

    await page.evaluate(() => fetch('/logout', { method: 'POST' }));
    await context.setOffline(true);
    await page.goto(`${h.stack.storefront}/orders`);
    await page.getByTestId('offline-title').waitFor();
    expect(await page.content()).not.toContain(CUSTOMER.email);
    await page.goto(`${h.stack.storefront}/product/${product._id}`);
    expect(await page.content()).not.toContain(CUSTOMER.email);
    await context.setOffline(false);
    await close();
  });
});
