import type { Page } from 'playwright-core';
import { seriousViolations, shopHarness } from './shop-support';

// The header's predictive search (issue 31.2) on a phone, in both languages: what it shows, the keyboard,
// the screen reader's status, and the plain search page without JavaScript.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

interface Answer {
  products: { _id: string; name: string; url: string; highlight: [number, number][] }[];
  categories: { slug: string }[];
  brands: { name: string }[];
}

const TEXT = {
  en: {
    // an exact prefix of seeded names ('Moringa Glow Serum', 'Moringa Night Cream', ...)
    typed: 'morin',
    count: (n: number) => (n === 1 ? '1 suggestion' : `${n} suggestions`),
    viewAll: 'View all results',
    resultsFor: (q: string) => `Results for “${q}”`,
  },
  am: {
    // 'የሞሪንጋ ብርሃን ሴረም', 'የሞሪንጋ የማታ ክሬም', ...
    typed: 'ሞሪን',
    count: (n: number) => (n === 1 ? '1 ጥቆማ' : `${n} ጥቆማዎች`),
    viewAll: 'ሁሉንም ውጤቶች ይመልከቱ',
    resultsFor: (q: string) => `የ“${q}” ውጤቶች`,
  },
};

describe('predictive search in the header (390 px)', () => {
  const { open, api } = shopHarness();

  const suggestionsOf = (q: string, lang: string) =>
    api<Answer>(`/products/suggestions?q=${encodeURIComponent(q)}&limit=5&lang=${lang}`);

  async function typeInBox(page: Page, text: string) {
    const box = page.getByRole('banner').getByRole('combobox', { name: /./ });
    await box.pressSequentially(text, { delay: 40 });
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    return box;
  }

  it("finds what the shopper means: 'bunna' suggests Buna Beauty's products and the brand", async () => {
    const expected = await suggestionsOf('bunna', 'en');
    const { page, errors, close } = await open('/', { lang: 'en', ...PHONE });
    await typeInBox(page, 'bunna');
    await page.waitForFunction(
      (n) => document.querySelectorAll('.suggestion.product').length === n,
      expected.products.length,
    );
    const names = await page.locator('.suggestion.product .suggestion-name').allTextContents();
    expect(names).toEqual(expected.products.map((p) => p.name));
    expect(names).toContain('Buna Matte Lipstick');
    const brand = page.getByRole('group', { name: 'Brands' }).getByRole('option', { name: /Buna Beauty/ });
    expect(await brand.getAttribute('href')).toBe('/products?search=Buna+Beauty');
    await close();
    expect(errors).toEqual([]);
  });

  describe.each(['en', 'am'] as const)('in %s', (lang) => {
    const text = TEXT[lang];
    // an Amharic page's links keep its language in the address (docs/decisions/0092-language-in-the-address.md)
    const prefix = lang === 'am' ? '/am' : '';

    it('shows products with the typed part marked, then categories, brands and view all, over the page', async () => {
      const expected = await suggestionsOf(text.typed, lang);
      expect(expected.products.length).toBeGreaterThan(1);
      const { page, errors, close } = await open('/', { lang, ...PHONE });
      const mainTop = () => page.locator('main').evaluate((m) => m.getBoundingClientRect().top);
      const before = await mainTop();
      await typeInBox(page, text.typed);
      const listbox = page.getByRole('listbox');
      const products = listbox.locator('.suggestion.product');
      await page.waitForFunction(
        (n) => document.querySelectorAll('.suggestion.product').length === n,
        expected.products.length,
      );
      // in the API's order, each name in the page's language with the matched part in <mark>
      for (const [i, p] of expected.products.entries()) {
        const option = products.nth(i);
        expect(await option.getAttribute('href')).toBe(`${prefix}${p.url}`);
        expect(await option.locator('.suggestion-name').textContent()).toBe(p.name);
        expect(await option.locator('mark').allTextContents()).toEqual(
          p.highlight.map(([s, e]) => p.name.slice(s, e)),
        );
        expect(await option.textContent()).toMatch(lang === 'en' ? /ETB [\d,]+\.\d\d \+ VAT/ : /ብር/);
        const img = option.locator('img');
        if (await img.count()) {
          expect(await img.getAttribute('loading')).toBe('lazy');
          expect(await img.getAttribute('width')).toBe('44');
        }
      }
      const marked = (await products.first().locator('mark').allTextContents()).join('');
      expect(marked.toLowerCase()).toContain(text.typed);
      // every option is reachable by the keyboard: products, categories, brands, then 'view all'
      const options = listbox.getByRole('option');
      const count = expected.products.length + expected.categories.length + expected.brands.length;
      expect(await options.count()).toBe(count + 1);
      expect(await options.last().textContent()).toBe(text.viewAll);
      expect(await options.last().getAttribute('href')).toBe(
        `${prefix}/products?search=${encodeURIComponent(text.typed)}`,
      );
      for (const href of await listbox
        .locator('.suggestion.link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
        expect(href).toMatch(new RegExp(`^${prefix}/products\\?(category|search)=`));
      // the polite status counts them for a screen reader
      await page
        .getByRole('status')
        .filter({ hasText: text.count(count) })
        .waitFor();
      // a phone: the list spans the screen under the header, its options are 44 px targets, and the page
      // under it has not moved
      const list = await page.locator('.suggestions').boundingBox();
      const header = await page.locator('.header-bar').boundingBox();
      expect(list!.x).toBeLessThanOrEqual(0.5);
      expect(list!.width).toBeGreaterThanOrEqual(389);
      expect(list!.y).toBeGreaterThanOrEqual(header!.y + header!.height - 1);
      for (const height of await options.evaluateAll((els) =>
        els.map((e) => e.getBoundingClientRect().height),
      ))
        expect(height).toBeGreaterThanOrEqual(44);
      expect(await mainTop()).toBe(before);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
      // a tap on a category opens the catalogue filtered by it
      expect(expected.categories.length).toBeGreaterThan(0);
      const category = listbox.locator('.suggestion.link').first();
      const href = (await category.getAttribute('href'))!;
      await category.tap();
      await page.waitForURL(`**${href}`);
      const slug = new URLSearchParams(href.split('?')[1]).get('category');
      expect(await page.locator('select[name=category]').inputValue()).toBe(slug);
      await close();
      expect(errors).toEqual([]);
    });

    it('moves through every option with the arrow keys, Enter opens the active product, Escape closes', async () => {
      const expected = await suggestionsOf(text.typed, lang);
      const { page, errors, close } = await open('/', { lang, ...PHONE });
      const box = await typeInBox(page, text.typed);
      const options = page.getByRole('listbox').getByRole('option');
      const total = expected.products.length + expected.categories.length + expected.brands.length + 1;
      await page.waitForFunction((n) => document.querySelectorAll('[role=option]').length === n, total);
      const activeText = () =>
        page.evaluate(() => {
          const id = document.activeElement?.getAttribute('aria-activedescendant');
          return id ? document.getElementById(id)?.textContent : null;
        });
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      for (let i = 0; i < total; i++) {
        await box.press('ArrowDown');
        expect(await options.nth(i).getAttribute('aria-selected')).toBe('true');
        expect(await activeText()).toBe(await options.nth(i).textContent());
      }
      // the last is 'view all'; ArrowDown stays there, ArrowUp goes back
      await box.press('ArrowDown');
      expect(await activeText()).toBe(text.viewAll);
      await box.press('ArrowUp');
      expect(await options.nth(total - 2).getAttribute('aria-selected')).toBe('true');
      // Escape closes the list and keeps the text; ArrowDown opens it again
      await box.press('Escape');
      await page.locator('.suggestions').waitFor({ state: 'hidden' });
      expect(await box.getAttribute('aria-expanded')).toBe('false');
      expect(await box.inputValue()).toBe(text.typed);
      await box.press('ArrowDown');
      await page.locator('.suggestions').waitFor({ state: 'visible' });
      // the focus never left the field; Enter on the first product opens it
      await box.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-search-input');
      await box.press('Enter');
      await page.waitForURL(`**${expected.products[0].url}`);
      await page.getByRole('heading', { level: 1, name: expected.products[0].name }).waitFor();
      await close();
      expect(errors).toEqual([]);
    });

    it('Enter on the typed text opens the search page with its results', async () => {
      const expected = await suggestionsOf(text.typed, lang);
      const { page, errors, close } = await open('/', { lang, ...PHONE });
      const box = await typeInBox(page, text.typed);
      await box.press('Enter');
      await page.waitForURL(`**/products?search=${encodeURIComponent(text.typed)}`);
      await page.getByRole('heading', { level: 1, name: text.resultsFor(text.typed) }).waitFor();
      await page.locator('article.card h3', { hasText: expected.products[0].name }).first().waitFor();
      expect(await page.locator('.suggestions').isVisible()).toBe(false);
      await close();
      expect(errors).toEqual([]);
    });

    it('without JavaScript the header search submits to the search page, which shows the results', async () => {
      const expected = await suggestionsOf(text.typed, lang);
      const { page, close } = await open('/', { lang, ...PHONE, javaScriptEnabled: false });
      const box = page.getByRole('banner').locator('input[name=search]');
      await box.fill(text.typed);
      await box.press('Enter');
      await page.waitForURL(`**/products?search=${encodeURIComponent(text.typed)}`);
      await page.getByRole('heading', { level: 1, name: text.resultsFor(text.typed) }).waitFor();
      const names = await page.locator('article.card h3').allTextContents();
      for (const p of expected.products) expect(names).toContain(p.name);
      // no list without JavaScript
      expect(await page.locator('.suggestions').isVisible()).toBe(false);
      await close();
    });
  });
});
