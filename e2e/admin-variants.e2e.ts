import type { Browser, BrowserContext, Page } from 'playwright-core';
import { translate } from '@shop/i18n';
import { apiJson, STRONG_PASSWORD, uniqueEmail } from './account-support';
import { staffPage } from './admin-support';
import { launchChromium, startStack, type Stack } from './stack';

/**
 * Issue 30.3 in the back office, in Amharic on a 390 px phone: staff add a product with two sizes, set the
 * stock of each, reorder them with the keyboard, save, reopen it as saved, and see the API's refusal of a
 * SKU another product has in Amharic (docs/product.md, "Variants").
 */
describe('back office product variants in Amharic (390 px)', () => {
  let stack: Stack;
  let browser: Browser;
  let token: string;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const unique = Date.now().toString(36).toUpperCase();
  const t = (key: string, params?: Record<string, string | number>) => translate('am', key, params);
  /** A polyglot plural ("one |||| many") in its plural form. */
  const plural = (key: string, count: number) => t(key, { smart_count: count }).split('||||').pop()!.trim();
  // react-admin's own word, as react-admin.am.ts gives it
  const SAVE = 'አስቀምጥ';
  const V = (key: string, params?: Record<string, string | number>) =>
    t(`admin.products.variants.${key}`, params);

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
    const login = await apiJson(stack, 'POST', '/auth/login', undefined, {
      email: 'admin@beauty.et',
      password: 'Admin@12345',
    });
    token = login.body.token;
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
  });

  const titles = (page: Page) =>
    page.getByTestId('variant-title').evaluateAll((els) => els.map((e) => e.textContent?.trim()));
  const field = (page: Page, name: string) => page.getByRole('dialog').locator(`[name="${name}"]`);

  it('adds a product with two sizes, reorders them, saves, reopens it as saved, and sees a SKU refusal', async () => {
    // another product already has this SKU (a variant's)
    const other = await apiJson(stack, 'POST', '/admin/products', token, {
      name: `Other shampoo ${unique}`,
      category: 'haircare',
      price: 300,
      stock: 1,
      options: [{ name: 'Size', kind: 'size', values: ['250 ml'] }],
      variants: [{ sku: `TAKEN-${unique}`, options: { Size: '250 ml' }, price: 300, stock: 1 }],
    });
    expect(other.status).toBe(201);

    const page = await staffPage(browser, stack.admin, { lang: 'am', phone: true }, contexts, pageErrors);
    const name = `Moringa serum ${unique}`;
    const nameAm = `የሞሪንጋ ሴረም ${unique}`;
    await page.goto(`${stack.admin}/admin/products`);
    await page
      .getByRole('button', { name: t('admin.products.add') })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name=name]').fill(name);
    await dialog.locator('input[name=nameAm]').fill(nameAm);
    await dialog.getByLabel(t('admin.products.category'), { exact: false }).first().click();
    await page.getByRole('option', { name: t('admin.products.categories.skincare') }).click();
    // without variants the form is as before: its own price and stock
    await dialog.getByText(V('none')).waitFor();
    await dialog.locator('input[name=price]').waitFor();

    // an option with two values, then a row for each
    await dialog.getByRole('button', { name: V('addOption') }).click();
    await field(page, 'options.0.name').fill('Size');
    await field(page, 'options.0.nameAm').fill('መጠን');
    await field(page, 'options.0.values').fill('30 ml፣ 50 ml');
    await dialog.getByRole('button', { name: plural('admin.products.variants.addCombinations', 2) }).click();
    expect(await titles(page)).toEqual(['1. 30 ml', '2. 50 ml']);
    // the product's own price and stock give way to the variants'
    expect(await dialog.locator('input[name=price]').count()).toBe(0);

    await field(page, 'variants.0.sku').fill(`SER-30-${unique}`);
    await field(page, 'variants.0.price').fill('650');
    await field(page, 'variants.0.originalPrice').fill('800');
    await field(page, 'variants.0.stock').fill('4');
    await field(page, 'variants.0.lowStockThreshold').fill('2');
    await field(page, 'variants.1.price').fill('900');
    await field(page, 'variants.1.stock').fill('7');
    expect(await field(page, 'stock-sum').inputValue()).toBe('11');

    // refused before the API is asked, in Amharic: no SKU, a compare-at price below the price
    await field(page, 'variants.1.originalPrice').fill('850');
    await dialog.getByRole('button', { name: SAVE }).click();
    await dialog.getByText(V('skuRequired')).waitFor();
    await dialog.getByText(V('compareAtBelowPrice', { price: 900 })).waitFor();
    await field(page, 'variants.1.sku').fill(`SER-50-${unique}`);
    await field(page, 'variants.1.originalPrice').fill('');

    // 50 ml first, with the keyboard: the focus stays on the moved row
    const up = dialog
      .getByTestId('variant-row')
      .nth(1)
      .getByRole('button', { name: V('moveUp') });
    await up.focus();
    await page.keyboard.press('Enter');
    expect(await titles(page)).toEqual(['1. 50 ml', '2. 30 ml']);
    expect(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return [el?.closest('[data-row]')?.getAttribute('data-row'), el?.getAttribute('data-move')];
      }),
    ).toEqual(['0', 'down']);
    for (const target of await dialog.getByTestId('variant-row').first().getByRole('button').all()) {
      const box = (await target.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
    }
    const sideways = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(sideways.scroll).toBeLessThanOrEqual(sideways.inner);

    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/admin/products')),
      dialog.getByRole('button', { name: SAVE }).click(),
    ]);
    expect(created.status()).toBe(201);
    await dialog.waitFor({ state: 'detached' });

    const found = await apiJson(
      stack,
      'GET',
      `/admin/products?filter=${encodeURIComponent(JSON.stringify({ q: name }))}`,
      token,
    );
    expect(found.body).toHaveLength(1);
    const saved = found.body[0];
    expect(saved).toMatchObject({
      stock: 11,
      price: 900,
      options: [{ name: 'Size', nameAm: 'መጠን', kind: 'size', values: ['30 ml', '50 ml'] }],
    });
    expect(
      saved.variants.map((v: Record<string, unknown>) => [v.sku, v.options, v.price, v.countInStock]),
    ).toEqual([
      [`SER-50-${unique}`, { Size: '50 ml' }, 900, 7],
      [`SER-30-${unique}`, { Size: '30 ml' }, 650, 4],
    ]);
    expect(saved.variants[1]).toMatchObject({ originalPrice: 800, lowStockThreshold: 2 });
    expect(saved.variants[0].originalPrice).toBeUndefined();

    // the list says how many variants; reopened, the form shows them as saved
    // the Amharic list names it in Amharic
    const row = page.getByText(nameAm).first();
    await row.waitFor();
    await page
      .getByTestId('variant-count')
      .filter({ hasText: plural('admin.products.variants.count', 2) })
      .first()
      .waitFor();
    await row.click();
    await dialog.getByTestId('variant-row').nth(1).waitFor();
    expect(await titles(page)).toEqual(['1. 50 ml', '2. 30 ml']);
    expect(await field(page, 'variants.0.sku').inputValue()).toBe(`SER-50-${unique}`);
    expect(await field(page, 'variants.1.stock').inputValue()).toBe('4');
    expect(await field(page, 'variants.1.originalPrice').inputValue()).toBe('800');
    expect(await field(page, 'options.0.values').inputValue()).toBe('30 ml, 50 ml');
    expect(await field(page, 'stock-sum').inputValue()).toBe('11');

    // the API refuses a SKU another product has: said in Amharic, nothing changed
    await field(page, 'variants.1.sku').fill(`TAKEN-${unique}`);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/admin/products')),
      dialog.getByRole('button', { name: SAVE }).click(),
    ]);
    expect(refused.status()).toBe(409);
    await page.getByText(t('errors.DUPLICATE_SKU')).first().waitFor();
    const after = await apiJson(stack, 'GET', `/admin/products/${saved.id}`, token);
    expect(after.body.variants.map((v: { sku: string }) => v.sku)).toEqual([
      `SER-50-${unique}`,
      `SER-30-${unique}`,
    ]);

    // a customer buys the 30 ml: the order page names the line's option and SKU
    const email = uniqueEmail('variant-buyer');
    const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Variant Buyer',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    expect(registered.status).toBe(201);
    const buyer = registered.body.token;
    const thirty = after.body.variants.find((v: { sku: string }) => v.sku === `SER-30-${unique}`);
    const added = await apiJson(stack, 'POST', '/cart/add', buyer, {
      productId: saved.id,
      variantId: thirty._id,
      quantity: 1,
    });
    expect(added.status).toBe(200);
    const placed = await apiJson(stack, 'POST', '/orders', buyer, {
      shippingAddress: {
        street: 'Bole Road 12',
        city: 'Addis Ababa',
        state: 'Addis Ababa',
        country: 'Ethiopia',
        phone: '+251911234567',
      },
      shippingMethod: 'standard',
      paymentMethod: 'chapa',
    });
    expect(placed.status).toBe(201);
    await page.goto(`${stack.admin}/admin/orders/${placed.body.order._id}/show`);
    const line = page.getByTestId('order-items').getByTestId('line-variant');
    await line.waitFor();
    expect(await line.textContent()).toContain('30 ml');
    expect(await line.textContent()).toContain(`${t('admin.orders.sku')}: SER-30-${unique}`);
    expect(pageErrors).toEqual([]);
  });
});
