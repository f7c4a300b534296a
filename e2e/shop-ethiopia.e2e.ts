import type { Browser, Page } from 'playwright-core';
import { translate, type Language } from '@shop/i18n';
import { ETHIOPIAN_REGIONS, localePath } from '@shop/shared';
import {
  STRONG_PASSWORD,
  accountSuite,
  apiJson,
  session,
  uniqueEmail,
  type Session,
} from './account-support';
import type { Stack } from './stack';

/**
 * Issue 14, part A, in Chromium over the running stack, at a phone width (390 px) and a laptop width
 * (1366 px), in English and Amharic: the guest cart and its merge at sign-in, the Ethiopian checkout
 * (phone validation, region choice, no postal code), one order number on every screen, and the payment
 * states a customer sees (awaiting payment with 'Pay now', failed with a retry, paid).
 */
describe('guest cart, Ethiopian checkout, order numbers, payment states', () => {
  let stack: Stack;
  let browser: Browser;
  let admin: string;
  accountSuite((st, br) => {
    stack = st;
    browser = br;
  });

  beforeAll(async () => {
    const login = await apiJson(stack, 'POST', '/auth/login', undefined, {
      email: 'admin@beauty.et',
      password: 'Admin@12345',
    });
    admin = login.body.token;
  });

  const makeProduct = async (name: string, stock: number, nameAm: string) => {
    const res = await apiJson(stack, 'POST', '/products', admin, { name, nameAm, price: 250, stock });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.product._id as string;
  };

  const register = async (prefix: string) => {
    const email = uniqueEmail(prefix);
    const res = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Tigist Alemu',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    return { email, token: res.body.token as string };
  };

  const sized = async (lang: Language, width: number): Promise<Session> => {
    const s = await session(browser, stack, lang);
    await s.page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    return s;
  };

  /** Signs the browser in through the storefront's own sign-in page (so the guest cart is merged). */
  const signInThroughPage = async (page: Page, lang: Language, email: string, redirectTo: string) => {
    const t = (key: string) => translate(lang, key);
    await page.goto(`${stack.storefront}/signin?redirectTo=${encodeURIComponent(redirectTo)}`);
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await page
      .locator('main form')
      .getByRole('button', { name: t('auth.signIn') })
      .click();
  };

  for (const width of [390, 1366]) {
    for (const lang of ['en', 'am'] as Language[]) {
      const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);

      it(`a guest fills a cart that joins the account at sign-in, capped by stock (${width} px, ${lang})`, async () => {
        const scarce = await makeProduct(`Merge Test Oil ${width}${lang}`, 3, 'የሙከራ ዘይት');
        const account = await register(`merge-${width}-${lang}`);
        await apiJson(stack, 'POST', '/cart/add', account.token, { productId: scarce, quantity: 2 });

        const s = await sized(lang, width);
        const { page, context } = s;
        await page.goto(`${stack.storefront}/product/${scarce}`);
        const add = page.locator('form.add-to-cart').first();
        // Everyone sees 'Add to Cart' (no sign-in wall).
        await add.getByRole('button', { name: t('product.addToCart') }).waitFor();
        await add.locator('select[name=quantity]').selectOption('2');
        await add.getByRole('button', { name: t('product.addToCart') }).click();
        await page.getByText(t('product.addedToCart')).first().waitFor();

        // The guest cart id is in an httpOnly cookie, unreadable by script.
        const cookie = (await context.cookies(stack.storefront)).find((c) => c.name === 'cart_id');
        expect(cookie?.value).toMatch(/^[a-f0-9]{32}$/);
        expect(cookie?.httpOnly).toBe(true);
        expect(await page.evaluate(() => document.cookie)).not.toContain('cart_id');

        await page.goto(`${stack.storefront}/cart`);
        await page
          .getByTestId('cart-line')
          .filter({ hasText: lang === 'am' ? 'የሙከራ ዘይት' : 'Merge Test Oil' })
          .waitFor();
        await expect(page.getByTestId('cart-quantity').textContent()).resolves.toBe('2');
        await page.getByText(t('cart.guestCheckoutNote')).waitFor();

        // Signing in merges: 2 (account) + 2 (guest) capped at the stock of 3, and the page says so.
        await signInThroughPage(page, lang, account.email, '/cart');
        await page.waitForURL(/\/cart\?cartNotice=capped/);
        await page
          .getByTestId('merge-capped')
          .filter({ hasText: t('cart.mergeCapped') })
          .waitFor();
        await expect(page.getByTestId('cart-quantity').textContent()).resolves.toBe('3');
        expect((await context.cookies(stack.storefront)).find((c) => c.name === 'cart_id')).toBeUndefined();
        const cart = await apiJson(stack, 'GET', '/cart', account.token);
        expect(cart.body.products.map((l: { quantity: number }) => l.quantity)).toEqual([3]);
        await context.close();
        expect(s.errors).toEqual([]);
      });

      it(`checks out in Ethiopia: phone checked, region chosen, no postal code; one order number everywhere; payment states (${width} px, ${lang})`, async () => {
        const productId = await makeProduct(`Checkout Test Balm ${width}${lang}`, 20, 'የሙከራ ቅባት');
        const account = await register(`et-${width}-${lang}`);
        const s = await sized(lang, width);
        const { page, context } = s;
        await context.addCookies([
          { name: 'token', value: account.token, url: stack.storefront, httpOnly: true },
        ]);
        await apiJson(stack, 'POST', '/cart/add', account.token, { productId, quantity: 1 });
        await page.goto(`${stack.storefront}/checkout`);

        // The region is a choice of Ethiopia's 14 regions and chartered cities, named in the page's language.
        const options = await page.locator('select[name=state] option').allTextContents();
        expect(options.slice(1)).toEqual(ETHIOPIAN_REGIONS.map((r) => (lang === 'am' ? r.am : r.en)));
        await page.getByTestId('payment-methods').getByText('telebirr').waitFor();
        await page.getByTestId('payment-methods').getByText('CBE Birr').waitFor();
        await page
          .getByTestId('tax-label')
          .filter({ hasText: t('cart.taxAdded') })
          .waitFor();

        // A landline is refused in the customer's language; the postal code is never asked for.
        await page.locator('input[name=phone]').fill('0111 23 45 67');
        await page.locator('select[name=state]').selectOption({ label: lang === 'am' ? 'ኦሮሚያ' : 'Oromia' });
        await page.locator('input[name=city]').fill('Adama');
        await page.locator('input[name=street]').fill('Kebele 04, House 7');
        await page.locator('input[name=landmark]').fill('near Adama stadium');
        await page.getByRole('button', { name: t('checkout.payNow') }).click();
        await page.getByText(t('checkout.phoneInvalid')).first().waitFor();
        expect(await page.locator('input[name=zipCode]').getAttribute('required')).toBeNull();

        // A valid mobile: the order is placed, the test payment page opens; fail the payment first.
        await page.locator('input[name=phone]').fill('0912 34 56 78');
        await page.locator('input[name=saveAddress]').check();
        await page.getByRole('button', { name: t('checkout.payNow') }).click();
        await page.waitForURL(/\/payment\/test\//);
        const mine = await apiJson(stack, 'GET', '/orders/my-orders', account.token);
        const order = mine.body.orders[0];
        expect(order.orderNumber).toMatch(/^AN-\d{5,}$/);
        expect(order.shippingAddress).toMatchObject({
          state: 'Oromia',
          phone: '+251912345678',
          landmark: 'near Adama stadium',
        });
        expect(order.shippingAddress.zipCode).toBeUndefined();
        const saved = await apiJson(stack, 'GET', '/users/addresses', account.token);
        expect(saved.body.addresses[0]).toMatchObject({ state: 'Oromia', phone: '+251912345678' });

        await page.getByRole('button', { name: t('payment.testFail') }).click();
        await page.getByRole('button', { name: t('orders.retryPayment') }).waitFor({ timeout: 15000 });
        await expect(page.getByTestId('order-number').textContent()).resolves.toBe(order.orderNumber);

        // The order page says the payment failed and offers a retry, never 'Thank you for your order!'.
        await page.goto(`${stack.storefront}/order-confirmation/${order._id}`);
        await page
          .getByTestId('payment-failed')
          .filter({ hasText: t('orders.paymentFailedNotice') })
          .waitFor();
        expect(await page.getByTestId('order-thanks').count()).toBe(0);
        expect(await page.getByRole('heading', { name: t('orders.confirmationTitle') }).count()).toBe(0);
        await expect(page.getByTestId('payment-state').getAttribute('data-payment-status')).resolves.toBe(
          'failed',
        );
        await expect(page.getByTestId('payment-state').textContent()).resolves.toBe(
          t('orders.paymentStates.failed'),
        );
        await expect(page.getByTestId('order-number').first().textContent()).resolves.toBe(order.orderNumber);
        // Amharic dates: the Ethiopian calendar, the Gregorian date beside it and in the tooltip.
        if (lang === 'am') {
          const date = page.getByTestId('ethiopian-date').first();
          expect(await date.getAttribute('title')).toMatch(/20\d\d/);
          expect(await date.textContent()).toMatch(/[\u1200-\u137F]/);
        }
        await page
          .getByText(lang === 'am' ? 'ኦሮሚያ' : 'Oromia')
          .first()
          .waitFor();

        // My orders: the same number, the payment state, and a 'Pay now' that pays.
        await page.goto(`${stack.storefront}/orders`);
        const card = page.locator(`[data-order-id="${order._id}"]`);
        await expect(card.getByTestId('order-number').textContent()).resolves.toBe(order.orderNumber);
        await expect(card.getByTestId('payment-state').textContent()).resolves.toBe(
          t('orders.paymentStates.failed'),
        );
        await card.getByRole('button', { name: t('orders.payNow') }).click();
        await page.waitForURL(/\/payment\/test\//);
        await page.getByRole('button', { name: t('payment.testComplete') }).click();
        await page.getByRole('heading', { name: t('payment.success') }).waitFor({ timeout: 15000 });
        await expect(page.getByTestId('order-number').textContent()).resolves.toBe(order.orderNumber);
        await page.waitForURL(`${stack.storefront}${localePath(lang, `/order-confirmation/${order._id}`)}`, {
          timeout: 15000,
        });
        await page
          .getByTestId('order-thanks')
          .filter({ hasText: t('orders.thanks') })
          .waitFor();
        await expect(page.getByTestId('payment-state').textContent()).resolves.toBe(
          t('orders.paymentStates.paid'),
        );
        await expect(page.getByTestId('order-number').first().textContent()).resolves.toBe(order.orderNumber);
        await page.goto(`${stack.storefront}/orders`);
        await expect(card.getByTestId('payment-state').textContent()).resolves.toBe(
          t('orders.paymentStates.paid'),
        );
        expect(await card.getByRole('button', { name: t('orders.payNow') }).count()).toBe(0);

        // An order left unpaid shows 'Awaiting payment' and 'Pay now'.
        await apiJson(stack, 'POST', '/cart/add', account.token, { productId, quantity: 1 });
        const unpaid = await apiJson(stack, 'POST', '/orders', account.token, {
          shippingAddress: { street: 'Bole', city: 'Addis Ababa', state: 'AA', phone: '0911000000' },
        });
        await page.goto(`${stack.storefront}/orders`);
        const waiting = page.locator(`[data-order-id="${unpaid.body.order._id}"]`);
        await expect(waiting.getByTestId('payment-state').textContent()).resolves.toBe(
          t('orders.paymentStates.unpaid'),
        );
        await waiting.getByRole('button', { name: t('orders.payNow') }).waitFor();
        await expect(waiting.getByTestId('order-number').textContent()).resolves.toBe(
          unpaid.body.order.orderNumber,
        );
        await context.close();
        expect(s.errors).toEqual([]);
      });
    }
  }
});
