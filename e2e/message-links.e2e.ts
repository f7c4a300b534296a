import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { translate, type Language } from '@shop/i18n';
import { localePath, storefrontPaths } from '@shop/shared';
import { STRONG_PASSWORD, apiJson, launch, productInStock, session, uniqueEmail } from './account-support';
import { startStack, type Stack } from './stack';

interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

const ETHIOPIC = /[\u1200-\u137f]/;
const LINK = /https?:\/\/[^\s<>"')]+/g;

/** Every http(s) link of a message, from its text and its HTML's hrefs (without a sentence's closing dot). */
function linksOf(message: { text: string; html?: string }): string[] {
  const hrefs = [...(message.html ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
  const inText = message.text.match(LINK) ?? [];
  return [...new Set([...inText, ...hrefs].map((l) => l.replace(/[.,;:]+$/, '')))];
}

/**
 * Issue 28.1-2 over the running stack: every message the shop sends a customer about an order (placed,
 * payment failed, payment received, shipped, delivered, refunded, cancelled; a guest's by email and
 * SMS), a password reset and a wishlist notice, in English and Amharic, in the customer's language,
 * every link in it followed against the storefront: 200, and the page shows that order (after the
 * page's own sign-in for a signed-out visitor), that reset form, that unsubscribe question
 * (docs/decisions/0077-links-and-message-language.md).
 */
describe('every link of every message opens its page (en, am)', () => {
  let stack: Stack;
  let browser: Browser;
  let admin: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'message-links-'));

  beforeAll(async () => {
    stack = await startStack({
      apiEnv: { AUTH_RATE_LIMIT: '1000', DATA_DIR: dataDir, NOTIFICATIONS_INTERVAL_MS: '200' },
    });
    browser = await launch();
    admin = (
      await apiJson(stack, 'POST', '/auth/login', undefined, {
        email: 'admin@beauty.et',
        password: 'Admin@12345',
      })
    ).body.token;
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function mailsTo(to: string): Mail[] {
    let names: string[] = [];
    try {
      names = readdirSync(path.join(dataDir, 'mail')).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names
      .map((n) => JSON.parse(readFileSync(path.join(dataDir, 'mail', n), 'utf8')) as Mail)
      .filter((m) => m.to === to);
  }

  async function waitForMail(to: string, subject: string): Promise<Mail> {
    for (let i = 0; i < 300; i++) {
      const found = mailsTo(to).find((m) => m.subject === subject);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail "${subject}" to ${to}; got ${mailsTo(to).map((m) => m.subject)}`);
  }

  async function waitForSms(phone: string, count: number): Promise<{ text: string }[]> {
    const filter = encodeURIComponent(JSON.stringify({ q: phone }));
    for (let i = 0; i < 150; i++) {
      const { body } = await apiJson(stack, 'GET', `/admin/sms?filter=${filter}`, admin);
      if (body.length >= count) return body;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`fewer than ${count} SMS to ${phone}`);
  }

  /** The link is the storefront's and answers 200 (redirects followed; with the customer's session cookie when given). */
  async function answers200(link: string, token?: string): Promise<{ url: URL; html: string }> {
    expect(link.startsWith(`${stack.storefront}/`)).toBe(true);
    const res = await fetch(link, { headers: token ? { Cookie: `token=${token}` } : {} });
    if (res.status !== 200) throw new Error(`${link} answered ${res.status}`);
    return { url: new URL(res.url), html: await res.text() };
  }

  /** An order link: signed in it is the order's page itself; signed out, the page's sign-in form leads there. */
  async function opensOrder(
    link: string,
    lang: Language,
    account: { email: string; token: string },
    orderNumber: string,
  ) {
    const wanted = new URL(link);
    const direct = await answers200(link, account.token);
    expect(direct.url.pathname + direct.url.search).toBe(wanted.pathname + wanted.search);
    expect(direct.html).toContain(orderNumber);

    const s = await session(browser, stack, lang);
    const response = await s.page.goto(link);
    expect(response?.status()).toBe(200);
    // an Amharic message's pages are the Amharic ones, /am/… (docs/decisions/0092-language-in-the-address.md)
    expect(new URL(s.page.url()).pathname).toBe(localePath(lang, '/signin'));
    expect(new URL(s.page.url()).searchParams.get('redirectTo')).toBe(wanted.pathname + wanted.search);
    await s.page.locator('input[name=email]').fill(account.email);
    await s.page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await s.page.locator('form.acc-form button[type=submit]').click();
    await s.page.waitForURL((url) => url.pathname === wanted.pathname);
    await s.page.getByTestId('order-number').filter({ hasText: orderNumber }).first().waitFor();
    return s;
  }

  async function customer(lang: Language) {
    const email = uniqueEmail(`links-${lang}`);
    const { status, body } = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: lang === 'am' ? 'ሰላም በቀለ' : 'Selam Bekele',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      language: lang,
    });
    expect(status).toBe(201);
    expect(body.user.language).toBe(lang);
    return { email, token: body.token as string };
  }

  async function placeOrder(token: string, productId: string) {
    expect((await apiJson(stack, 'POST', '/cart/add', token, { productId, quantity: 1 })).status).toBe(200);
    const placed = await apiJson(stack, 'POST', '/orders', token, {
      shippingAddress: {
        street: 'Bole Road 12',
        city: 'Addis Ababa',
        state: 'Addis Ababa',
        phone: '0911234567',
      },
      paymentMethod: 'chapa',
    });
    expect(placed.status).toBe(201);
    return placed.body.order as { _id: string; orderNumber: string; language?: string };
  }

  async function pay(token: string, orderId: string, outcome: 'success' | 'failed') {
    const init = await apiJson(stack, 'POST', '/payments/initialize', token, { orderId });
    expect(init.status).toBe(201);
    const done = await apiJson(stack, 'POST', `/payments/test/${init.body.txRef}/complete`, token, {
      outcome,
    });
    expect(done.status).toBe(200);
  }

  const setStatus = async (orderId: string, status: string, extra: Record<string, unknown> = {}) =>
    expect(
      (await apiJson(stack, 'PATCH', `/orders/${orderId}/status`, admin, { status, ...extra })).status,
    ).toBe(200);

  for (const lang of ['en', 'am'] as const) {
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);

    it(`${lang}: an account's order messages, in its language, each link opening that order`, async () => {
      const account = await customer(lang);
      const product = await productInStock(stack, 5);
      const order = await placeOrder(account.token, product._id);
      expect(order.language).toBe(lang);
      const number = order.orderNumber;
      const subject = (template: string) => t(`mail.${template}.subject`, { number });

      const placed = await waitForMail(account.email, subject('orderPlaced'));
      // payment failed: its link opens the order with 'Pay now' (unpaid, failed)
      await pay(account.token, order._id, 'failed');
      const failed = await waitForMail(account.email, subject('paymentFailed'));
      const [failedLink] = linksOf(failed);
      const s = await opensOrder(failedLink, lang, account, number);
      await s.page.getByTestId('pay-now').waitFor();
      expect(s.errors).toEqual([]);
      await s.context.close();

      await pay(account.token, order._id, 'success');
      const received = await waitForMail(account.email, subject('paymentReceived'));
      await setStatus(order._id, 'processing');
      await setStatus(order._id, 'shipped', { trackingNumber: 'ET-TRACK-28' });
      const shipped = await waitForMail(account.email, subject('shipped'));
      await setStatus(order._id, 'delivered');
      const delivered = await waitForMail(account.email, subject('delivered'));
      const refund = await apiJson(stack, 'POST', `/admin/orders/${order._id}/refunds`, admin, {
        amount: 10,
        reason: 'A damaged jar',
        method: 'manual',
        reference: `RF-${lang}-28`,
      });
      expect(refund.status).toBe(200);
      const refunded = await waitForMail(account.email, subject('refunded'));

      const second = await placeOrder(account.token, product._id);
      await setStatus(second._id, 'cancelled');
      const cancelled = await waitForMail(
        account.email,
        t('mail.cancelled.subject', { number: second.orderNumber }),
      );

      for (const [mail, which] of [
        [placed, order],
        [failed, order],
        [received, order],
        [shipped, order],
        [delivered, order],
        [refunded, order],
        [cancelled, second],
      ] as const) {
        // in the customer's language: Ethiopic in an Amharic message, none in an English one
        expect(ETHIOPIC.test(mail.subject + mail.text)).toBe(lang === 'am');
        const links = linksOf(mail);
        expect(links).toEqual([`${stack.storefront}${localePath(lang, storefrontPaths.order(which._id))}`]);
        for (const link of links) {
          const opened = await opensOrder(link, lang, account, which.orderNumber);
          expect(opened.errors).toEqual([]);
          await opened.context.close();
        }
      }
    });

    it(`${lang}: a guest's order messages (email and SMS) lead to the lookup with the number filled in`, async () => {
      const product = await productInStock(stack, 5);
      const phone = lang === 'am' ? '0911 28 28 02' : '0911 28 28 01';
      const email = uniqueEmail(`guest-${lang}`);
      const added = await fetch(`${stack.api}/cart/add`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ productId: product._id, quantity: 1 }),
      });
      const cartId = ((await added.json()) as { cartId: string }).cartId;
      const res = await fetch(`${stack.api}/orders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Cart-Id': cartId },
        body: JSON.stringify({
          shippingAddress: { street: 'Piassa 4', city: 'Addis Ababa', state: 'Addis Ababa' },
          paymentMethod: 'chapa',
          guest: { name: 'Hana Tesfaye', phone, email },
          language: lang,
        }),
      });
      expect(res.status).toBe(201);
      const order = ((await res.json()) as { order: { orderNumber: string } }).order;
      const mail = await waitForMail(email, t('mail.orderPlaced.subject', { number: order.orderNumber }));
      const [sms] = await waitForSms(phone.replace(/\s/g, '').replace(/^0/, '+251'), 1);
      expect(ETHIOPIC.test(sms.text)).toBe(lang === 'am');
      const lookup = `${stack.storefront}${localePath(lang, storefrontPaths.orderLookup(order.orderNumber))}`;
      expect(linksOf(mail)).toEqual([lookup]);
      expect(linksOf(sms)).toEqual([lookup]);

      const s = await session(browser, stack, lang);
      expect((await s.page.goto(lookup))?.status()).toBe(200);
      await expect(s.page.locator('input[name=number]').inputValue()).resolves.toBe(order.orderNumber);
      await s.page.locator('input[name=phone]').fill(phone);
      await s.page.getByTestId('lookup-form').locator('button[type=submit]').click();
      await s.page.getByTestId('lookup-result').getByText(order.orderNumber).waitFor();
      expect(s.errors).toEqual([]);
      await s.context.close();
    });

    it(`${lang}: a password reset's link opens the reset form, a wishlist notice's its product and its unsubscribe`, async () => {
      const account = await customer(lang);
      expect(
        (await apiJson(stack, 'POST', '/auth/forgot-password', undefined, { email: account.email })).status,
      ).toBe(200);
      const reset = await waitForMail(account.email, t('mail.passwordReset.subject'));
      expect(ETHIOPIC.test(reset.subject + reset.text)).toBe(lang === 'am');
      const [resetLink] = linksOf(reset);
      expect(linksOf(reset)).toHaveLength(1);
      expect(new URL(resetLink).pathname).toBe(localePath(lang, '/reset-password'));
      await answers200(resetLink);
      const r = await session(browser, stack, lang);
      expect((await r.page.goto(resetLink))?.status()).toBe(200);
      await r.page.getByRole('heading', { name: t('recover.resetTitle') }).waitFor();
      await r.page.locator('input[name=password]').waitFor();
      expect(r.errors).toEqual([]);
      await r.context.close();

      const product = { name: `Moringa Oil ${lang}`, nameAm: 'የሞሪንጋ ዘይት', price: 300, stock: 5 };
      const created = await apiJson(stack, 'POST', '/products', admin, product);
      expect(created.status).toBe(201);
      const id = created.body.product._id as string;
      expect(
        (await apiJson(stack, 'POST', `/wishlist/add/${id}`, account.token, { notifyOnSale: true })).status,
      ).toBe(200);
      expect((await apiJson(stack, 'PUT', `/products/${id}`, admin, { ...product, price: 240 })).status).toBe(
        200,
      );
      const name = lang === 'am' ? product.nameAm : product.name;
      const notice = await waitForMail(account.email, t('mail.onSale.subject', { product: name }));
      const links = linksOf(notice);
      expect(links).toHaveLength(2);
      const [productLink, unsubscribe] = links;
      expect(productLink).toBe(`${stack.storefront}${localePath(lang, storefrontPaths.product(id))}`);
      expect((await answers200(productLink)).html).toContain(name);
      expect(new URL(unsubscribe).pathname).toBe(localePath(lang, '/unsubscribe'));
      expect(new URL(unsubscribe).searchParams.get('lang')).toBe(lang);
      await answers200(unsubscribe);
      // a fresh browser: the unsubscribe page asks in the message's language, no sign-in needed
      const u = await session(browser, stack);
      expect((await u.page.goto(unsubscribe))?.status()).toBe(200);
      await u.page.getByRole('heading', { name: t('unsubscribe.title') }).waitFor();
      await u.page.getByRole('button', { name: t('unsubscribe.confirm') }).waitFor();
      expect(u.errors).toEqual([]);
      await u.context.close();
    });
  }

  it('an order placed from the Amharic storefront by an account that chose no language gets Amharic messages', async () => {
    const email = uniqueEmail('am-page');
    const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Dawit Alemu',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    expect(registered.body.user.language).toBeUndefined();
    const token = registered.body.token as string;
    const product = await productInStock(stack, 5);
    expect(
      (await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 })).status,
    ).toBe(200);
    const s = await session(browser, stack, 'am');
    await s.context.addCookies([{ name: 'token', value: token, url: stack.storefront, httpOnly: true }]);
    await s.page.goto(`${stack.storefront}/checkout`);
    await s.page.locator('input[name=phone]').fill('0911 23 45 67');
    await s.page.locator('select[name=state]').selectOption('Addis Ababa');
    await s.page.locator('input[name=city]').fill('Addis Ababa');
    await s.page.locator('input[name=street]').fill('Bole Road 12');
    // Chapa (the offline test provider): the order is placed before the browser leaves for the payment page
    await s.page.locator('button[form=checkout-form][type=submit]').click();
    let order: { orderNumber: string; language?: string } | undefined;
    for (let i = 0; i < 100 && !order; i++) {
      order = (await apiJson(stack, 'GET', '/orders/my-orders', token)).body.orders[0];
      if (!order) await new Promise((r) => setTimeout(r, 100));
    }
    if (!order) throw new Error('no order placed from the Amharic checkout');
    expect(order.language).toBe('am');
    const mail = await waitForMail(
      email,
      translate('am', 'mail.orderPlaced.subject', { number: order.orderNumber }),
    );
    expect(mail.subject).toMatch(ETHIOPIC);
    expect(mail.text).toContain(translate('am', 'mail.greeting', { name: 'Dawit Alemu' }));
    await s.context.close();
  });

  it("switching language while signed in sets the account's language (en → am → en), and so does the profile", async () => {
    const email = uniqueEmail('switch');
    const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Meron Alemu',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      language: 'en',
    });
    const token = registered.body.token as string;
    const s = await session(browser, stack, 'en');
    await s.context.addCookies([{ name: 'token', value: token, url: stack.storefront, httpOnly: true }]);
    await s.page.goto(`${stack.storefront}/products`);
    const languageOf = async () => (await apiJson(stack, 'GET', '/auth/me', token)).body.user.language;
    await s.page.locator('form.language select[name=lang]').first().selectOption('am');
    await s.page.waitForFunction(() => document.documentElement.lang === 'am');
    for (let i = 0; i < 50 && (await languageOf()) !== 'am'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await languageOf()).toBe('am');
    await s.page.locator('form.language select[name=lang]').first().selectOption('en');
    await s.page.waitForFunction(() => document.documentElement.lang === 'en');
    for (let i = 0; i < 50 && (await languageOf()) !== 'en'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await languageOf()).toBe('en');
    // the profile edits it too, without changing the page's language
    await s.page.goto(`${stack.storefront}/profile?edit=1`);
    await s.page.getByTestId('profile-language').selectOption('am');
    await s.page.locator('form.acc-form button[type=submit]').first().click();
    await s.page.getByTestId('profile-messages-language').filter({ hasText: 'አማርኛ' }).waitFor();
    expect(await languageOf()).toBe('am');
    expect(await s.page.evaluate(() => document.documentElement.lang)).toBe('en');
    // a guest's switch changes no account (and still works)
    const g = await session(browser, stack, 'en');
    await g.page.goto(`${stack.storefront}/products`);
    await g.page.locator('form.language select[name=lang]').first().selectOption('am');
    await g.page.waitForFunction(() => document.documentElement.lang === 'am');
    expect(await languageOf()).toBe('am');
    expect([...s.errors, ...g.errors]).toEqual([]);
    await s.context.close();
    await g.context.close();
  });
});
