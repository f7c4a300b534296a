import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { translate, type Language } from '@shop/i18n';
import { apiJson, launch, productInStock, session, stockOf, type Session } from './account-support';
import { startStack, type Stack } from './stack';

/**
 * Issue 29 in Chromium at 390 px, in English and Amharic: a guest buys with pay on delivery (no
 * account), comes back to the order with its token, later finds it by number and phone on the lookup
 * page; a region outside pay on delivery is not offered it; the guest path works without JavaScript.
 */
describe('guest checkout and pay on delivery (390 px)', () => {
  let stack: Stack;
  let browser: Browser;
  let dataDir: string;
  const PHONE = { width: 390, height: 844 };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-guest-cod-'));
    stack = await startStack({ apiEnv: { AUTH_RATE_LIMIT: '1000', DATA_DIR: dataDir } });
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  let clients = 0;
  /**
   * A phone-sized browser context. Each has its own client address (X-Forwarded-For, which the
   * storefront passes on): the lookup's limit per client then counts this test's tries only.
   */
  async function phoneSession(lang: Language, javaScriptEnabled = true): Promise<Session> {
    const s = await session(browser, stack, lang, javaScriptEnabled);
    await s.page.setViewportSize(PHONE);
    await s.context.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.29.0.${++clients}` });
    return s;
  }

  /** A guest puts a product in the guest cart from its page and goes to checkout. */
  async function guestToCheckout(page: Page, productId: string, lang: Language, javaScript = true) {
    await page.goto(`${stack.storefront}/product/${productId}`);
    if (javaScript) await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.locator('form.add-to-cart button[type=submit]').first().click();
    if (javaScript) await page.getByText(translate(lang, 'product.addedToCart')).first().waitFor();
    else await page.waitForURL(/added=1/);
    await page.goto(`${stack.storefront}/checkout`);
  }

  /** Submits the lookup form and waits for the storefront's answer to the post; answers its status. */
  async function submitLookup(page: Page, button: string): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/track-order')),
      page.getByRole('button', { name: button }).click(),
    ]);
    return response.status();
  }

  const noWiderThanThePhone = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  for (const lang of ['en', 'am'] as Language[]) {
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);

    it(`a guest buys with pay on delivery, comes back to the order, and finds it by number and phone (${lang})`, async () => {
      const product = await productInStock(stack, 3, lang === 'en' ? 3 : 4);
      const stockBefore = await stockOf(stack, product._id);
      const s = await phoneSession(lang);
      const { page, context } = s;
      await guestToCheckout(page, product._id, lang);

      // Continue as guest (the cart stays); the guest form asks name, phone, optional email, the address.
      await page.getByText(t('checkout.signInToContinue')).waitFor();
      await page.getByRole('link', { name: t('otp.usePhone') }).waitFor();
      await page.getByTestId('continue-as-guest').click();
      await page.waitForURL(/\/checkout\?guest=1$/);
      await page.locator('input[name=name]').fill('Almaz Bekele');
      await page.locator('input[name=phone]').fill('0911 29 00 01');
      await page.locator('select[name=state]').selectOption('Addis Ababa');
      await page.locator('input[name=city]').fill('Addis Ababa');
      await page.locator('input[name=street]').fill('Bole Road 12');
      expect(await page.locator('input[name=saveAddress]').count()).toBe(0);

      // Pay on delivery is offered for Addis Ababa, with the amount to have ready; the button places the order.
      const shownTotal = (await page.getByTestId('checkout-total').textContent()) ?? '';
      expect(shownTotal).toMatch(/\d/);
      await page.getByTestId('cod-option').waitFor();
      expect(await page.getByTestId('cod-ready').textContent()).toContain(shownTotal);
      await page.getByLabel(t('checkout.payOnDelivery')).check();
      await noWiderThanThePhone(page);
      await page.getByRole('button', { name: t('checkout.placeOrder') }).click();

      // Confirmed at once: 'Pay on delivery: ETB X', no 'Pay now'.
      await page.waitForURL(/\/order-confirmation\/[a-f0-9]{24}$/);
      const orderId = page.url().split('/order-confirmation/')[1];
      await page.getByRole('heading', { name: t('orders.confirmationTitle') }).waitFor();
      const cod = page.getByTestId('cod-amount');
      await cod.waitFor();
      expect(await cod.textContent()).toBe(`${t('orders.payOnDeliveryAmount')} ${shownTotal}`);
      expect(await page.getByTestId('pay-now').count()).toBe(0);
      const orderNumber = (await page.getByTestId('order-number').first().textContent()) ?? '';
      expect(orderNumber).toMatch(/^AN-\d{5,}$/);
      expect(await page.getByTestId('payment-state').first().textContent()).toBe(
        t('orders.paymentStates.onDelivery'),
      );
      expect(await stockOf(stack, product._id)).toBe(stockBefore - 1);
      await noWiderThanThePhone(page);

      // The order's token is in an httpOnly cookie: the guest comes back to the order later.
      const cookie = (await context.cookies(stack.storefront)).find(
        (c) => c.name === `order_token_${orderId}`,
      );
      expect(cookie?.httpOnly).toBe(true);
      expect(await page.evaluate(() => document.cookie)).not.toContain('order_token_');
      await page.goto(`${stack.storefront}/`);
      await page.goto(`${stack.storefront}/order-confirmation/${orderId}`);
      await page.getByTestId('cod-amount').waitFor();
      // ...and the cart is empty: the order took its lines
      await page.goto(`${stack.storefront}/cart`);
      await page.getByText(t('cart.empty')).waitFor();
      // Another browser without the token is sent to sign in, never shown the order.
      const stranger = await phoneSession(lang);
      await stranger.page.goto(`${stack.storefront}/order-confirmation/${orderId}`);
      await stranger.page.waitForURL(/\/signin\?redirectTo=/);
      await stranger.context.close();

      // Later: the lookup page (linked from the confirmation page and the footer) by number and phone.
      await page.goto(`${stack.storefront}/order-confirmation/${orderId}`);
      await page
        .locator('main')
        .getByRole('link', { name: t('lookup.title') })
        .click();
      await page.waitForURL(/\/track-order\?number=AN-/);
      expect(await page.locator('input[name=number]').inputValue()).toBe(orderNumber);
      // a wrong phone and a wrong number get the same words
      await page.locator('input[name=phone]').fill('0911 29 99 99');
      await submitLookup(page, t('lookup.submit'));
      const refusal = page.locator('main .acc-alert');
      await refusal.filter({ hasText: t('errors.ORDER_NOT_FOUND') }).waitFor();
      await page.locator('input[name=number]').fill('AN-99999');
      await page.locator('input[name=phone]').fill('0911 29 00 01');
      await submitLookup(page, t('lookup.submit'));
      await refusal.filter({ hasText: t('errors.ORDER_NOT_FOUND') }).waitFor();
      expect(await page.getByTestId('lookup-result').count()).toBe(0);
      // the right pair, the phone typed another way: the order's state, never the street
      await page.locator('input[name=number]').fill(orderNumber.toLowerCase());
      await page.locator('input[name=phone]').fill('+251 911 290 001');
      await submitLookup(page, t('lookup.submit'));
      const result = page.getByTestId('lookup-result');
      await result.waitFor();
      expect(await result.getByTestId('order-number').textContent()).toBe(orderNumber);
      await result.getByText(t('orders.statuses.pending')).first().waitFor();
      expect(await result.getByTestId('cod-amount').textContent()).toBe(
        `${t('orders.payOnDeliveryAmount')} ${shownTotal}`,
      );
      expect(await result.textContent()).not.toContain('Bole Road');
      // the phone never lands in the address bar
      expect(page.url()).not.toMatch(/911|phone/);
      await noWiderThanThePhone(page);

      // The footer links the lookup page on every page.
      await page.goto(`${stack.storefront}/`);
      expect(
        await page
          .locator('footer')
          .getByRole('link', { name: t('lookup.title') })
          .getAttribute('href'),
      ).toBe(lang === 'am' ? '/am/track-order' : '/track-order'); // the page's language kept (decision 0092)

      // The guest changes its mind: it cancels the order itself (docs/decisions/0102-guest-cancel.md),
      // the stock comes back, and the order says so; a cancelled order offers no second cancel.
      await page.goto(`${stack.storefront}/order-confirmation/${orderId}`);
      // (the session accepts the 'Cancel this order?' confirmation)
      await page.getByRole('button', { name: t('orders.cancel') }).click();
      await page.getByTestId('order-cancelled').waitFor();
      expect(await page.getByTestId('order-cancelled').textContent()).toBe(t('orders.cancelled'));
      await page.getByText(t('orders.statuses.cancelled'), { exact: true }).first().waitFor();
      await page.getByRole('button', { name: t('orders.cancel') }).waitFor({ state: 'detached' });
      expect(await stockOf(stack, product._id)).toBe(stockBefore);
      await noWiderThanThePhone(page);

      await context.close();
      expect(s.errors).toEqual([]);
    });

    it(`a region outside pay on delivery is not offered it (${lang})`, async () => {
      const product = await productInStock(stack, 3, 5);
      const s = await phoneSession(lang);
      const { page } = s;
      await guestToCheckout(page, product._id, lang);
      await page.getByTestId('continue-as-guest').click();
      await page.waitForURL(/guest=1/);
      // no region yet: offered with the regions it covers
      await page.getByTestId('cod-option').waitFor();
      await page.getByTestId('cod-regions').waitFor();
      await page.getByLabel(t('checkout.payOnDelivery')).check();
      await page.getByRole('button', { name: t('checkout.placeOrder') }).waitFor();
      // Amhara: not offered, and said why; the choice falls back to Chapa
      await page.locator('select[name=state]').selectOption('Amhara');
      await page.getByTestId('cod-option').waitFor({ state: 'detached' });
      expect(await page.getByTestId('cod-unavailable').textContent()).toBe(
        t('checkout.codNotInRegion', {
          region: lang === 'am' ? 'አማራ' : 'Amhara',
          regions: lang === 'am' ? 'አዲስ አበባ፣ ድሬ ዳዋ' : 'Addis Ababa, Dire Dawa',
        }),
      );
      expect(await page.locator('input[name=paymentMethod][value=chapa]').isChecked()).toBe(true);
      await page.getByRole('button', { name: t('checkout.payNow') }).waitFor();
      // Dire Dawa: offered again
      await page.locator('select[name=state]').selectOption('Dire Dawa');
      await page.getByTestId('cod-option').waitFor();
      await noWiderThanThePhone(page);
      await s.context.close();
      expect(s.errors).toEqual([]);
    });
  }

  it('the guest pays on delivery without JavaScript; a refused region is said in words (en)', async () => {
    const product = await productInStock(stack, 3, 6);
    const s = await phoneSession('en', false);
    const { page } = s;
    await guestToCheckout(page, product._id, 'en', false);
    await page.getByRole('link', { name: 'Continue as guest' }).click();
    await page.waitForURL(/guest=1/);
    await page.locator('input[name=name]').fill('Dawit Tesfaye');
    await page.locator('input[name=email]').fill('dawit@example.et');
    await page.locator('input[name=phone]').fill('0911 29 00 02');
    await page.locator('input[name=city]').fill('Bahir Dar');
    await page.locator('input[name=street]').fill('Lake Road 3');
    // without JavaScript the page cannot follow the region: Amhara chosen, pay on delivery asked for
    await page.locator('select[name=state]').selectOption('Amhara');
    await page.locator('input[name=paymentMethod][value=cash_on_delivery]').check();
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.getByText(translate('en', 'errors.COD_UNAVAILABLE')).waitFor();
    // the form comes back filled, on Chapa, Amhara not offered pay on delivery
    expect(await page.locator('input[name=name]').inputValue()).toBe('Dawit Tesfaye');
    expect(await page.locator('input[name=paymentMethod][value=chapa]').isChecked()).toBe(true);
    expect(await page.getByTestId('cod-option').count()).toBe(0);
    // Addis Ababa: accepted
    await page.locator('select[name=state]').selectOption('Addis Ababa');
    await page.locator('input[name=city]').fill('Addis Ababa');
    // (the server rendered the page for Amhara: the radio is back once the page is for Addis Ababa)
    await page.locator('input[name=paymentMethod][value=chapa]').check();
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL(/\/payment\/test\//);
    await page.getByRole('button', { name: 'Complete payment' }).click();
    await page.waitForURL(/\/payment\/return/);
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.getByRole('link', { name: 'View order' }).click();
    await page.waitForURL(/\/order-confirmation\//);
    await page.getByTestId('order-thanks').waitFor();
    const orders = await apiJson(stack, 'GET', '/orders/my-orders');
    expect(orders.status).toBe(401);
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('the lookup says too many tries in words after five wrong ones (en)', async () => {
    const s = await phoneSession('en');
    const { page } = s;
    await page.goto(`${stack.storefront}/track-order`);
    for (let i = 0; i < 5; i++) {
      await page.locator('input[name=number]').fill(`AN-${88880 + i}`);
      await page.locator('input[name=phone]').fill('0911 29 00 09');
      expect(await submitLookup(page, 'Find my order')).toBe(200);
      await page
        .locator('main .acc-alert')
        .filter({ hasText: translate('en', 'errors.ORDER_NOT_FOUND') })
        .waitFor();
    }
    await page.locator('input[name=number]').fill('AN-88899');
    expect(await submitLookup(page, 'Find my order')).toBe(429);
    await page
      .locator('main .acc-alert')
      .filter({ hasText: translate('en', 'errors.TOO_MANY_ATTEMPTS') })
      .waitFor();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });
});
