import type { Browser, Page } from 'playwright-core';
import { launchChromium, startStack, type Stack } from './stack';

describe('the running shop in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let consoleErrors: string[];

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function open(url: string): Promise<Page> {
    consoleErrors = [];
    const page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(url);
    return page;
  }

  it('shows the featured products the API answers, and switches to Amharic', async () => {
    const featured = await (await fetch(`${stack.api}/products?limit=8&sort=featured`)).json();
    const page = await open(stack.storefront);
    await page.getByRole('heading', { name: featured.products[0].name }).waitFor();
    expect(
      await page.getByRole('region', { name: 'Featured products' }).locator('article.card').count(),
    ).toBe(8);
    await page.locator('select[name=lang]').selectOption('am');
    await page.getByRole('heading', { name: featured.products[0].nameAm }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('am');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('am');
    await page.close();
    expect(consoleErrors).toEqual([]);
  });

  it('pages through the catalogue with the spec line', async () => {
    const all = await (await fetch(`${stack.api}/products?limit=1`)).json();
    const page = await open(`${stack.storefront}/products?page=2`);
    await page.getByText(`Showing 21 - 40 of ${all.totalProducts} products`).waitFor();
    await page.close();
    expect(consoleErrors).toEqual([]);
  });

  it('asks for an admin sign-in at the back office (its screens are covered by admin-backoffice.e2e.ts)', async () => {
    const page = await open(`${stack.admin}/admin`);
    await page.locator('input[name=password]').waitFor();
    await page.close();
    expect(consoleErrors).toEqual([]);
  });
});
