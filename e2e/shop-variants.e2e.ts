import type { Browser, Page } from 'playwright-core';
import { formatMoney } from '@shop/shared';
import { translate } from '@shop/i18n';
import { accountSuite, apiJson, fillAddress, session, signedInCustomer } from './account-support';
import type { Stack } from './stack';

/**
 * Issue 30.3 in Chromium at 390 px, in English and in Amharic: a customer picks a shade of a lipstick
 * (one shade sold out: refused), sees the chosen shade's sale price, adds two shades (two cart lines
 * naming their shade), applies a code, sees the discount, and pays through the test Chapa page; the
 * order's pages name each line's shade. Without JavaScript a size is chosen by its link (?variant=)
 * and added. The products, the sale and the codes are made through the admin API here.
 */
describe('product variants in the shop (390 px, en and am)', () => {
  let stack: Stack;
  let browser: Browser;
  let adminToken: string;
  const PHONE = { width: 390, height: 844 };
  let serial = 0;

  accountSuite(
    (started, chromium, admin) => {
      stack = started;
      browser = chromium;
      adminToken = admin;
    },
    { dataDirPrefix: 'shop-variants-' },
  );

  interface VariantView {
    _id: string;
    sku: string;
    options: Record<string, string>;
    price: number;
    countInStock: number;
  }

  /** A seeded photo's API path (a product's images are written as API paths). */
  async function seededImage(): Promise<string> {
    const { body } = await apiJson(stack, 'GET', '/products?category=makeup&limit=1');
    return new URL(body.products[0].images[0]).pathname;
  }

  async function createProduct(
    body: Record<string, unknown>,
  ): Promise<{ _id: string; variants: VariantView[] }> {
    const created = await apiJson(stack, 'POST', '/products', adminToken, body);
    if (created.status !== 201) throw new Error(`product: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.product;
  }

  const waitHydrated = (page: Page) => page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  const noOverflow = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  for (const lang of ['en', 'am'] as const) {
    it(`${lang}: picks a shade, a sold-out one is refused, two shades, a code and a sale, then pays`, async () => {
      const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
      const base = `${stack.storefront}${lang === 'am' ? '/am' : ''}`;
      const tag = `${lang.toUpperCase()}${Date.now().toString(36).toUpperCase()}${++serial}`;
      const product = await createProduct({
        name: `Velvet Lipstick ${tag}`,
        nameAm: `ቬልቬት የከንፈር ቀለም ${tag}`,
        brand: 'Habesha Naturals',
        category: 'makeup',
        images: [await seededImage()],
        options: [{ name: 'Shade', nameAm: 'ቀለም', kind: 'shade', values: ['Coffee', 'Berry', 'Rose'] }],
        variants: [
          { sku: `LIP-${tag}-C`, options: { Shade: 'Coffee' }, price: 300, stock: 5, swatch: '#6f4e37' },
          { sku: `LIP-${tag}-B`, options: { Shade: 'Berry' }, price: 400, stock: 5, swatch: '#8e2045' },
          { sku: `LIP-${tag}-R`, options: { Shade: 'Rose' }, price: 350, stock: 0, swatch: '#d8a48f' },
        ],
      });
      const [coffee, berry, rose] = product.variants;
      // a running sale of 10% on this product (every variant), and a code of 10%
      const sale = await apiJson(stack, 'POST', '/admin/promotions', adminToken, {
        name: { en: 'Lip week', am: 'የከንፈር ሳምንት' },
        kind: 'percent',
        value: 10,
        productIds: [product._id],
        startsAt: new Date(Date.now() - 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      });
      expect(sale.status).toBe(201);
      const code = `LIP${tag}`.slice(0, 20);
      const coupon = await apiJson(stack, 'POST', '/admin/coupons', adminToken, {
        code,
        kind: 'percent',
        value: 10,
      });
      expect(coupon.status).toBe(201);

      const s = await session(browser, stack, lang);
      await s.page.setViewportSize(PHONE);
      const { token } = await signedInCustomer(stack, s, `variants-${lang}`);
      const { page } = s;
      await page.goto(`${base}/product/${product._id}`);
      await waitHydrated(page);

      // the default variant (the first in stock) is chosen, at its sale price with the regular one struck
      const picker = page.getByTestId('variant-picker');
      await picker.waitFor();
      const group = picker.getByRole('radiogroup', {
        name: t('product.chooseOption', { option: lang === 'am' ? 'ቀለም' : 'Shade' }),
      });
      expect(await group.getByRole('radio').count()).toBe(3);
      expect(await picker.getByTestId('chosen-value').textContent()).toBe('Coffee');
      expect(await picker.textContent()).toContain(lang === 'am' ? 'ቀለም' : 'Shade');
      const price = page.locator('main .summary > .price');
      expect(await price.locator('strong').textContent()).toBe(formatMoney(270, 'ETB', lang));
      expect(await price.locator('s').textContent()).toContain(formatMoney(300, 'ETB', lang));
      expect(await group.getByRole('radio', { name: /Coffee/ }).getAttribute('aria-checked')).toBe('true');
      // swatches are 44 px targets
      const box = await group.getByRole('radio', { name: /Berry/ }).boundingBox();
      expect(box && box.width >= 44 && box.height >= 44).toBe(true);
      // the description's place in the page (not in the window: a click scrolls the choice into view)
      const descriptionTop = () =>
        page.locator('main .description').evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      const before = await descriptionTop();

      // the sold-out shade: marked, chosen it says so and cannot be added
      const roseRadio = group.getByRole('radio', { name: `Rose (${t('product.soldOutVariant')})` });
      await roseRadio.click();
      await page.waitForURL(new RegExp(`\\?variant=${rose._id}$`));
      expect(await page.getByTestId('stock-text').textContent()).toBe(t('product.soldOutVariant'));
      expect(await page.getByTestId('variant-sold-out').getByRole('button').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: t('product.addToCart') }).count()).toBe(0);
      // switching does not move the page (room kept for the price and the add row)
      expect(await descriptionTop()).toBe(before);

      // Berry: its own price on sale, added; then Coffee, added: two lines
      await group.getByRole('radio', { name: 'Berry' }).click();
      await page.waitForURL(new RegExp(`\\?variant=${berry._id}$`));
      expect(await price.locator('strong').textContent()).toBe(formatMoney(360, 'ETB', lang));
      expect(await price.getByTestId('sale-until').textContent()).toContain(
        lang === 'am' ? 'የከንፈር ሳምንት' : 'Lip week',
      );
      expect(await descriptionTop()).toBe(before);
      await page.getByRole('button', { name: t('product.addToCart') }).click();
      await page.getByRole('button', { name: t('product.added') }).waitFor();
      await group.getByRole('radio', { name: 'Coffee' }).click();
      await page.waitForURL(new RegExp(`\\?variant=${coffee._id}$`));
      await page.getByRole('button', { name: t('product.addToCart') }).click();
      await page.getByRole('button', { name: t('product.added') }).waitFor();
      await noOverflow(page);
      const cart = await apiJson(stack, 'GET', '/cart', token);
      expect(
        cart.body.products
          .map((l: { variantId?: string; quantity: number }) => [l.variantId, l.quantity])
          .sort(),
      ).toEqual(
        [
          [berry._id, 1],
          [coffee._id, 1],
        ].sort(),
      );

      // the cart names each line's shade, at its price; the code takes 10% off
      await page.goto(`${base}/cart`);
      await waitHydrated(page);
      const shadeWord = lang === 'am' ? 'ቀለም' : 'Shade';
      const lineWords = await page.getByTestId('line-variant').allTextContents();
      expect(lineWords.sort()).toEqual([`${shadeWord}: Berry`, `${shadeWord}: Coffee`]);
      expect(await page.getByTestId('summary-subtotal').textContent()).toMatch(/630[.,]00/);
      await page.getByLabel(t('cart.couponLabel')).fill(code.toLowerCase());
      await page.getByRole('button', { name: t('cart.couponApply') }).click();
      await page.getByText(t('cart.couponApplied', { code })).waitFor();
      expect(await page.getByTestId('summary-discount').textContent()).toMatch(/63[.,]00/);
      await noOverflow(page);

      // checkout, then the test Chapa page
      await page.goto(`${base}/checkout`);
      await waitHydrated(page);
      expect(await page.getByTestId('summary-discount').textContent()).toMatch(/63[.,]00/);
      expect((await page.getByTestId('line-variant').allTextContents()).sort()).toEqual([
        `${shadeWord}: Berry`,
        `${shadeWord}: Coffee`,
      ]);
      await fillAddress(page);
      await page.getByRole('button', { name: t('checkout.payNow') }).click();
      await page.waitForURL(/\/payment\/test\//);
      await page.getByRole('button', { name: t('payment.testComplete') }).click();
      await page.waitForURL(new RegExp(`${lang === 'am' ? '/am' : ''}/order-confirmation/[a-f0-9]{24}$`), {
        timeout: 15000,
      });
      await page.getByTestId('order-thanks').waitFor();
      const orderId = page.url().split('/order-confirmation/')[1];
      // the order's snapshot names the shades (its English option names, the usual ones said in Amharic)
      expect((await page.getByTestId('line-variant').allTextContents()).sort()).toEqual([
        `${shadeWord}: Berry`,
        `${shadeWord}: Coffee`,
      ]);
      const order = await apiJson(stack, 'GET', `/orders/${orderId}`, token);
      const placed = order.body.order ?? order.body;
      expect(placed.couponCode).toBe(code);
      expect(
        placed.orderItems
          .map(
            (i: {
              variantId: string;
              sku: string;
              variantOptions: Record<string, string>;
              priceAtPurchase: number;
            }) => [i.variantId, i.sku, i.variantOptions.Shade, i.priceAtPurchase],
          )
          .sort(),
      ).toEqual(
        [
          [berry._id, berry.sku, 'Berry', 360],
          [coffee._id, coffee.sku, 'Coffee', 270],
        ].sort(),
      );
      await page.goto(`${base}/orders`);
      await page.locator(`[data-order-id="${orderId}"]`).waitFor();
      expect(
        (
          await page.locator(`[data-order-id="${orderId}"]`).getByTestId('line-variant').allTextContents()
        ).sort(),
      ).toEqual([`${shadeWord}: Berry`, `${shadeWord}: Coffee`]);
      await noOverflow(page);
      expect(s.errors).toEqual([]);
      await s.context.close();
    });
  }

  it('without JavaScript: a size is chosen by its link and added to the cart', async () => {
    const t = (key: string) => translate('en', key);
    const tag = `NOJS${Date.now().toString(36).toUpperCase()}`;
    const product = await createProduct({
      name: `Moringa Serum ${tag}`,
      brand: 'Habesha Naturals',
      category: 'skincare',
      images: [await seededImage()],
      options: [{ name: 'Size', nameAm: 'መጠን', kind: 'size', values: ['30 ml', '50 ml'] }],
      variants: [
        { sku: `SER-${tag}-30`, options: { Size: '30 ml' }, price: 450, stock: 3 },
        { sku: `SER-${tag}-50`, options: { Size: '50 ml' }, price: 650, stock: 3 },
      ],
    });
    const fifty = product.variants[1];
    const s = await session(browser, stack, 'en', false);
    await s.page.setViewportSize(PHONE);
    const { token } = await signedInCustomer(stack, s, 'variants-nojs');
    const { page } = s;
    await page.goto(`${stack.storefront}/product/${product._id}`);
    expect(await page.getByTestId('chosen-value').textContent()).toBe('30 ml');
    const size50 = page.getByRole('radio', { name: '50 ml' });
    const box = await size50.boundingBox();
    expect(box && box.height >= 44 && box.width >= 44).toBe(true);
    await size50.click();
    await page.waitForURL(new RegExp(`\\?variant=${fifty._id}$`));
    expect(await page.getByTestId('chosen-value').textContent()).toBe('50 ml');
    expect(await page.locator('main .summary > .price strong').textContent()).toBe(
      formatMoney(650, 'ETB', 'en'),
    );
    expect(await page.getByRole('radio', { name: '50 ml' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('button', { name: t('product.addToCart') }).click();
    await page.waitForURL(/added=1/);
    // back on the same variant's page
    expect(page.url()).toContain(`variant=${fifty._id}`);
    const cart = await apiJson(stack, 'GET', '/cart', token);
    expect(cart.body.products.map((l: { variantId?: string }) => l.variantId)).toEqual([fifty._id]);
    await page.goto(`${stack.storefront}/cart`);
    expect(await page.getByTestId('line-variant').textContent()).toBe('Size: 50 ml');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
