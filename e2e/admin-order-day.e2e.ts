import { staffPage as signedInStaffPage } from './admin-support';
import { translate } from '@shop/i18n';
import { formatMoney } from '@shop/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson } from './account-support';
import { CUSTOMER } from './shop-support';
import { launchChromium, startStack, type Stack } from './stack';

interface PlacedOrder {
  _id: string;
  orderNumber: string;
  totalAmount: number;
}

const ADDRESS = {
  street: 'Bole Road 12',
  city: 'Addis Ababa',
  state: 'Addis Ababa',
  country: 'Ethiopia',
  phone: '+251911234567',
};

const am = (key: string, params?: Record<string, string | number>) =>
  translate('am', `admin.orders.${key}`, params);

/**
 * Issue 34.1–3 on the order page, in Amharic at 1366 px and on a 390 px phone
 * (docs/decisions/0080-fulfilment-refunds-notes.md): a failed Chapa payment offers only
 * cancelling and says why; a paid order offers processing, takes an internal note (author and
 * time) and a part refund (amount defaulting to what is left, reason required), then shows it
 * partly refunded; no sideways scrolling and no Latin words but names and brands.
 */
describe('back office: an order’s day in Amharic (Chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let customerToken: string;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  /** The back office in Amharic, signed in, on a 390 px phone or a 1366 px desktop. */
  const staffPage = (phone: boolean): Promise<Page> =>
    signedInStaffPage(browser, stack.admin, { lang: 'am', phone }, contexts, pageErrors);

  /** One unit of a product under ETB 2,000 ordered by the seeded customer through Chapa, paid or failed. */
  async function chapaOrder(outcome: 'success' | 'failed'): Promise<PlacedOrder> {
    const { body } = await apiJson(stack, 'GET', '/products?limit=50');
    const product = body.products.find(
      (p: { stock: number; price: number }) => p.stock >= 5 && p.price < 2000,
    );
    await apiJson(stack, 'DELETE', '/cart/clear', customerToken);
    await apiJson(stack, 'POST', '/cart/add', customerToken, { productId: product._id, quantity: 1 });
    const placed = await apiJson(stack, 'POST', '/orders', customerToken, {
      shippingAddress: ADDRESS,
      shippingMethod: 'standard',
      paymentMethod: 'chapa',
    });
    expect(placed.status).toBe(201);
    const order = placed.body.order as PlacedOrder;
    const init = await apiJson(stack, 'POST', '/payments/initialize', customerToken, { orderId: order._id });
    const done = await apiJson(stack, 'POST', `/payments/test/${init.body.txRef}/complete`, customerToken, {
      outcome,
    });
    expect(done.status).toBe(200);
    return order;
  }

  const overflows = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

  /** Latin words in a part of the page, but the payment brand Chapa and what the test put there itself. */
  async function latinWords(page: Page, testId: string, allowed: string[] = []): Promise<string[]> {
    const text = (await page.getByTestId(testId).innerText()).replace(/Chapa/g, '');
    const words = text.match(/[A-Za-z]{2,}/g) ?? [];
    return words.filter((w) => !allowed.some((a) => a.includes(w)));
  }

  beforeAll(async () => {
    stack = await startStack({ apiEnv: { AUTH_RATE_LIMIT: '1000' } });
    browser = await launchChromium();
    customerToken = (await apiJson(stack, 'POST', '/auth/login', undefined, CUSTOMER)).body.token;
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
  });

  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it.each([
    ['1366 px', false],
    ['a 390 px phone', true],
  ])('at %s: a failed payment offers only cancelling and says why', async (_size, phone) => {
    const order = await chapaOrder('failed');
    const page = await staffPage(phone);
    await page.goto(`${stack.admin}/admin/orders/${order._id}`);
    const details = page.getByTestId('order-details');
    await details
      .getByTestId('payment-badge')
      .filter({ hasText: am('paymentStatuses.failed') })
      .waitFor();
    await page
      .getByTestId('not-paid-hint')
      .filter({ hasText: am('notPaidFailed') })
      .waitFor();
    expect(await page.getByTestId('next-steps').locator('p').first().innerText()).toBe(
      am('nextSteps', { steps: am('status.cancelled') }),
    );
    await details.getByRole('combobox').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      am('status.pending'),
      am('status.cancelled'),
    ]);
    await page.keyboard.press('Escape');
    // nothing to refund: no refund action
    expect(await page.getByTestId('refund-open').count()).toBe(0);
    expect(await latinWords(page, 'next-steps')).toEqual([]);
    expect(await overflows(page)).toBe(false);
  });

  it.each([
    ['1366 px', false],
    ['a 390 px phone', true],
  ])('at %s: a paid order offers processing, takes a note and a part refund', async (_size, phone) => {
    const order = await chapaOrder('success');
    const page = await staffPage(phone);
    await page.goto(`${stack.admin}/admin/orders/${order._id}`);
    const details = page.getByTestId('order-details');
    await details
      .getByTestId('payment-badge')
      .filter({ hasText: am('paymentStatuses.paid') })
      .waitFor();
    await page
      .getByTestId('next-steps')
      .filter({
        hasText: am('nextSteps', {
          steps: [am('status.processing'), am('status.cancelled')].join(am('listSeparator')),
        }),
      })
      .waitFor();
    expect(await page.getByTestId('not-paid-hint').count()).toBe(0);

    // an internal note, with its author and time
    const text = 'ደንበኛው ከ11 ሰዓት በኋላ እንዲደርስ ጠይቋል';
    const notes = page.getByTestId('order-notes');
    await notes.getByText(am('notes.empty')).waitFor();
    await notes.getByLabel(am('notes.add')).fill(text);
    await notes.getByTestId('note-add').click();
    const note = notes.getByTestId('order-note').filter({ hasText: text });
    await note.waitFor();
    expect(await note.innerText()).toContain('Admin');
    expect(await latinWords(page, 'order-notes', ['Selam Admin'])).toEqual([]);

    // a part refund: the amount defaults to what is left, a reason is required
    await page.getByTestId('refund-open').click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByTestId('refund-left')
      .filter({ hasText: am('refund.left', { amount: formatMoney(order.totalAmount, 'ETB', 'am') }) })
      .waitFor();
    const amount = dialog.getByLabel(am('refund.amount'));
    expect(await amount.inputValue()).toBe(String(order.totalAmount));
    await dialog.getByTestId('refund-submit').click();
    await dialog.getByText(am('refund.reasonRequired')).waitFor();
    await amount.fill('100');
    await dialog.getByLabel(am('refund.reason'), { exact: false }).fill('አንድ ማሰሮ ተሰብሮ ደርሷል');
    expect(await latinWords(page, 'refund-left')).toEqual([]);
    await dialog.getByTestId('refund-submit').click();
    await page.getByText(am('refund.done')).first().waitFor();
    await details
      .getByTestId('payment-badge')
      .filter({ hasText: am('paymentStatuses.partially_refunded') })
      .waitFor();
    await page.getByTestId('refund-list').filter({ hasText: 'አንድ ማሰሮ ተሰብሮ ደርሷል' }).waitFor();
    await page
      .getByTestId('refunded-total')
      .filter({ hasText: formatMoney(100, 'ETB', 'am') })
      .waitFor();
    expect(await overflows(page)).toBe(false);

    // the customer's order shows neither the note nor the refund's reason
    const mine = await apiJson(stack, 'GET', `/orders/${order._id}`, customerToken);
    expect(JSON.stringify(mine.body)).not.toContain(text);
    expect(JSON.stringify(mine.body)).not.toContain('ማሰሮ');
  });
});
