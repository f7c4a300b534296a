import type { Browser, Page } from 'playwright-core';
import { translate } from '@shop/i18n';
import { calendarYear, formatDate } from '@shop/shared';
import { STRONG_PASSWORD, accountSuite, apiJson, session, uniqueEmail } from './account-support';
import type { Stack } from './stack';

/**
 * Issue 14: an Amharic page shows no English. A signed-in customer walks the Amharic shop at a phone
 * width and a laptop width (home, catalogue, a product, the cart, checkout, the test payment page,
 * the order confirmation, My orders and an unpaid order's page); on every page the visible text
 * (text nodes that have a box, plus the title, placeholders, labels for assistive technology, image
 * texts and tooltips) may hold Latin-script words only when they are product names, brands, the
 * customer's own data, or one of the tokens of LATIN_ALLOWED.
 */

/** Latin-script words an Amharic page may show, and why. Anything else is an untranslated string. */
export const LATIN_ALLOWED: ReadonlySet<string> = new Set([
  // payment brands (Chapa and the wallets and cards it takes), written as their owners write them
  'Chapa',
  'telebirr',
  'CBE',
  'Birr',
  'M-Pesa',
  'Visa',
  'Mastercard',
  // the currency code next to 'ብር'
  'ETB',
  // the language selector names each language in itself
  'English',
  // the password rule's example password ('Shea@781'): a password is typed in Latin letters
  'Shea',
]);

/**
 * Data, not words: e-mail and web addresses, and identifiers made of letters and digits joined by
 * hyphens (order numbers `AN-10042`, payment references `bs-6b04…-56da…`). `9AM` is not one.
 */
const DATA_PATTERNS = [
  /[\w.+-]+@[\w-]+(\.[\w-]+)+/g,
  /https?:\/\/\S+/g,
  /(?<![\w-])(?=[\w-]*\d)[A-Za-z0-9]+(-[A-Za-z0-9]+)+(?![\w-])/g,
];
const LATIN_WORD = /[A-Za-z][A-Za-z'’-]*/g;

interface Seen {
  where: string;
  text: string;
}

/** The texts a reader of the page sees or hears. */
async function visibleTexts(page: Page): Promise<Seen[]> {
  return page.evaluate(() => {
    const out: { where: string; text: string }[] = [];
    const shown = (el: Element) => {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      return Array.from(el.getClientRects()).some((r) => r.width > 0 && r.height > 0);
    };
    const describe = (el: Element) =>
      el.tagName.toLowerCase() +
      (el.id ? `#${el.id}` : '') +
      (el.getAttribute('class') ? `.${el.getAttribute('class')!.trim().split(/\s+/).join('.')}` : '') +
      (el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '');
    out.push({ where: 'title', text: document.title });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      // what customers wrote (reviews) is shown as written
      if (!parent || !text || parent.closest('script, style, noscript, template, [data-user-content]'))
        continue;
      // an <option> has no box of its own: it counts when its <select> is shown
      const owner = parent.closest('option') ? parent.closest('select') : parent;
      if (!owner || !shown(owner)) continue;
      out.push({ where: describe(parent), text });
    }
    for (const el of Array.from(
      document.body.querySelectorAll('[placeholder], [aria-label], [alt], [title]'),
    )) {
      for (const attr of ['placeholder', 'aria-label', 'alt', 'title']) {
        const value = el.getAttribute(attr);
        if (value && value.trim() && shown(el) && !el.closest('[data-user-content]'))
          out.push({ where: `${describe(el)}@${attr}`, text: value });
      }
    }
    return out;
  });
}

/** The Latin words of `texts` that are neither allowed names nor allowed tokens. */
function englishIn(texts: Seen[], names: string[]): string[] {
  const longestFirst = [...names].filter(Boolean).sort((a, b) => b.length - a.length);
  const found: string[] = [];
  for (const { where, text } of texts) {
    let rest = text;
    for (const pattern of DATA_PATTERNS) rest = rest.replace(pattern, ' ');
    for (const name of longestFirst) rest = rest.split(name).join(' ');
    const words = (rest.match(LATIN_WORD) ?? []).filter((w) => !LATIN_ALLOWED.has(w));
    if (words.length) found.push(`${where}: "${text}" → ${words.join(', ')}`);
  }
  return [...new Set(found)];
}

interface TimeSeen {
  dateTime: string;
  text: string;
  title: string | null;
  secondary: string | null;
  testId: string | null;
}

/** The page's visible dates, and its text outside them (where no Gregorian year may hide in Amharic). */
async function datesOf(page: Page): Promise<{ times: TimeSeen[]; rest: string }> {
  return page.evaluate(() => {
    const times = Array.from(document.querySelectorAll('main time'))
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({
        dateTime: el.getAttribute('datetime') ?? '',
        text: (el.textContent ?? '').replace(/\s+/g, ' ').trim(),
        title: el.getAttribute('title'),
        secondary: el.querySelector('[data-testid=gregorian-date]')?.textContent ?? null,
        testId: el.getAttribute('data-testid'),
      }));
    const clone = document.body.cloneNode(true) as HTMLElement;
    // <code> holds identifiers (a payment reference is hex: 'a2037f' is no year)
    clone.querySelectorAll('time, script, style, code').forEach((el) => el.remove());
    return { times, rest: clone.innerText };
  });
}

/**
 * Every date on an Amharic page is an Ethiopian-calendar date in Ge'ez script, with the Gregorian date
 * (in Amharic words) as secondary text and tooltip; no Gregorian year (2020–2039) shows anywhere else.
 * On an English page every date is the Gregorian date written out. Returns how many dates it checked.
 */
async function checkDates(page: Page, lang: 'en' | 'am', label: string): Promise<number> {
  const { times, rest } = await datesOf(page);
  for (const time of times) {
    const at = `${label}: <time datetime=${time.dateTime}> "${time.text}"`;
    expect([at, time.dateTime]).toEqual([at, expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);
    if (lang === 'en') {
      expect([at, time.text]).toEqual([at, formatDate(time.dateTime, 'en')]);
      continue;
    }
    expect([at, time.testId]).toEqual([at, 'ethiopian-date']);
    const primary = time.text.replace(time.secondary ?? '', '');
    expect([at, primary]).toEqual([at, expect.stringMatching(/[\u1200-\u137F]/)]);
    expect([at, primary]).toEqual([at, expect.stringContaining(calendarYear(time.dateTime, 'am'))]);
    expect([at, primary]).toEqual([at, expect.not.stringContaining(calendarYear(time.dateTime, 'en'))]);
    expect([at, time.secondary]).toEqual([at, `(${time.title})`]);
    expect([at, time.title]).toEqual([at, expect.stringContaining(calendarYear(time.dateTime, 'en'))]);
    expect([at, time.title]).toEqual([at, expect.stringMatching(/^[^A-Za-z]+$/)]);
  }
  if (lang === 'am') expect([label, rest.match(/(?<![\d,.])20[23]\d(?![\d,.])/g)]).toEqual([label, null]);
  return times.length;
}

describe('Amharic pages show no English', () => {
  let stack: Stack;
  let browser: Browser;
  accountSuite((st, br) => {
    stack = st;
    browser = br;
  });

  /** Product names (English and Amharic) and brands: they are names, not words to translate. */
  let names: string[] = [];
  beforeAll(async () => {
    const { body } = await apiJson(stack, 'GET', '/products?limit=100');
    const products = body.products as { name: string; nameAm?: string; brand?: string }[];
    expect(products.length).toBeGreaterThan(10);
    names = products.flatMap((p) => [p.name, p.nameAm ?? '', p.brand ?? '']);
  });

  it('the allow-list check itself finds English and lets names and tokens through', () => {
    const texts = [
      { where: 'a', text: 'ወደ ጋሪ Add to Cart' },
      { where: 'b', text: 'Moringa Face Oil · 450 ETB በ telebirr' },
      { where: 'c', text: 'ትዕዛዝ AN-10042 · abebe@example.et · bs-6b04f0-56da8c' },
      { where: 'd', text: 'ከጠዋቱ 3 ሰዓት (9AM)' },
    ];
    expect(englishIn(texts, ['Moringa Face Oil'])).toEqual([
      'a: "ወደ ጋሪ Add to Cart" → Add, to, Cart',
      'd: "ከጠዋቱ 3 ሰዓት (9AM)" → AM',
    ]);
  });

  for (const width of [390, 1366]) {
    it(`home, catalogue, product, cart, checkout, payment, confirmation, My orders, an order page, profile, wishlist and the info pages (${width} px)`, async () => {
      const s = await session(browser, stack, 'am');
      const { page, context } = s;
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      const email = uniqueEmail(`amharic-${width}`);
      const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
        name: 'ትዕግሥት ዓለሙ',
        email,
        password: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
      });
      expect(registered.status).toBe(201);
      const token = registered.body.token as string;
      await context.addCookies([{ name: 'token', value: token, url: stack.storefront, httpOnly: true }]);
      const { body: list } = await apiJson(stack, 'GET', '/products?limit=20');
      const product = list.products.find(
        (p: { stock: number; nameAm?: string; reviewCount: number }) =>
          p.stock > 5 && p.nameAm && p.reviewCount > 0,
      );
      // the order numbers of this customer are data (like product names)
      const data: string[] = [];
      const problems: string[] = [];
      let dates = 0;
      const check = async (label: string) => {
        await page.waitForLoadState('load');
        const found = englishIn(await visibleTexts(page), [...names, ...data]);
        problems.push(...found.map((f) => `${label}: ${f}`));
        dates += await checkDates(page, 'am', label);
      };
      const t = (key: string) => translate('am', key);

      await page.goto(`${stack.storefront}/`);
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      expect(await page.getAttribute('html', 'lang')).toBe('am');
      await check('home');
      await page.goto(`${stack.storefront}/products`);
      await check('catalogue');
      await page.goto(`${stack.storefront}/product/${product._id}`);
      await check('product');

      await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
      await page.goto(`${stack.storefront}/cart`);
      await page.getByTestId('cart-line').first().waitFor();
      await check('cart');

      await page.goto(`${stack.storefront}/checkout`);
      await check('checkout');
      // a refused phone number: the message is Amharic too
      await page.locator('input[name=phone]').fill('0111 23 45 67');
      await page.locator('select[name=state]').selectOption({ label: 'ኦሮሚያ' });
      await page.locator('input[name=city]').fill('አዳማ');
      await page.locator('input[name=street]').fill('ቀበሌ 04');
      await page.getByRole('button', { name: t('checkout.payNow') }).click();
      await page.getByText(t('checkout.phoneInvalid')).first().waitFor();
      await check('checkout (refused phone)');
      await page.locator('input[name=phone]').fill('0912 34 56 78');
      await page.getByRole('button', { name: t('checkout.payNow') }).click();
      await page.waitForURL(/\/payment\/test\//);
      const mine = await apiJson(stack, 'GET', '/orders/my-orders', token);
      const order = mine.body.orders[0];
      data.push(order.orderNumber);
      await check('test payment page');

      await page.getByRole('button', { name: t('payment.testComplete') }).click();
      // an Amharic page's address is under /am/ (docs/decisions/0092-language-in-the-address.md)
      await page.waitForURL(`${stack.storefront}/am/order-confirmation/${order._id}`, { timeout: 15000 });
      await page.getByTestId('order-thanks').waitFor();
      await check('order confirmation');

      // a second order left unpaid: My orders lists both, its page offers 'Pay now'
      await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 2 });
      const unpaid = await apiJson(stack, 'POST', '/orders', token, {
        shippingAddress: { street: 'ቦሌ', city: 'አዲስ አበባ', state: 'Addis Ababa', phone: '0911000000' },
      });
      expect(unpaid.status).toBe(201);
      data.push(unpaid.body.order.orderNumber);
      await page.goto(`${stack.storefront}/orders`);
      await page.locator(`[data-order-id="${unpaid.body.order._id}"]`).waitFor();
      await check('my orders');
      await page.goto(`${stack.storefront}/order-confirmation/${unpaid.body.order._id}`);
      await page
        .getByRole('button', { name: t('orders.payNow') })
        .first()
        .waitFor();
      await check('unpaid order page');
      // the profile refuses a landline: the API's INVALID_PHONE, shown in Amharic under the field
      await page.goto(`${stack.storefront}/profile?edit=1`);
      await page.locator('input[name=phone]').fill('0111 23 45 67');
      await page.getByRole('button', { name: t('profile.save') }).click();
      await page
        .locator('#phone-error')
        .filter({ hasText: t('errors.INVALID_PHONE') })
        .waitFor();
      await check('profile (refused phone)');
      // and the rest of the signed-in customer's shop
      for (const path of ['/profile', '/wishlist', '/about', '/shipping', '/faq', '/contact']) {
        await page.goto(stack.storefront + path);
        await check(path);
      }

      await context.close();
      expect(problems).toEqual([]);
      // the product's reviews, the confirmation, two orders in My orders and the unpaid order's page
      expect(dates).toBeGreaterThanOrEqual(5);
      expect(s.errors).toEqual([]);
    });
  }

  it('English pages write Gregorian dates (reviews, My orders, an order page); the profile refuses a foreign phone in English', async () => {
    const s = await session(browser, stack, 'en');
    const { page, context } = s;
    const email = uniqueEmail('dates-en');
    const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Dawit Bekele',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    const token = registered.body.token as string;
    await context.addCookies([{ name: 'token', value: token, url: stack.storefront, httpOnly: true }]);
    const { body: list } = await apiJson(stack, 'GET', '/products?limit=20');
    const product = list.products.find(
      (p: { stock: number; reviewCount: number }) => p.stock > 5 && p.reviewCount > 0,
    );
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    const order = await apiJson(stack, 'POST', '/orders', token, {
      shippingAddress: {
        street: 'Bole Road',
        city: 'Addis Ababa',
        state: 'Addis Ababa',
        phone: '0911000000',
      },
    });
    expect(order.status).toBe(201);
    let dates = 0;
    for (const path of [
      `/product/${product._id}`,
      '/orders',
      `/order-confirmation/${order.body.order._id}`,
    ]) {
      await page.goto(stack.storefront + path);
      dates += await checkDates(page, 'en', path);
      expect(await page.locator('main [data-testid=ethiopian-date]').count()).toBe(0);
    }
    expect(dates).toBeGreaterThanOrEqual(3);
    // the API's INVALID_PHONE in English under the profile's phone field
    await page.goto(`${stack.storefront}/profile?edit=1`);
    await page.locator('input[name=phone]').fill('+254 712 345 678');
    await page.getByRole('button', { name: translate('en', 'profile.save') }).click();
    await page
      .locator('#phone-error')
      .filter({ hasText: translate('en', 'errors.INVALID_PHONE') })
      .waitFor();
    expect((await apiJson(stack, 'GET', '/users/profile', token)).body.user.phone).toBeUndefined();
    await context.close();
    expect(s.errors).toEqual([]);
  });
});
