import type { Browser } from 'playwright-core';
import { translate } from '@shop/i18n';
import {
  accountSuite,
  apiJson,
  fillAddress,
  productInStock,
  session,
  signedInCustomer,
} from './account-support';
import type { Stack } from './stack';

/**
 * Issue 30.2 in Chromium at 390 px (en): a customer applies a coupon code in the cart (typed in
 * lower case), sees the discount line in the cart and at checkout, places the order and finds the
 * discount on the confirmation; an unknown code is refused in words (docs/decisions/0096-coupon-codes.md).
 */
describe('coupon code through to the order (390 px)', () => {
  let stack: Stack;
  let browser: Browser;
  let adminToken: string;
  const PHONE = { width: 390, height: 844 };
  const t = (key: string, params?: Record<string, string | number>) => translate('en', key, params);

  accountSuite(
    (started, chromium, admin) => {
      stack = started;
      browser = chromium;
      adminToken = admin;
    },
    { dataDirPrefix: 'shop-coupon-' },
  );

  it('applies a code in the cart and carries the discount to the order confirmation', async () => {
    const created = await apiJson(stack, 'POST', '/admin/coupons', adminToken, {
      code: 'BUNA10',
      kind: 'percent',
      value: 10,
      usageLimit: 5,
    });
    expect(created.status).toBe(201);
    const product = await productInStock(stack, 3);
    const s = await session(browser, stack, 'en');
    await s.page.setViewportSize(PHONE);
    const { token } = await signedInCustomer(stack, s, 'coupon');
    expect(
      (await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 2 })).status,
    ).toBe(200);
    const { page } = s;
    await page.goto(`${stack.storefront}/cart`);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });

    // an unknown code: refused in words, nothing applied
    await page.getByLabel(t('cart.couponLabel')).fill('nope-nope');
    await page.getByRole('button', { name: t('cart.couponApply') }).click();
    await page.getByText(t('errors.COUPON_NOT_FOUND')).waitFor();
    expect(await page.getByTestId('summary-discount').count()).toBe(0);

    // the real code, typed in lower case
    await page.getByLabel(t('cart.couponLabel')).fill('buna10');
    await page.getByRole('button', { name: t('cart.couponApply') }).click();
    await page.getByText(t('cart.couponApplied', { code: 'BUNA10' })).waitFor();
    const cartDiscount = (await page.getByTestId('summary-discount').textContent()) ?? '';
    expect(cartDiscount).toMatch(/\d/);
    await page.getByText(t('cart.discount', { code: 'BUNA10' })).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // checkout shows the same discount; pay on delivery in Addis Ababa places the order at once
    await page.goto(`${stack.storefront}/checkout`);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    expect(await page.getByTestId('summary-discount').textContent()).toBe(cartDiscount);
    await fillAddress(page);
    const shownTotal = (await page.getByTestId('checkout-total').textContent()) ?? '';
    await page.getByLabel(t('checkout.payOnDelivery')).check();
    await page.getByRole('button', { name: t('checkout.placeOrder') }).click();
    await page.waitForURL(/\/order-confirmation\/[a-f0-9]{24}$/);
    const orderId = page.url().split('/order-confirmation/')[1];
    await page.getByRole('heading', { name: t('orders.confirmationTitle') }).waitFor();
    expect(await page.getByTestId('summary-discount').textContent()).toBe(cartDiscount);
    expect(await page.getByTestId('order-total').textContent()).toContain(shownTotal.trim());
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // the order keeps the code and its discount; the code has one use
    const order = await apiJson(stack, 'GET', `/orders/${orderId}`, token);
    const placed = order.body.order ?? order.body;
    expect(placed.couponCode).toBe('BUNA10');
    expect(placed.discount).toBeCloseTo(placed.subtotal * 0.1, 2);
    const list = await apiJson(stack, 'GET', '/admin/coupons', adminToken);
    expect(list.body.find((c: { code: string }) => c.code === 'BUNA10').uses).toBe(1);
    await s.context.close();
  });

  it('applies and takes off a code without JavaScript', async () => {
    const created = await apiJson(stack, 'POST', '/admin/coupons', adminToken, {
      code: 'SHEBA50',
      kind: 'fixed',
      value: 50,
    });
    expect(created.status).toBe(201);
    const product = await productInStock(stack, 3, 1);
    const s = await session(browser, stack, 'en', false);
    await s.page.setViewportSize(PHONE);
    const { token } = await signedInCustomer(stack, s, 'coupon-nojs');
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    const { page } = s;
    await page.goto(`${stack.storefront}/cart`);
    await page.getByLabel(t('cart.couponLabel')).fill('sheba50');
    await page.getByRole('button', { name: t('cart.couponApply') }).click();
    await page.getByText(t('cart.couponApplied', { code: 'SHEBA50' })).waitFor();
    expect(await page.getByTestId('summary-discount').textContent()).toMatch(/50\.00/);
    await page.getByRole('button', { name: t('cart.couponRemove') }).click();
    await page.getByLabel(t('cart.couponLabel')).waitFor();
    expect(await page.getByTestId('summary-discount').count()).toBe(0);
    await s.context.close();
  });
});
