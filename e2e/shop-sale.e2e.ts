import type { Browser, BrowserContext } from 'playwright-core';
import { formatMoney } from '@shop/shared';
import { translate } from '@shop/i18n';
import { staffPage } from './admin-support';
import { apiJson, launch, session } from './account-support';
import { startStack, type Stack } from './stack';

/**
 * Issue 30.1 in Chromium at 390 px, in Amharic: staff create a sale in the back office (times typed on
 * the shop's clock), and a customer sees the sale price with the regular one struck through and the
 * sale's name and end on the product page (docs/decisions/0095).
 */
describe('a scheduled sale, created by staff and seen by a customer (390 px, am)', () => {
  let stack: Stack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const PHONE = { width: 390, height: 844 };
  const am = (key: string, params?: Record<string, string | number>) => translate('am', key, params);
  /** `datetime-local` text of an instant on the shop's clock (Addis Ababa, UTC+3 all year). */
  const shopLocal = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 16);

  beforeAll(async () => {
    stack = await startStack({ apiEnv: { AUTH_RATE_LIMIT: '1000' } });
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await stack?.stop();
  });

  it('staff create it in Amharic; the product page shows it struck through with its name and end', async () => {
    // a makeup product without a compare-at price or variants (the seed's order moves as it grows)
    const { body } = await apiJson(stack, 'GET', '/products?category=makeup&limit=50');
    const product = (
      body.products as {
        _id: string;
        price: number;
        name: string;
        promotion?: unknown;
        originalPrice?: number;
        variants?: unknown;
      }[]
    ).find((p) => !p.originalPrice && !p.variants)!;
    expect(product.promotion).toBeUndefined();

    const page = await staffPage(browser, stack.admin, { lang: 'am', phone: true }, contexts, pageErrors);
    await page.goto(`${stack.admin}/admin/promotions/create`);
    await page.locator('input[name="name.en"]').fill('Makeup days');
    await page.locator('input[name="name.am"]').fill('የሜካፕ ቀናት');
    await page.getByLabel(am('admin.promotions.kind')).click();
    await page.getByRole('option', { name: am('admin.promotions.percent') }).click();
    await page.locator('input[name=value]').fill('25');
    await page.getByLabel(am('admin.promotions.categories')).click();
    await page.getByRole('option', { name: 'ሜካፕ' }).click();
    await page.keyboard.press('Escape');
    const now = Date.now();
    await page.locator('input[name=startsAt]').fill(shopLocal(now - 3_600_000));
    await page.locator('input[name=endsAt]').fill(shopLocal(now + 2 * 86_400_000));
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/admin\/promotions$/);
    await page.getByText('የሜካፕ ቀናት').first().waitFor();
    await page.getByText(am('admin.promotions.status.running')).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    const now25 = Math.round(product.price * 75) / 100;
    const sold = await apiJson(stack, 'GET', `/products/${product._id}`);
    expect(sold.body).toMatchObject({
      price: now25,
      compareAtPrice: product.price,
      promotion: { name: { am: 'የሜካፕ ቀናት' } },
    });

    const s = await session(browser, stack, 'am');
    contexts.push(s.context);
    await s.page.setViewportSize(PHONE);
    await s.page.goto(`${stack.storefront}/am/product/${product._id}`);
    const price = s.page.locator('main .price').first();
    await price.waitFor();
    expect(await price.locator('strong').textContent()).toBe(formatMoney(now25, 'ETB', 'am'));
    expect(await price.locator('s').textContent()).toContain(formatMoney(product.price, 'ETB', 'am'));
    const until = (await price.getByTestId('sale-until').textContent()) ?? '';
    expect(until).toContain('የሜካፕ ቀናት');
    expect(until).toContain('እስከ');
    expect(until).not.toMatch(/[A-Za-z]/);
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    // in the cart too: the sale price, the regular one struck through, the sale's name and end
    await Promise.all([
      s.page.waitForResponse((r) => r.url().includes('cart/add') && r.request().method() === 'POST'),
      s.page.locator('main form[action*="cart/add"] button[type=submit]').first().click(),
    ]);
    await s.page.goto(`${stack.storefront}/am/cart`);
    const line = s.page.getByTestId('cart-line').first();
    await line.waitFor();
    expect(await line.locator('s').textContent()).toContain(formatMoney(product.price, 'ETB', 'am'));
    expect(await line.getByTestId('sale-until').textContent()).toBe(until);
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    expect(s.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
