import type { Page } from 'playwright-core';
import { CUSTOMER, shopHarness } from './shop-support';

/**
 * Issue 28.5: no storefront page is wider than a phone (360-430 px), in English and in Amharic: the
 * page's scrollWidth never exceeds the viewport, so nothing is cut or scrolls sideways.
 */
describe('storefront pages on phones: no sideways overflow', () => {
  const { open, api, login } = shopHarness();
  let token: string;
  let productId: string;
  let order: { _id: string; orderNumber: string };

  beforeAll(async () => {
    token = await login(CUSTOMER.email, CUSTOMER.password);
    const { products } = await api<{ products: { _id: string }[] }>('/products?limit=20&inStock=true');
    productId = products[0]._id;
    await api('/cart/clear', { method: 'DELETE', token });
    // an order of two lines (the confirmation's table), then a cart for the cart and checkout pages
    for (const p of products.slice(0, 2))
      await api('/cart/add', {
        method: 'POST',
        token,
        body: JSON.stringify({ productId: p._id, quantity: 2 }),
      });
    const placed = await api<{ order: { _id: string; orderNumber: string } }>('/orders', {
      method: 'POST',
      token,
      body: JSON.stringify({
        paymentMethod: 'cash_on_delivery',
        shippingAddress: {
          phone: '+251911234567',
          state: 'Addis Ababa',
          city: 'Addis Ababa',
          street: 'Churchill Avenue, the long building beside the post office, 4th floor',
          country: 'Ethiopia',
        },
      }),
    });
    order = placed.order;
    await api('/cart/add', { method: 'POST', token, body: JSON.stringify({ productId, quantity: 1 }) });
  });

  afterAll(async () => {
    await api('/cart/clear', { method: 'DELETE', token }).catch(() => undefined);
  });

  /** The elements that reach past the right edge of the viewport (for the failure message). */
  async function overflow(page: Page): Promise<{ scrollWidth: number; width: number; wide: string[] }> {
    return page.evaluate(() => {
      const width = window.innerWidth;
      const wide = [...document.body.querySelectorAll<HTMLElement>('*')]
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.width > 0 && box.right > width + 0.5 && getComputedStyle(el).position !== 'fixed';
        })
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${Math.round(el.getBoundingClientRect().right)}`,
        );
      return { scrollWidth: document.documentElement.scrollWidth, width, wide };
    });
  }

  describe.each(['en', 'am'] as const)('in %s', (lang) => {
    it.each([360, 390, 430])('fits %i px on every page of a walk through the shop', async (width) => {
      const viewport = { width, height: 800 };
      const signedIn = [
        '/',
        '/products',
        `/product/${productId}`,
        '/cart',
        '/checkout',
        `/order-confirmation/${order._id}`,
        '/orders',
        '/profile',
        '/profile?tab=orders',
        '/wishlist',
        '/about',
        '/faq',
        '/shipping',
        '/contact',
      ];
      const guest = ['/track-order', `/track-order?number=${order.orderNumber}`, '/signin', '/signup'];
      const problems: unknown[] = [];
      let pages = 0;
      for (const [paths, options] of [
        [signedIn, { lang, token, viewport }],
        [guest, { lang, viewport }],
      ] as const) {
        const { page, errors, close } = await open(paths[0], options);
        for (const path of paths) {
          if (path !== paths[0]) {
            const res = await page.goto(new URL(path, page.url()).href);
            expect({ path, status: res?.status() }).toEqual({ path, status: 200 });
            await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
          }
          await page.evaluate(() => document.fonts.ready);
          const seen = await overflow(page);
          pages++;
          if (seen.scrollWidth > seen.width) problems.push({ path, ...seen });
        }
        await close();
        expect(errors).toEqual([]);
      }
      expect(pages).toBe(signedIn.length + guest.length);
      expect(problems).toEqual([]);
    });
  });
});
