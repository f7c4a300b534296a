import type { Response as PageResponse } from 'playwright-core';
import { translate } from '@shop/i18n';
import { calendarYear } from '@shop/shared';
import {
  addEthiopicCodePoints,
  badEthiopicRuns,
  ethiopicFonts,
  loadedFontFiles,
  missingGlyphs,
} from './font-check';
import { ADMIN, CUSTOMER, ETHIOPIC, shopHarness } from './shop-support';

describe('storefront layout and home page', () => {
  const { h, open, api, login } = shopHarness();

  describe.each([
    [
      'en',
      {
        home: 'Home',
        products: 'Products',
        signIn: 'Sign in',
        signUp: 'Sign up',
        hours: 'Monday to Friday, 9AM to 6PM',
        viewAll: 'View all results',
        cart: 'Cart, 0 items',
        wishlist: 'Wishlist, 0 items',
        quick: 'Quick links',
        service: 'Customer service',
        addGuest: 'Add to Cart',
        featured: 'Featured products',
      },
    ],
    [
      'am',
      {
        home: 'መነሻ',
        products: 'ምርቶች',
        signIn: 'ይግቡ',
        signUp: 'ይመዝገቡ',
        hours: 'ከሰኞ እስከ ዓርብ',
        viewAll: 'ሁሉንም ውጤቶች ይመልከቱ',
        cart: 'ጋሪ፣ 0 ዕቃዎች',
        wishlist: 'የምኞት ዝርዝር፣ 0 ዕቃዎች',
        quick: 'ፈጣን ማገናኛዎች',
        service: 'የደንበኞች አገልግሎት',
        addGuest: 'ወደ ጋሪ ጨምር',
        featured: 'ተመራጭ ምርቶች',
      },
    ],
  ] as const)('in %s', (lang, text) => {
    // an Amharic page's links keep its language in the address (docs/decisions/0092-language-in-the-address.md)
    const at = (path: string) => (lang === 'am' ? (path === '/' ? '/am/' : `/am${path}`) : path);
    it('shows the header: logo, search, Home and Products, cart and wishlist, language, Sign in and Sign up', async () => {
      const { page, errors, close } = await open('/', { lang });
      const header = page.getByRole('banner');
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      await header
        .getByRole('link', { name: lang === 'en' ? 'Addis Natural Beauty' : 'አዲስ ተፈጥሯዊ ውበት' })
        .waitFor();
      await header
        .getByRole('combobox', { name: lang === 'en' ? 'Search products' : 'ምርቶችን ይፈልጉ' })
        .waitFor();
      expect(await header.getByRole('link', { name: text.home, exact: true }).getAttribute('href')).toBe(
        at('/'),
      );
      expect(await header.getByRole('link', { name: text.products, exact: true }).getAttribute('href')).toBe(
        at('/products'),
      );
      expect(await header.getByRole('link', { name: text.cart }).getAttribute('href')).toBe(at('/cart'));
      expect(await header.getByRole('link', { name: text.wishlist }).getAttribute('href')).toBe(
        at('/wishlist'),
      );
      expect(await header.locator('select[name=lang]').inputValue()).toBe(lang);
      expect(await header.getByRole('link', { name: text.signIn }).getAttribute('href')).toMatch(
        /^(\/am)?\/signin/,
      );
      expect(await header.getByRole('link', { name: text.signUp }).getAttribute('href')).toBe(at('/signup'));
      await close();
      expect(errors).toEqual([]);
    });

    it('shows the footer: contact details, business hours, quick links, service links and the year', async () => {
      const { page, errors, close } = await open('/', { lang });
      const footer = page.getByRole('contentinfo');
      await footer.getByText(text.hours).waitFor();
      expect(await footer.getByRole('link', { name: '+251 911 000 000' }).getAttribute('href')).toBe(
        'tel:+251911000000',
      );
      expect(
        await footer.getByRole('navigation', { name: text.quick }).getByRole('link').count(),
      ).toBeGreaterThanOrEqual(4);
      const service = footer.getByRole('navigation', { name: text.service });
      for (const href of ['/faq', '/shipping'])
        expect(await service.locator(`a[href="${at(href)}"]`).count()).toBe(1);
      // the year in the page's calendar: Ethiopian in Amharic (2019 ዓ.ም. for 2026/27)
      expect(await footer.textContent()).toContain(`© ${calendarYear(new Date(), lang)}`);
      if (lang === 'am') expect(await footer.textContent()).toMatch(ETHIOPIC);
      await close();
      expect(errors).toEqual([]);
    });

    // the predictive search in detail (categories, brands, keyboard, phone, no JavaScript): search-suggestions.e2e.ts
    it('suggests up to 5 products after typing, with a link to all results; arrows and Enter open one', async () => {
      const expected = await api(`/products/suggestions?q=serum&limit=5&lang=${lang}`);
      const { page, errors, close } = await open('/', { lang });
      const box = page.getByRole('banner').locator('input[name=search]');
      await box.pressSequentially('serum', { delay: 20 });
      const options = page.getByRole('listbox').getByRole('option');
      await options.first().waitFor();
      expect(await page.locator('.suggestion.product').count()).toBe(expected.products.length);
      expect(expected.products.length).toBeGreaterThan(0);
      const first = expected.products[0];
      expect(await options.first().textContent()).toContain(first.name);
      expect(await page.getByRole('option', { name: text.viewAll }).getAttribute('href')).toBe(
        at('/products?search=serum'),
      );
      await box.press('ArrowDown');
      expect(await options.first().getAttribute('aria-selected')).toBe('true');
      await box.press('Enter');
      await page.waitForURL(`**${at(first.url)}`);
      await close();
      expect(errors).toEqual([]);
    });

    it('shows the featured products with a link to /products and the guest add-to-cart button', async () => {
      const featured = await api('/products?limit=8&sort=featured');
      const { page, errors, close } = await open('/', { lang });
      const section = page.getByRole('region', { name: text.featured });
      expect(await section.locator('article.card').count()).toBe(8);
      const first = featured.products[0];
      await section
        .getByRole('heading', { name: lang === 'am' && first.nameAm ? first.nameAm : first.name })
        .first()
        .waitFor();
      expect(await section.locator(`a[href="${at('/products')}"]`).count()).toBe(1);
      expect(await section.getByRole('button', { name: text.addGuest }).count()).toBeGreaterThan(0);
      await close();
      expect(errors).toEqual([]);
    });
  });

  it.each([
    [
      'en',
      {
        hero: 'Highlights',
        first: 'Natural beauty, made with Ethiopian ingredients',
        next: 'Next slide',
        shop: 'Shop now',
        testimonials: 'What our customers say',
        cta: 'Find your natural routine',
      },
    ],
    [
      'am',
      {
        hero: 'ዋና ዋና ነገሮች',
        first: 'በኢትዮጵያ ግብዓቶች የተሰራ ተፈጥሯዊ ውበት',
        next: 'ቀጣይ ስላይድ',
        shop: 'አሁን ይግዙ',
        testimonials: 'ደንበኞቻችን የሚሉት',
        cta: 'ተፈጥሯዊ የውበት ልምድዎን ያግኙ',
      },
    ],
  ] as const)(
    'shows the home sections in %s: slider, testimonials and call-to-action band',
    async (lang, text) => {
      const { page, errors, close } = await open('/', { lang });
      const prefix = lang === 'am' ? '/am' : '';
      const slider = page.getByRole('region', { name: text.hero });
      await slider.getByRole('heading', { level: 1, name: text.first }).waitFor();
      expect(await slider.getByRole('link', { name: text.shop }).getAttribute('href')).toBe(`${prefix}/shop`);
      await slider.getByRole('button', { name: text.next }).waitFor();
      expect(await slider.locator('.progress-bar').count()).toBe(1);
      await page.getByRole('region', { name: text.testimonials }).getByTestId('testimonial').waitFor();
      const cta = page.getByRole('region', { name: text.cta });
      expect(await cta.locator(`a[href="${prefix}/products"]`).count()).toBe(1);
      if (lang === 'am') expect(await cta.textContent()).toMatch(ETHIOPIC);
      await close();
      expect(errors).toEqual([]);
    },
  );

  it('switches language with the selector, keeps it in localStorage and the cookie, and restores it from localStorage', async () => {
    const scripts: Promise<string>[] = [];
    const fetched: string[] = [];
    const { page, context, errors, close } = await open('/about');
    // reloaded with listeners: the page's scripts, and what it fetches later
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    // the scripts of the reload only: a body is not readable once the page has navigated on
    let html: Promise<string> | undefined;
    const texts: PageResponse[] = [];
    const readScript = (r: PageResponse) => {
      if (r.request().resourceType() === 'script') scripts.push(r.text());
      if (r.request().resourceType() === 'document') html = r.text();
      if (new URL(r.url()).pathname.startsWith('/i18n/')) texts.push(r);
    };
    page.on('response', readScript);
    await page.reload();
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await page.getByRole('heading', { name: 'About us' }).waitFor();
    // Neither the JavaScript nor the page carries the dictionary (docs/decisions/0104): the page's texts
    // are fetched once beside its scripts, at a versioned address kept a year. No text of another page
    // in the HTML, no Amharic text of the shop and no back-office text in the scripts.
    expect(await html).not.toContain(translate('en', 'errors.maintenanceTitle'));
    expect(texts.map((r) => new URL(r.url()).pathname)).toEqual(['/i18n/en']);
    expect(new URL(texts[0].url()).searchParams.get('v')).toMatch(/^[0-9a-f]{12}$/);
    expect(await texts[0].headerValue('cache-control')).toBe('public, max-age=31536000, immutable');
    // every script of the reload read before the page navigates on (a body read after that is gone)
    await page.waitForLoadState('networkidle');
    page.off('response', readScript);
    const code = (await Promise.all(scripts)).join('\n');
    expect(code.length).toBeGreaterThan(100_000);
    for (const text of [
      translate('am', 'nav.home'),
      translate('am', 'static.about.title'),
      translate('en', 'admin.menu.audit'),
    ])
      expect(code).not.toContain(text);
    await page.locator('select[name=lang]').selectOption('am');
    await page.getByRole('heading', { name: 'ስለ እኛ' }).waitFor();
    // the Amharic texts were fetched once, after the switch
    expect(fetched.filter((p) => p === '/i18n/am')).toHaveLength(1);
    // the same page in Amharic, at its Amharic address (docs/decisions/0092-language-in-the-address.md)
    expect(new URL(page.url()).pathname).toBe('/am/about');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('am');
    expect((await context.cookies()).find((c) => c.name === 'language')?.value).toBe('am');
    // the cookie is lost, localStorage still says am: an English address comes back in Amharic, at its twin
    await context.clearCookies();
    await page.goto(page.url().replace('/am/about', '/about'));
    await page.waitForURL('**/am/about');
    await page.getByRole('heading', { name: 'ስለ እኛ' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('am');
    await close();
    expect(errors).toEqual([]);
  });

  it("draws the selector's አማርኛ on English pages from a tiny subset, and Amharic pages from the 11 KB Amharic cut", async () => {
    for (const lang of ['en', 'am'] as const) {
      const { page, errors, close } = await open('/', { lang, viewport: { width: 1366, height: 900 } });
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      const fontFiles = await loadedFontFiles(page);
      // the faces of the page that cover 'አ' (U+12A0), and whether they were loaded
      const faces = await page.evaluate(() =>
        [...document.fonts]
          .filter((f) => f.family.includes('Noto Sans Ethiopic') && /U\+12A0|U\+1200-/.test(f.unicodeRange))
          .map((f) => ({ range: f.unicodeRange, weight: f.weight, status: f.status })),
      );
      // the package's whole Ethiopic face (75 KB per weight) is never loaded
      expect(fontFiles.filter((f) => f.includes('ethiopic-ethiopic'))).toEqual([]);
      // Amharic pages preload both cuts (their first layout is done with them: docs/decisions/0089);
      // English pages preload no Ethiopic cut
      const preloaded = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')]
          .map((l) => /\/(amharic-[47]00)-[\w-]+\.woff2$/.exec(l.href)?.[1])
          .filter(Boolean),
      );
      expect(preloaded).toEqual(lang === 'am' ? ['amharic-400', 'amharic-700'] : []);
      if (lang === 'en') {
        // the Amharic cut is declared (for Ethiopic text on an English page) but not downloaded: the page
        // shows no Ethiopic but the switch's name, drawn from its own tiny face
        // (the cut's range: Amharic's syllables from U+1200 on; the rest of the block has a face of its
        // own, docs/decisions/0100-save-data-and-page-weight.md)
        expect(faces).toEqual([
          { range: expect.stringMatching(/^U\+1200-/), weight: '400', status: 'unloaded' },
          { range: expect.stringMatching(/^U\+1200-/), weight: '700', status: 'unloaded' },
          { range: 'U+121B, U+122D, U+129B, U+12A0', weight: '400', status: 'loaded' },
        ]);
        expect(fontFiles.filter((f) => /\/amharic-[47]00-[\w-]+\.woff2$/.test(f))).toEqual([]);
      } else {
        expect(fontFiles.some((f) => /\/amharic-400-[\w-]+\.woff2$/.test(f))).toBe(true);
        expect(faces.map((f) => f.range)).toEqual([
          expect.stringMatching(/^U\+1200-/),
          expect.stringMatching(/^U\+1200-/),
        ]);
        // the rest of the Ethiopic block (no Amharic syllable) is not downloaded for Amharic text
        expect(fontFiles.filter((f) => /\/amharic-rest-/.test(f))).toEqual([]);
        expect(faces.filter((f) => f.status === 'loaded').map((f) => f.weight)).toContain('400');
      }
      await close();
      expect(errors).toEqual([]);
    }
  });

  it('draws every Ethiopic text of Amharic pages (regular and bold) with the Amharic cut, which has its glyphs', async () => {
    const { products } = await api<{ products: { _id: string }[] }>('/products?limit=1');
    const shown = new Set<number>();
    const served = new Map<string, Buffer>();
    for (const path of ['/', '/products', `/product/${products[0]._id}`, '/cart', '/signin']) {
      const { page, errors, close } = await open(path, { lang: 'am', viewport: { width: 390, height: 844 } });
      await page.waitForLoadState('networkidle');
      addEthiopicCodePoints(await page.evaluate(() => document.body.innerText), shown);
      for (const url of await loadedFontFiles(page))
        if (/\/amharic-[47]00-[\w-]+\.woff2$/.test(url) && !served.has(url))
          served.set(url, Buffer.from(await (await fetch(url)).arrayBuffer()));
      // the browser's own answer: every run in a font of the page's font stack (not a button's Arial)
      const uses = await ethiopicFonts(page);
      expect(uses.length).toBeGreaterThan(5);
      expect({ path, bad: badEthiopicRuns(uses) }).toEqual({ path, bad: [] });
      // bold runs too (headings, buttons, prices)
      if (path === '/') expect(uses.some((u) => /^(600|700) /.test(u.css))).toBe(true);
      await close();
      expect(errors).toEqual([]);
    }
    // both weights were loaded, and each has a glyph for every Ethiopic character the pages showed (a
    // missing one is drawn as an empty box: Chromium still reports the page's font for it)
    expect(served.size).toBe(2);
    expect(shown.size).toBeGreaterThan(100);
    for (const [url, woff2] of served)
      expect({ url, missing: missingGlyphs(woff2, shown) }).toEqual({ url, missing: [] });
  });

  it('on a small screen keeps the search and the cart in the header and folds the rest into a menu', async () => {
    const { page, errors, close } = await open('/', { viewport: { width: 390, height: 800 } });
    const toggle = page.getByRole('button', { name: 'Menu' });
    const header = page.getByRole('banner');
    const search = header.locator('input[name=search]');
    const nav = header.getByRole('navigation', { name: 'Main' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await search.isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Cart, 0 items' }).isVisible()).toBe(true);
    expect(await nav.isVisible()).toBe(false);
    await toggle.click();
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    await nav.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    await close();
    expect(errors).toEqual([]);
  });

  it('runs the hero slider: 4 slides, next/previous, dots, keyboard, auto-advance every 6 s, paused on hover', async () => {
    const { page, errors, close } = await open('/');
    await page.clock.install();
    await page.reload();
    // the reloaded page hydrates again: a click before that would reach no handler
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    const slider = page.getByRole('region', { name: 'Highlights' });
    const dots = slider.getByRole('button', { name: /Go to slide/ });
    expect(await dots.count()).toBe(4);
    const visibleTitle = () => slider.locator('.slide:not([hidden]) :is(h1,h2)').textContent();
    expect(await visibleTitle()).toBe('Natural beauty, made with Ethiopian ingredients');
    expect(await slider.locator('.slide:not([hidden]) a').getAttribute('href')).toBe('/shop');
    await slider.getByRole('button', { name: 'Next slide' }).click();
    expect(await visibleTitle()).toBe('Glow with moringa and coffee');
    expect(await dots.nth(1).getAttribute('aria-current')).toBe('true');
    await slider.getByRole('button', { name: 'Previous slide' }).click();
    expect(await visibleTitle()).toBe('Natural beauty, made with Ethiopian ingredients');
    await dots.nth(3).click();
    expect(await visibleTitle()).toBe('Free shipping over ETB 1,000');
    await page.keyboard.press('ArrowRight');
    expect(await visibleTitle()).toBe('Natural beauty, made with Ethiopian ingredients');
    // hovered (and focused): no auto-advance
    await slider.hover();
    await page.clock.runFor(13000);
    expect(await visibleTitle()).toBe('Natural beauty, made with Ethiopian ingredients');
    expect(await slider.getAttribute('data-paused')).toBe('true');
    // away from it (and nothing in it focused), it advances every 6 s
    await page.locator('h2#featured-title').click();
    // let React apply the un-pause (its scheduler runs on the installed fake clock too)
    for (let i = 0; i < 40 && (await slider.getAttribute('data-paused')) !== 'false'; i++)
      await page.clock.runFor(25);
    expect(await slider.getAttribute('data-paused')).toBe('false');
    await page.clock.runFor(6100);
    expect(await visibleTitle()).toBe('Glow with moringa and coffee');
    await page.clock.runFor(6100);
    expect(await visibleTitle()).toBe('Hair that loves black seed oil');
    await close();
    expect(errors).toEqual([]);
  });

  it('keeps the slider still for users who prefer reduced motion', async () => {
    const { page, errors, close } = await open('/', { reducedMotion: 'reduce' });
    await page.clock.install();
    await page.reload();
    // the reloaded page hydrates again: a click before that would reach no handler
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    const slider = page.getByRole('region', { name: 'Highlights' });
    // the preference is read once the page has hydrated; give it that moment before time runs on
    for (let i = 0; i < 80 && (await slider.getAttribute('data-paused')) !== 'true'; i++)
      await page.clock.runFor(25);
    await page.clock.runFor(20000);
    expect(await slider.getAttribute('data-paused')).toBe('true');
    expect(await slider.locator('.slide:not([hidden]) h1').textContent()).toBe(
      'Natural beauty, made with Ethiopian ingredients',
    );
    await close();
    expect(errors).toEqual([]);
  });

  it('rotates testimonials from the recent reviews, with arrows and dots, and shows the call-to-action band', async () => {
    const recent = await api('/reviews/recent?limit=6');
    const { page, errors, close } = await open('/');
    await page.clock.install();
    await page.reload();
    // the reloaded page hydrates again: a click before that would reach no handler
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    const section = page.getByRole('region', { name: 'What our customers say' });
    const quote = section.getByTestId('testimonial');
    expect(await quote.textContent()).toContain(recent.reviews[0].comment);
    expect(await section.getByRole('button', { name: /Go to testimonial/ }).count()).toBe(
      recent.reviews.length,
    );
    await section.getByRole('button', { name: 'Next testimonial' }).click();
    expect(await quote.textContent()).toContain(recent.reviews[1].comment);
    // paused while pointer or focus is on it; it rotates again once both have left
    await page.locator('h2#featured-title').click();
    for (let i = 0; i < 40 && (await section.getAttribute('data-paused')) !== 'false'; i++)
      await page.clock.runFor(25);
    expect(await section.getAttribute('data-paused')).toBe('false');
    await page.clock.runFor(6100);
    expect(await quote.textContent()).toContain(recent.reviews[2 % recent.reviews.length].comment);
    const cta = page.getByRole('region', { name: 'Find your natural routine' });
    expect(await cta.getByRole('link', { name: 'Browse all products' }).getAttribute('href')).toBe(
      '/products',
    );
    await close();
    expect(errors).toEqual([]);
  });

  it('shows a signed-in customer the cart count, the N-in-cart badge, the user menu and adds to the cart from a card', async () => {
    const token = await login(CUSTOMER.email, CUSTOMER.password);
    await api('/cart/clear', { method: 'DELETE', token });
    const featured = await api('/products?limit=8&sort=featured');
    const inStock = featured.products.filter((p: { stock: number }) => p.stock > 3);
    await api('/cart/add', {
      method: 'POST',
      token,
      body: JSON.stringify({ productId: inStock[0]._id, quantity: 3 }),
    });
    const { page, errors, close } = await open('/', { token });
    const header = page.getByRole('banner');
    expect(await header.getByTestId('cart-badge').textContent()).toBe('3');
    const card = page.locator('article.card', { has: page.locator(`a[href="/product/${inStock[0]._id}"]`) });
    await card.getByText('3 in cart').waitFor();
    await header.locator('summary').click();
    await header.getByRole('link', { name: 'Profile' }).waitFor();
    expect(await header.getByRole('link', { name: 'Admin Panel' }).count()).toBe(0);
    await header.getByRole('button', { name: 'Logout' }).waitFor();

    const other = page.locator('article.card', { has: page.locator(`a[href="/product/${inStock[1]._id}"]`) });
    await other.getByRole('button', { name: 'Increase quantity' }).click();
    expect(await other.getByRole('spinbutton').inputValue()).toBe('2');
    await other.getByRole('button', { name: 'Add to Cart' }).click();
    // the confirmation is a toast (a polite live region) naming the product
    const toast = page.getByRole('status').filter({ has: page.getByTestId('cart-toast') });
    await toast.getByText('Added to Cart!').waitFor();
    expect(await toast.textContent()).toContain(inStock[1].name);
    await header.getByTestId('cart-badge').filter({ hasText: '5' }).waitFor();
    await other.getByText('2 in cart').waitFor();
    await close();
    expect(errors).toEqual([]);
    await api('/cart/clear', { method: 'DELETE', token });
  });

  it('offers admins the Admin Panel link to the back office dashboard', async () => {
    const token = await login(ADMIN.email, ADMIN.password);
    const { page, errors, close } = await open('/', { token });
    await page.getByRole('banner').locator('summary').click();
    expect(await page.getByRole('link', { name: 'Admin Panel' }).getAttribute('href')).toMatch(
      /\/admin\/dashboard$/,
    );
    await close();
    expect(errors).toEqual([]);
    void h;
  });
});
