import type { Page } from 'playwright-core';
import { shopHarness } from './shop-support';

// The catalogue's filter drawer on a phone (issue 31.1, docs/decisions/0091-catalogue-facets.md): brands
// with their counts among the other filters; choosing one narrows the results, with and without JavaScript.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

interface Listing {
  totalProducts: number;
  facets: { brand: { value: string; count: number }[]; category: { value: string; count: number }[] };
}

const TEXT = {
  en: {
    path: '/products',
    legend: 'Brand',
    label: (b: string, n: number) => `${b} (${n})`,
    show: 'Show results',
  },
  am: {
    path: '/am/products',
    legend: 'ብራንድ',
    label: (b: string, n: number) => `${b} (${n} ምርቶች)`,
    show: 'ውጤቶቹን አሳይ',
  },
};

describe('catalogue brands with counts (390 px)', () => {
  const { open, api } = shopHarness();

  /** The brand the drawer offers with the most products short of all of them (choosing it narrows). */
  async function narrowingBrand() {
    const all = await api<Listing>('/products?facets=category,brand&limit=1');
    const brand = all.facets.brand.find((b) => b.count > 0 && b.count < all.totalProducts);
    if (!brand) throw new Error('the seeded catalogue has no brand to narrow by');
    return { brand, total: all.totalProducts };
  }

  async function brandsOnCards(page: Page): Promise<string[]> {
    return page.locator('article.card .brand').allTextContents();
  }

  describe.each(['en', 'am'] as const)('in %s', (lang) => {
    const text = TEXT[lang];

    it('shows each brand with its count; ticking one narrows the results to it, tap targets 44 px', async () => {
      const { brand, total } = await narrowingBrand();
      const { page, errors, close } = await open(text.path, { lang, ...PHONE });
      await page.locator('.filters-toggle').click();
      const group = page.getByRole('group', { name: text.legend });
      const choice = group.getByRole('checkbox', { name: text.label(brand.value, brand.count), exact: true });
      await choice.waitFor();
      const row = group.locator('label.facet-choice', { hasText: text.label(brand.value, brand.count) });
      expect((await row.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await row.click();
      await page.waitForURL((url) => url.searchParams.getAll('brand').includes(brand.value));
      await page.waitForFunction(
        (n) => document.querySelectorAll('article.card').length === n,
        Math.min(brand.count, 20),
      );
      expect(brand.count).toBeLessThan(total);
      expect(new Set(await brandsOnCards(page))).toEqual(new Set([brand.value]));
      // the drawer stays open over the narrowed page: the other brands still show their counts (a facet
      // ignores its own filter), and this one stays ticked with the same count
      expect(
        await page.getByRole('group', { name: text.legend }).getByRole('checkbox').count(),
      ).toBeGreaterThan(1);
      expect(await choice.isChecked()).toBe(true);
      await close();
      expect(errors).toEqual([]);
    });

    it('without JavaScript the drawer is a plain form: ticking a brand and submitting narrows the results', async () => {
      const { brand } = await narrowingBrand();
      const { page, close } = await open(`${text.path}#filters`, {
        lang,
        ...PHONE,
        javaScriptEnabled: false,
      });
      const choice = page
        .getByRole('group', { name: text.legend })
        .getByRole('checkbox', { name: text.label(brand.value, brand.count), exact: true });
      await choice.check();
      await page.locator('#filters button[type=submit]').click();
      await page.waitForURL((url) => url.searchParams.getAll('brand').includes(brand.value));
      await page.locator('article.card').first().waitFor();
      expect(await page.locator('article.card').count()).toBe(Math.min(brand.count, 20));
      expect(new Set(await brandsOnCards(page))).toEqual(new Set([brand.value]));
      await close();
    });
  });
});
