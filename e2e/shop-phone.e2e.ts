import { translate, type Language } from '../libs/i18n/src';
import type { Page } from 'playwright-core';
import { CUSTOMER, shopHarness } from './shop-support';

type Product = {
  _id: string;
  name: string;
  nameAm?: string;
  brand: string;
  reviewCount: number;
  category: string;
};

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** The boxes of the page's first cards (in `within`, if given). */
async function cardBoxes(page: Page, within = 'main') {
  return page.locator(`${within} article.card`).evaluateAll((cards) =>
    cards.slice(0, 8).map((c) => {
      const r = c.getBoundingClientRect();
      return { top: Math.round(r.top + window.scrollY), left: r.left, right: r.right, width: r.width };
    }),
  );
}

/** Cards whose top is the first card's top: the cards on the first row. */
const perRow = (boxes: { top: number }[]) => boxes.filter((b) => Math.abs(b.top - boxes[0].top) <= 2).length;

describe('storefront on a phone and on a desktop', () => {
  const { h, open, api, login } = shopHarness();

  describe.each([
    ['en', PHONE],
    ['am', PHONE],
    ['en', DESKTOP],
    ['am', DESKTOP],
  ] as const)('in %s at %o', (lang: Language, viewport) => {
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
    const phone = viewport.width < 600;
    const nameOf = (p: Product) => (lang === 'am' && p.nameAm ? p.nameAm : p.name);
    // an Amharic page's links keep its language in the address (docs/decisions/0092-language-in-the-address.md)
    const prefix = lang === 'am' ? '/am' : '';

    it('shows the catalogue with two cards per row on a phone (four on a desktop) and filters in a drawer on a phone', async () => {
      const haircare = await api(`/products?category=haircare&limit=1`);
      const { page, errors, close } = await open('/products', { lang, viewport });
      const boxes = await cardBoxes(page);
      expect(perRow(boxes)).toBe(phone ? 2 : 4);
      // nothing wider than the screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      const form = page.getByRole('form', { name: t('catalogue.filters') });
      const toggle = page.getByRole('button', { name: t('ui.filters'), exact: true });
      if (phone) {
        // the first screen shows products, not the filter form
        expect(boxes[0].top).toBeLessThan(viewport.height / 2);
        expect(await form.isVisible()).toBe(false);
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        await toggle.click();
        await form.waitFor({ state: 'visible' });
        const box = (await form.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
        await form.locator('select[name=category]').selectOption('haircare');
        await form.getByRole('button', { name: t('ui.showResults') }).click();
        await page.waitForURL(/category=haircare/);
        await form.waitFor({ state: 'hidden' });
      } else {
        expect(await toggle.isVisible()).toBe(false);
        await form.locator('select[name=category]').selectOption('haircare');
        await form.getByRole('button', { name: t('catalogue.apply') }).click();
        await page.waitForURL(/category=haircare/);
      }
      await page
        .getByText(
          t('catalogue.showing', {
            from: 1,
            to: Math.min(20, haircare.totalProducts),
            total: haircare.totalProducts,
          }),
        )
        .waitFor();
      await close();
      expect(errors).toEqual([]);
    });

    it('keeps the cart with its count and the search in the header without opening the menu; 44px targets', async () => {
      const token = await login(CUSTOMER.email, CUSTOMER.password);
      await api('/cart/clear', { method: 'DELETE', token });
      const { products } = await api('/products?limit=20&inStock=true');
      await api('/cart/add', {
        method: 'POST',
        token,
        body: JSON.stringify({ productId: products[0]._id, quantity: 2 }),
      });
      const { page, errors, close } = await open('/', { lang, viewport, token });
      const header = page.getByRole('banner');
      const cart = header.getByRole('link', { name: t('header.cartCount', { count: 2 }) });
      expect(await cart.isVisible()).toBe(true);
      expect(await header.getByTestId('cart-badge').textContent()).toBe('2');
      expect(await header.getByTestId('cart-badge').isVisible()).toBe(true);
      const search = header.getByRole('combobox', { name: t('header.searchLabel') });
      expect(await search.isVisible()).toBe(true);
      const nav = header.getByRole('navigation', { name: t('header.mainNav') });
      if (phone) {
        expect(await nav.isVisible()).toBe(false);
        const controls = [
          cart,
          search,
          header.getByRole('button', { name: t('header.search') }),
          header.getByRole('button', { name: t('header.menu') }),
        ];
        for (const control of controls) {
          const box = (await control.boundingBox())!;
          expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
        }
        await header.getByRole('button', { name: t('header.menu') }).click();
        await nav.waitFor({ state: 'visible' });
        // a designed menu: full-width rows at least 44px tall
        for (const link of await nav.getByRole('link').all()) {
          const box = (await link.boundingBox())!;
          expect(box.height).toBeGreaterThanOrEqual(44);
          expect(box.width).toBeGreaterThan(viewport.width * 0.8);
        }
        await header.getByRole('link', { name: t('header.wishlistCount', { count: 0 }) }).waitFor();
        // the card's controls are finger-sized too
        const card = page.locator('article.card').first();
        for (const control of [card.getByRole('button').first(), card.locator('button.add')]) {
          const box = (await control.boundingBox())!;
          expect(box.height).toBeGreaterThanOrEqual(44);
        }
      } else {
        expect(await nav.isVisible()).toBe(true);
      }
      await close();
      expect(errors).toEqual([]);
      await api('/cart/clear', { method: 'DELETE', token });
    });

    it('confirms an add to the cart with a toast announced to screen readers', async () => {
      const token = await login(CUSTOMER.email, CUSTOMER.password);
      await api('/cart/clear', { method: 'DELETE', token });
      const { page, errors, close } = await open('/products?inStock=true&sort=price_asc', {
        lang,
        viewport,
        token,
      });
      const card = page.locator('article.card').first();
      const name = await card.getByRole('heading').textContent();
      const region = page
        .locator('[role=status][aria-live=polite]')
        .filter({ has: page.getByTestId('cart-toast') });
      expect(await page.getByTestId('cart-toast').count()).toBe(0);
      await card.getByRole('button', { name: t('product.addToCart') }).click();
      await region.waitFor();
      expect(await region.textContent()).toContain(t('product.addedToCart'));
      expect(await region.textContent()).toContain(name);
      // measured where it rests, not mid-way through its slide-in animation
      await page
        .getByTestId('cart-toast')
        .evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      const box = (await page.getByTestId('cart-toast').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await page.getByRole('banner').getByTestId('cart-badge').filter({ hasText: '1' }).waitFor();
      await region.getByRole('link', { name: t('ui.viewCart') }).click();
      await page.waitForURL('**/cart');
      await close();
      expect(errors).toEqual([]);
      await api('/cart/clear', { method: 'DELETE', token });
    });

    it('shows the product gallery: the product, its texture and its key ingredients', async () => {
      const { products } = await api<{ products: Product[] }>('/products?limit=1&sort=featured');
      const product = products[0];
      const { page, errors, close } = await open(`/product/${product._id}`, { lang, viewport });
      const gallery = page.getByRole('group', { name: t('ui.gallery') });
      const main = gallery.locator('.main-image img');
      expect(await main.getAttribute('alt')).toBe(t('ui.views.product', { name: nameOf(product) }));
      const views = gallery.locator('.thumbs a');
      expect(await views.allTextContents()).toEqual(
        ['product', 'texture', 'ingredients'].map((v) => t(`ui.viewNames.${v}`)),
      );
      await views.nth(1).click();
      await page.waitForFunction(() =>
        document.querySelector('.main-image img')?.getAttribute('src')?.endsWith('-texture.svg'),
      );
      expect(await main.getAttribute('alt')).toBe(t('ui.views.texture', { name: nameOf(product) }));
      expect(await views.nth(1).getAttribute('aria-current')).toBe('true');
      await views.nth(2).click();
      await page.waitForFunction(() =>
        document.querySelector('.main-image img')?.getAttribute('src')?.endsWith('-ingredients.svg'),
      );
      // the three views are distinct images that load
      const loaded = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>('.thumbs img')).map(
          (i) => i.complete && i.naturalWidth > 0,
        ),
      );
      expect(loaded).toEqual([true, true, true]);
      await close();
      expect(errors).toEqual([]);
    });

    it("says 'No reviews yet' for a product without reviews, on its card and its page", async () => {
      const all = await api<{ products: Product[] }>('/products?limit=100');
      const product = all.products.find((p) => p.reviewCount === 0)!;
      expect(product).toBeDefined();
      const { page, errors, close } = await open(`/products?search=${encodeURIComponent(product.name)}`, {
        lang,
        viewport,
      });
      const card = page.locator('article.card', {
        has: page.locator(`a[href="${prefix}/product/${product._id}"]`),
      });
      await card.getByText(t('ui.noReviewsYet')).waitFor();
      expect(await card.textContent()).not.toMatch(/\b0\.0\b|\(0 /);
      await card.getByRole('heading').getByRole('link').click();
      await page.waitForURL(`**/product/${product._id}`);
      const rating = page.locator('.summary .rating');
      expect((await rating.textContent())?.trim()).toBe(t('ui.noReviewsYet'));
      await page.locator('#reviews').getByText(t('product.noReviews')).waitFor();
      for (const part of ['.summary', '#reviews'])
        expect(await page.locator(part).innerText()).not.toMatch(/\b0\.0\b|\(0 /);
      await close();
      expect(errors).toEqual([]);
    });

    it('shows new arrivals and best sellers on the home page, each product once', async () => {
      const newest = await api<{ products: Product[] }>('/products?limit=12&sort=newest');
      const best = await api<{ products: Product[] }>('/products?limit=12&sort=reviews');
      const { page, errors, close } = await open('/', { lang, viewport });
      const hrefs = await page
        .locator('main article.card h3 a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(new Set(hrefs).size).toBe(hrefs.length);
      for (const [title, list, link] of [
        [t('ui.newArrivals'), newest.products, '/products?sort=newest'],
        [t('ui.bestSellers'), best.products, '/products?sort=reviews'],
      ] as const) {
        const shelf = page.getByRole('region', { name: title });
        const ids = await shelf
          .locator('article.card h3 a')
          .evaluateAll((as) => as.map((a) => a.getAttribute('href')!.split('/').pop()));
        expect(ids.length).toBeGreaterThanOrEqual(1);
        expect(ids.length).toBeLessThanOrEqual(4);
        // in the API's order for that sort
        const positions = ids.map((id) => list.findIndex((p) => p._id === id));
        expect(positions.every((p) => p >= 0)).toBe(true);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
        expect(await shelf.locator(`a[href="${prefix}${link}"]`).count()).toBe(1);
        if (phone)
          expect(
            perRow(
              await cardBoxes(
                page,
                `section[aria-labelledby="${await shelf.getAttribute('aria-labelledby')}"]`,
              ),
            ),
          ).toBe(2);
      }
      // the hero shows an illustrated scene shipped with the shop
      const art = page.locator('.slide:not([hidden]) img.slide-art');
      expect(await art.getAttribute('src')).toMatch(/^\/hero\/slide-1\.svg$/);
      expect(await art.getAttribute('alt')).toBe(t('ui.heroArt.0'));
      expect(await art.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
      await close();
      expect(errors).toEqual([]);
    });
  });

  describe.each(['en', 'am'] as const)('keyboard focus on a phone (%s)', (lang) => {
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
    /** The focused element's description, and whether it lies inside `selector`. */
    const focused = (page: Page, selector: string) =>
      page.evaluate((sel) => {
        const el = document.activeElement as HTMLElement | null;
        return {
          inside: Boolean(el && el.closest(sel)),
          label: el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '',
        };
      }, selector);

    it('the open menu keeps the focus; Escape closes it and gives the focus back to its button', async () => {
      const { page, errors, close } = await open('/', { lang, viewport: PHONE });
      const toggle = page.getByRole('banner').getByRole('button', { name: t('header.menu') });
      await toggle.focus();
      await page.keyboard.press('Enter');
      // the first Tab right after opening, without waiting for a paint, already stays inside
      const trap = '#site-menu, button.menu-toggle';
      await page.keyboard.press('Tab');
      expect(await focused(page, trap)).toMatchObject({ inside: true });
      const nav = page.getByRole('navigation', { name: t('header.mainNav') });
      await nav.waitFor({ state: 'visible' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      // Tab forwards and backwards (more presses than the menu has controls) never leaves the menu and its button
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        expect(await focused(page, trap)).toMatchObject({ inside: true });
      }
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await focused(page, trap)).toMatchObject({ inside: true });
      }
      await page.keyboard.press('Escape');
      await nav.waitFor({ state: 'hidden' });
      expect(await focused(page, 'button.menu-toggle')).toEqual({ inside: true, label: t('header.menu') });
      await close();
      expect(errors).toEqual([]);
    });

    it('the open filters drawer keeps the focus; Escape closes it and gives the focus back to Filters', async () => {
      const { page, errors, close } = await open('/products', { lang, viewport: PHONE });
      const toggle = page.getByRole('button', { name: t('ui.filters'), exact: true });
      const form = page.getByRole('form', { name: t('catalogue.filters') });
      await toggle.focus();
      await page.keyboard.press('Enter');
      await form.waitFor({ state: 'visible' });
      // the drawer's close button has the focus first
      expect(await focused(page, '#filters')).toEqual({ inside: true, label: t('ui.closeFilters') });
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press('Tab');
        expect(await focused(page, '#filters')).toMatchObject({ inside: true });
      }
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await focused(page, '#filters')).toMatchObject({ inside: true });
      }
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'hidden' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await focused(page, '.filters-toggle')).toMatchObject({ inside: true });
      await close();
      expect(errors).toEqual([]);
    });
  });

  it('opens the filters drawer and applies filters without JavaScript on a phone', async () => {
    const { page, errors, close } = await open('/products', { viewport: PHONE, javaScriptEnabled: false });
    const form = page.getByRole('form', { name: 'Filter products' });
    expect(await form.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    expect(new URL(page.url()).hash).toBe('#filters');
    await form.waitFor({ state: 'visible' });
    await form.locator('select[name=category]').selectOption('fragrance');
    await form.getByRole('button', { name: 'Show results' }).click();
    await page.waitForURL(/category=fragrance/);
    expect(await form.isVisible()).toBe(false);
    // the drawer closes with its close link too
    await page.getByRole('button', { name: /^Filters/ }).click();
    await form.waitFor({ state: 'visible' });
    await page.getByRole('link', { name: 'Close filters' }).click();
    await form.waitFor({ state: 'hidden' });
    await close();
    expect(errors).toEqual([]);
  });

  // components/Deferred.tsx: cards, pagination and footer keep the server's DOM while the page hydrates
  // and are hydrated afterwards, one per task; then they work as the rest of the page does.
  it('hydrates the catalogue cards after the page, on the DOM the server sent; a late card adds to the cart and the wishlist', async () => {
    const token = await login(CUSTOMER.email, CUSTOMER.password);
    await api('/cart/clear', { method: 'DELETE', token });
    const before = await api<{ products: { product: { _id: string } }[] }>('/wishlist', { token });
    for (const item of before.products)
      await api(`/wishlist/remove/${item.product._id}`, { method: 'DELETE', token }).catch(() => undefined);
    const context = await h.browser.newContext({ viewport: PHONE });
    const host = new URL(h.stack.storefront).hostname;
    await context.addCookies([{ name: 'token', value: token, domain: host, path: '/', httpOnly: true }]);
    // every element the server sent is marked before any script runs
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        for (const el of Array.from(document.querySelectorAll('main *, footer *')))
          (el as unknown as { fromServer: boolean }).fromServer = true;
      });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined));
    await page.goto(`${h.stack.storefront}/products?inStock=true&sort=price_asc`);
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    const dom = await page.evaluate(() => {
      const all = Array.from(document.querySelectorAll('main article.card *, main nav.pages *, footer *'));
      return {
        elements: all.length,
        replaced: all.filter((el) => !(el as unknown as { fromServer?: boolean }).fromServer).length,
        // a hydrated card's form asks for a JSON answer (AddToCart adds `mode` once hydrated)
        cards: document.querySelectorAll('main article.card').length,
        hydratedForms: document.querySelectorAll('main article.card form.add-to-cart input[name=mode]')
          .length,
      };
    });
    expect(dom.elements).toBeGreaterThan(200);
    // nothing re-created but the `mode` inputs the hydrated forms add
    expect(dom.replaced).toBe(dom.hydratedForms);
    expect(dom.hydratedForms).toBe(dom.cards);
    // the last card of the grid: the last one hydrated
    const card = page.locator('main article.card').last();
    const name = (await card.getByRole('heading').textContent())!;
    const url = page.url();
    await card.getByRole('button', { name: translate('en', 'product.addToCart') }).click();
    await page.getByTestId('cart-toast').waitFor();
    expect(await page.getByTestId('cart-toast').textContent()).toContain(name);
    await page.getByRole('banner').getByTestId('cart-badge').filter({ hasText: '1' }).waitFor();
    await card.getByRole('button', { name: translate('en', 'product.addToWishlist', { name }) }).click();
    await card
      .getByRole('button', { name: translate('en', 'product.removeFromWishlist', { name }) })
      .waitFor();
    await page
      .getByRole('banner')
      .getByTestId('wishlist-badge')
      .filter({ hasText: '1' })
      .waitFor({ state: 'attached' });
    // handled in the page (fetchers), not by posting the forms
    expect(page.url()).toBe(url);
    await context.close();
    expect(errors).toEqual([]);
    await api('/cart/clear', { method: 'DELETE', token });
    const after = await api<{ products: { product: { _id: string } }[] }>('/wishlist', { token });
    for (const item of after.products)
      await api(`/wishlist/remove/${item.product._id}`, { method: 'DELETE', token }).catch(() => undefined);
  });

  it('shows the real wishlist count in the header', async () => {
    const token = await login(CUSTOMER.email, CUSTOMER.password);
    const before = await api<{ products: { product: { _id: string } }[] }>('/wishlist', { token });
    for (const item of before.products)
      await api(`/wishlist/remove/${item.product._id}`, { method: 'DELETE', token }).catch(() => undefined);
    const { products } = await api<{ products: Product[] }>('/products?limit=3');
    for (const p of products.slice(0, 2))
      await api(`/wishlist/add/${p._id}`, { method: 'POST', token, body: '{}' });
    const { page, errors, close } = await open('/', { token, viewport: DESKTOP });
    const link = page.getByRole('banner').getByRole('link', { name: 'Wishlist, 2 items' });
    expect(await link.getByTestId('wishlist-badge').textContent()).toBe('2');
    await close();
    expect(errors).toEqual([]);
    for (const p of products.slice(0, 2)) await api(`/wishlist/remove/${p._id}`, { method: 'DELETE', token });
  });

  it('puts the checkout order summary above the pay button on a phone, collapsible', async () => {
    const token = await login(CUSTOMER.email, CUSTOMER.password);
    await api('/cart/clear', { method: 'DELETE', token });
    const { products } = await api<{ products: Product[] }>('/products?limit=20&inStock=true');
    await api('/cart/add', {
      method: 'POST',
      token,
      body: JSON.stringify({ productId: products[0]._id, quantity: 1 }),
    });
    const { page, errors, close } = await open('/checkout', { token, viewport: PHONE });
    const summary = page.locator('details.checkout-summary');
    const pay = page.getByRole('button', { name: 'Pay Now' });
    const summaryBox = (await summary.boundingBox())!;
    const payBox = (await pay.boundingBox())!;
    expect(summaryBox.y + summaryBox.height).toBeLessThanOrEqual(payBox.y);
    expect(payBox.height).toBeGreaterThanOrEqual(44);
    const total = page.getByTestId('checkout-total');
    expect(await total.isVisible()).toBe(true);
    await summary.locator('summary').click();
    await total.waitFor({ state: 'hidden' });
    // the total stays in view on the summary line while folded
    expect(await summary.locator('summary').textContent()).toContain('ETB');
    await summary.locator('summary').click();
    await total.waitFor({ state: 'visible' });
    await close();
    expect(errors).toEqual([]);
    await api('/cart/clear', { method: 'DELETE', token });
  });
});
