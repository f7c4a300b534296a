import type { Browser } from 'playwright-core';
import { translate, type Language } from '@shop/i18n';
import { formatMoney, localePath } from '@shop/shared';
import {
  STRONG_PASSWORD,
  accountSuite,
  apiJson,
  fillAddress,
  productInStock,
  session,
  stockOf,
  uniqueEmail,
} from './account-support';
import type { Stack } from './stack';

/**
 * The buying journey of issue 7 in Chromium over the running stack (test payment provider):
 * guest adds to cart -> signs up -> finds the item in the cart -> pays -> confirmation -> profile -> cancels.
 */
describe('account journey', () => {
  let stack: Stack;
  let browser: Browser;
  accountSuite((st, br) => {
    stack = st;
    browser = br;
  });

  for (const lang of ['en', 'am'] as Language[]) {
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);

    it(`guest adds to cart, signs up, pays with the test provider, sees the order and cancels it (${lang})`, async () => {
      const product = await productInStock(stack, 5, lang === 'en' ? 0 : 1);
      const stockBefore = await stockOf(stack, product._id);
      const s = await session(browser, stack, lang);
      const { page } = s;

      // A guest adds to a guest cart (no sign-in wall), changes the quantity in the cart, goes to checkout.
      await page.goto(`${stack.storefront}/product/${product._id}`);
      await page.locator('form.add-to-cart button[type=submit]').first().click();
      await page.getByText(t('product.addedToCart')).first().waitFor();
      await page.goto(`${stack.storefront}/cart`);
      const line = page.getByTestId('cart-line');
      await expect(line.count()).resolves.toBe(1);
      await line
        .filter({ hasText: lang === 'am' && product.nameAm ? product.nameAm : product.name })
        .waitFor();
      await expect(line.getByTestId('cart-quantity').textContent()).resolves.toBe('1');
      await line.getByText(t('cart.each')).waitFor();
      await line.getByRole('button', { name: t('cart.increase') }).click();
      await line.getByTestId('cart-quantity').filter({ hasText: '2' }).waitFor();
      await page.getByRole('link', { name: t('cart.checkout') }).click();
      await page.waitForURL(/\/checkout$/);
      await page.getByText(t('checkout.signInToContinue')).waitFor();

      // Sign up from checkout, with the live strength label, and come back to checkout with the cart.
      await page
        .locator('main')
        .getByRole('link', { name: t('auth.signUp') })
        .click();
      await page.waitForURL(/\/signup\?redirectTo=%2Fcheckout/);
      await page.locator('input[name=name]').fill('Almaz Bekele');
      await page.locator('input[name=email]').fill(uniqueEmail(`journey-${lang}`));
      await page.locator('input[name=password]').fill('abc');
      await page
        .getByTestId('password-strength')
        .filter({ hasText: t('auth.strengths.veryWeak') })
        .waitFor();
      await page.locator('input[name=password]').fill(STRONG_PASSWORD);
      await page
        .getByTestId('password-strength')
        .filter({ hasText: t('auth.strengths.veryStrong') })
        .waitFor();
      await page.locator('input[name=confirmPassword]').fill(STRONG_PASSWORD);
      await page.getByRole('button', { name: t('auth.signUp') }).click();
      await page.waitForURL(`${stack.storefront}${localePath(lang, `/checkout`)}`);

      // Checkout with the test provider.
      expect(await page.locator('input[name=country]').inputValue()).toBe('Ethiopia');
      await fillAddress(page);
      // Express shipping: the summary follows the choice, and the order carries exactly the shown total.
      await page.locator('input[name=shippingMethod][value=express]').check();
      await page
        .getByTestId('checkout-total')
        .filter({ hasText: formatMoney(product.price * 2 * 1.15 + 300, 'ETB', lang) })
        .waitFor();
      const shownTotal = await page.getByTestId('checkout-total').textContent();
      await page.getByRole('button', { name: t('checkout.payNow') }).click();
      await page.waitForURL(/\/payment\/test\//);
      await page.getByText(t('payment.testBanner')).waitFor();
      await page.getByRole('button', { name: t('payment.testComplete') }).click();
      await page.getByRole('heading', { name: t('payment.success') }).waitFor();
      await page.waitForURL(/\/order-confirmation\//);
      const orderId = page.url().split('/order-confirmation/')[1].split('?')[0];
      const orderNumber = (await page.getByTestId('order-number').first().textContent()) ?? '';
      expect(orderNumber).toMatch(/^AN-\d{5,}$/);
      await expect(page.getByTestId('order-total').textContent()).resolves.toBe(shownTotal);
      await page.getByText(t('orders.statuses.pending')).first().waitFor();
      expect(await stockOf(stack, product._id)).toBe(stockBefore - 2);

      // The cart is empty afterwards, and the order is in the profile with its status badge.
      await page.goto(`${stack.storefront}/cart`);
      await page.getByText(t('cart.empty')).waitFor();
      await page.goto(`${stack.storefront}/profile?tab=orders`);
      const card = page.locator(`[data-order-id="${orderId}"]`);
      await card.waitFor();
      expect(await card.locator('[data-status]').getAttribute('data-colour')).toBe('yellow');
      await page.getByRole('link', { name: t('profile.wishlist') }).waitFor();

      // Cancel it from the order list: the badge turns red and the stock is restored.
      await page.goto(`${stack.storefront}/orders`);
      await page
        .locator(`[data-order-id="${orderId}"]`)
        .getByRole('button', { name: t('orders.cancel') })
        .click();
      await page.locator('.acc-toast').first().waitFor();
      expect(await page.locator('.acc-toast span').first().textContent()).toBe(t('orders.cancelled'));
      await page.locator(`[data-order-id="${orderId}"] [data-colour="red"]`).waitFor();
      expect(await stockOf(stack, product._id)).toBe(stockBefore);
      await page
        .locator(`[data-order-id="${orderId}"]`)
        .getByRole('button', { name: t('orders.cancel') })
        .waitFor({ state: 'detached' });

      await s.context.close();
      expect(s.errors).toEqual([]);
    });
  }

  it('redirects guests from protected pages to sign in with the return path', async () => {
    const s = await session(browser, stack);
    // (Checkout is open to guests: it asks them to sign in or sign up there, see shop-ethiopia.e2e.ts.)
    for (const path of ['/wishlist', '/profile', '/orders']) {
      await s.page.goto(`${stack.storefront}${path}`);
      await s.page.waitForURL(
        new RegExp(`/signin\\?redirectTo=${encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
    }
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('signs an existing customer in to the remembered path and an admin to the back office', async () => {
    const email = uniqueEmail('signin');
    await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Selam',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    const s = await session(browser, stack);
    await s.page.goto(`${stack.storefront}/signin?redirectTo=/orders`);
    await s.page.locator('input[name=email]').fill(email);
    await s.page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await s.page.waitForURL(`${stack.storefront}/orders`);
    await s.page.getByRole('heading', { name: 'My orders' }).waitFor();
    // Sign out through the header's form.
    await s.page.evaluate(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/logout';
      document.body.append(form);
      form.submit();
    });
    await s.page.waitForURL(`${stack.storefront}/`);
    expect((await s.context.cookies(stack.storefront)).find((c) => c.name === 'token')).toBeUndefined();
    await s.context.close();

    const a = await session(browser, stack);
    await a.page.goto(`${stack.storefront}/signin`);
    // an admin who signs in on the shop's (customer) form is sent to the back office
    await a.page.locator('input[name=email]').fill('admin@beauty.et');
    await a.page.locator('input[name=password]').fill('Admin@12345');
    await a.page.getByRole('button', { name: 'Sign in' }).click();
    await a.page.waitForURL(`${stack.admin}/admin/dashboard`);
    await a.context.close();
    expect(s.errors).toEqual([]);
  });

  it('the whole purchase works without JavaScript', async () => {
    const product = await productInStock(stack, 5, 2);
    const s = await session(browser, stack, 'en', false);
    const { page } = s;
    await page.goto(`${stack.storefront}/product/${product._id}`);
    await page.locator('form.add-to-cart button[type=submit]').first().click();
    await page.waitForURL(/added=1/);
    await page.goto(`${stack.storefront}/cart`);
    await page.getByTestId('cart-line').getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByTestId('cart-quantity').filter({ hasText: '2' }).waitFor();
    await page.goto(`${stack.storefront}/checkout`);
    await page.locator('main').getByRole('link', { name: 'Sign up' }).click();
    await page.locator('input[name=name]').fill('Dawit');
    await page.locator('input[name=email]').fill(uniqueEmail('nojs'));
    await page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await page.locator('input[name=confirmPassword]').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${stack.storefront}/checkout`);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.getByText('Street is required').first().waitFor();
    await fillAddress(page);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL(/\/payment\/test\//);
    await page.getByRole('button', { name: 'Complete payment' }).click();
    // The spinner page refreshes itself into the verification, then into the confirmation.
    await page.waitForURL(/\/order-confirmation\//, { timeout: 15000 });
    await page.getByRole('heading', { name: 'Thank you for your order!' }).waitFor();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });
});
