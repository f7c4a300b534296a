import { staffPage as signedInStaffPage, type StaffPageOptions } from './admin-support';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { translate } from '@shop/i18n';
import { formatMoney } from '@shop/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson } from './account-support';
import { ADMIN, CUSTOMER } from './shop-support';
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
  landmark: 'Behind Edna Mall',
};

/**
 * Issue 29 in the back office: staff see a pay-on-delivery order (method in words, the amount to
 * collect on screen and on the packing slip), record the money the rider brought (then the action is
 * gone, the order is paid and the slip collects nothing), see a refusal in words; an unpaid Chapa
 * order's slip asks for nothing; the pay-on-delivery settings in both languages; the local SMS page
 * lists a sign-in code; all at 1366 px and on a 390 px phone.
 */
describe('back office: pay on delivery and local SMS (Chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let customerToken: string;
  let staffToken: string;
  /** The API's own DATA_DIR: its local SMS store holds this run's SMS only. */
  const dataDir = mkdtempSync(path.join(tmpdir(), 'admin-cod-sms-'));
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  const staffPage = (options: StaffPageOptions = {}): Promise<Page> =>
    signedInStaffPage(browser, stack.admin, options, contexts, pageErrors);

  /** One unit of a product under ETB 2,000 ordered by the seeded customer, to Addis Ababa. */
  async function placeOrder(paymentMethod: 'cash_on_delivery' | 'chapa'): Promise<PlacedOrder> {
    const { body } = await apiJson(stack, 'GET', '/products?limit=50');
    const product = body.products.find(
      (p: { stock: number; price: number }) => p.stock >= 5 && p.price < 2000,
    );
    await apiJson(stack, 'DELETE', '/cart/clear', customerToken);
    expect(
      (await apiJson(stack, 'POST', '/cart/add', customerToken, { productId: product._id, quantity: 1 }))
        .status,
    ).toBe(200);
    const placed = await apiJson(stack, 'POST', '/orders', customerToken, {
      shippingAddress: ADDRESS,
      shippingMethod: 'standard',
      paymentMethod,
    });
    expect({ status: placed.status, body: placed.status === 201 ? undefined : placed.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return placed.body.order;
  }

  /** The SMS the local store holds for a number, newest first, once one has arrived (they go out through the outbox). */
  async function smsTo(phone: string): Promise<{ text: string }[]> {
    const filter = encodeURIComponent(JSON.stringify({ q: phone }));
    for (let i = 0; i < 50; i++) {
      const { body } = await apiJson(stack, 'GET', `/admin/sms?filter=${filter}`, staffToken);
      if (body.length > 0) return body;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no SMS to ${phone}`);
  }

  /** Whether the page is wider than the screen (something does not fit a phone). */
  const overflows = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

  /** The packing slip's payment line, read as printed. */
  async function slipPayment(page: Page): Promise<string> {
    await page.emulateMedia({ media: 'print' });
    const slip = page.getByTestId('packing-slip');
    await slip.waitFor({ state: 'visible' });
    const text = (await slip.getByTestId('slip-payment').textContent()) ?? '';
    await page.emulateMedia({ media: 'screen' });
    return text;
  }

  beforeAll(async () => {
    stack = await startStack({
      apiEnv: { AUTH_RATE_LIMIT: '1000', DATA_DIR: dataDir, NOTIFICATIONS_INTERVAL_MS: '200' },
    });
    browser = await launchChromium();
    const login = await apiJson(stack, 'POST', '/auth/login', undefined, CUSTOMER);
    customerToken = login.body.token;
    staffToken = (await apiJson(stack, 'POST', '/auth/login', undefined, ADMIN)).body.token;
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('records the payment of a pay-on-delivery order; the slip collects before and not after', async () => {
    const order = await placeOrder('cash_on_delivery');
    const amount = formatMoney(order.totalAmount, 'ETB', 'en');
    const page = await staffPage();

    // the list names the method in words, never the raw value
    await page.goto(`${stack.admin}/admin/orders`);
    const row = page.locator('tbody tr', { hasText: order.orderNumber });
    await row.getByTestId('payment-method').filter({ hasText: 'Pay on delivery' }).waitFor();
    expect(await page.getByText('cash_on_delivery').count()).toBe(0);

    await page.goto(`${stack.admin}/admin/orders/${order._id}`);
    const details = page.getByTestId('order-details');
    await details.getByTestId('payment-method-text').filter({ hasText: 'Pay on delivery' }).waitFor();
    await details
      .getByTestId('collect-due')
      .filter({ hasText: `Collect ${amount} on delivery` })
      .waitFor();
    expect(await slipPayment(page)).toBe(`Collect ${amount} on delivery`);

    // staff record the rider's money with a reference
    await details.getByTestId('record-collected').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('collect-amount').filter({ hasText: amount }).waitFor();
    await dialog.locator('input[name=reference]').fill('TB-7781');
    await dialog.getByTestId('collect-confirm').click();
    await page.getByText('Payment recorded: the order is paid').waitFor();

    // then the action is gone, the state says paid, and the slip collects nothing
    await details.locator('[data-testid=payment-badge][data-payment=paid]').waitFor();
    await details.getByTestId('payment-reference').filter({ hasText: 'TB-7781' }).waitFor();
    expect(await details.getByTestId('record-collected').count()).toBe(0);
    expect(await details.getByTestId('collect-due').count()).toBe(0);
    expect(await slipPayment(page)).toBe('PAID: collect nothing');

    const { body } = await apiJson(stack, 'GET', `/orders/${order._id}`, customerToken);
    expect(body.order ?? body).toMatchObject({ paymentStatus: 'paid', paymentMethod: 'cash_on_delivery' });
  });

  it("says the API's refusal in words when the payment was recorded meanwhile, and shows the order as it is", async () => {
    const order = await placeOrder('cash_on_delivery');
    const page = await staffPage();
    await page.goto(`${stack.admin}/admin/orders/${order._id}`);
    const details = page.getByTestId('order-details');
    await details.getByTestId('record-collected').click();

    // another staff session records it first (straight through the API)
    const first = await apiJson(
      stack,
      'POST',
      `/admin/orders/${order._id}/payment/collected`,
      staffToken,
      {},
    );
    expect(first.status).toBe(200);

    await page.getByRole('dialog').getByTestId('collect-confirm').click();
    await page.getByText(translate('en', 'admin.orders.collect.notCollectable')).waitFor();
    await details.locator('[data-testid=payment-badge][data-payment=paid]').waitFor();
    expect(await details.getByTestId('record-collected').count()).toBe(0);
  });

  it("says nothing to collect on an unpaid Chapa order's slip, and offers no collection", async () => {
    const order = await placeOrder('chapa');
    const page = await staffPage();
    await page.goto(`${stack.admin}/admin/orders/${order._id}`);
    const details = page.getByTestId('order-details');
    await details.getByTestId('payment-method-text').filter({ hasText: 'Chapa' }).waitFor();
    await details.locator('[data-testid=payment-badge][data-payment=unpaid]').waitFor();
    expect(await details.getByTestId('record-collected').count()).toBe(0);
    expect(await slipPayment(page)).toBe('Nothing to collect');
  });

  it('shows a pay-on-delivery order in Amharic on a 390 px phone, and records it there', async () => {
    const order = await placeOrder('cash_on_delivery');
    const amount = formatMoney(order.totalAmount, 'ETB', 'am');
    const page = await staffPage({ lang: 'am', phone: true });
    await page.goto(`${stack.admin}/admin/orders`);
    const item = page.locator('li', { hasText: order.orderNumber }).first();
    await item.getByTestId('payment-method').filter({ hasText: 'ሲደርስ የሚከፈል' }).waitFor();
    expect(await overflows(page)).toBe(false);

    await page.goto(`${stack.admin}/admin/orders/${order._id}`);
    const details = page.getByTestId('order-details');
    await details
      .getByTestId('collect-due')
      .filter({ hasText: translate('am', 'admin.orders.slipCollect', { amount }) })
      .waitFor();
    expect(await overflows(page)).toBe(false);
    await details.getByTestId('record-collected').click();
    await page.getByRole('dialog').getByTestId('collect-confirm').click();
    await page.getByText(translate('am', 'admin.orders.collect.done')).waitFor();
    await details.locator('[data-testid=payment-badge][data-payment=paid]').waitFor();
    expect(await details.getByTestId('record-collected').count()).toBe(0);
    expect(await slipPayment(page)).toBe(translate('am', 'admin.orders.slipPaid'));
  });

  it('lists a sign-in code SMS on the local SMS page, beside local mail in the menu', async () => {
    const requested = await apiJson(stack, 'POST', '/auth/otp/request', undefined, {
      phone: '0912 34 56 78',
    });
    expect(requested.status).toBe(202);
    // this run's store (its own DATA_DIR) holds exactly this one SMS for the number
    const [sms] = await smsTo('+251912345678');
    expect(sms.text).toMatch(/sign-in code is \d{6}\b/);
    const page = await staffPage();
    await page.getByRole('menuitem', { name: 'Local SMS (development)' }).click();
    await page.waitForURL(/\/admin\/sms/);
    const row = page.locator('tbody tr', { hasText: '+251912345678' });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId('sms-text').textContent()).toBe(sms.text);
    // the time in the shop's clock, as the other pages write it (no raw ISO timestamp)
    expect(await row.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T/);

    // on a phone, in Amharic, the same SMS without overflowing the screen
    const phone = await staffPage({ lang: 'am', phone: true });
    await phone.goto(`${stack.admin}/admin/sms`);
    await phone.getByTestId('sms-to').filter({ hasText: '+251912345678' }).first().waitFor();
    await phone.getByText(translate('am', 'outbox.smsTitle')).first().waitFor();
    expect(await overflows(phone)).toBe(false);
  });

  it("shows a guest's order with a Guest badge and its name and phone, and a phone-only account by its phone", async () => {
    // a guest's pay-on-delivery order from a guest cart
    const { body: products } = await apiJson(stack, 'GET', '/products?limit=50');
    const product = products.products.find(
      (p: { stock: number; price: number }) => p.stock >= 5 && p.price < 2000,
    );
    const added = await apiJson(stack, 'POST', '/cart/add', undefined, {
      productId: product._id,
      quantity: 1,
    });
    expect(added.status).toBe(200);
    const res = await fetch(`${stack.api}/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Cart-Id': added.body.cartId },
      body: JSON.stringify({
        shippingAddress: { ...ADDRESS, phone: '0914 11 22 33' },
        shippingMethod: 'standard',
        paymentMethod: 'cash_on_delivery',
        guest: { name: 'Tigist Guest', phone: '0914 11 22 33' },
      }),
    });
    expect(res.status).toBe(201);
    const guestOrder: PlacedOrder = ((await res.json()) as { order: PlacedOrder }).order;

    const page = await staffPage();
    await page.goto(`${stack.admin}/admin/orders`);
    const row = page.locator('tbody tr', { hasText: guestOrder.orderNumber });
    await row.getByTestId('guest-badge').filter({ hasText: 'Guest' }).waitFor();
    expect(await row.getByTestId('order-customer').textContent()).toBe('Tigist Guest');
    expect(await row.getByTestId('order-phone').textContent()).toBe('+251914112233');
    // an account's order carries no badge
    expect(
      await page
        .locator('tbody tr', { hasNotText: guestOrder.orderNumber })
        .getByTestId('guest-badge')
        .count(),
    ).toBe(0);
    await page.goto(`${stack.admin}/admin/orders/${guestOrder._id}`);
    const details = page.getByTestId('order-details');
    await details.getByTestId('guest-badge').first().waitFor();
    expect(await details.getByTestId('order-customer').textContent()).toBe('Tigist Guest');
    await details.getByTestId('record-collected').waitFor();

    // an account made by phone sign-in: no email, no name yet
    const phoneNumber = '+251915667788';
    expect(
      (await apiJson(stack, 'POST', '/auth/otp/request', undefined, { phone: phoneNumber })).status,
    ).toBe(202);
    const sms = await smsTo(phoneNumber);
    const code = /\b(\d{6})\b/.exec(sms[0].text)![1];
    const verified = await apiJson(stack, 'POST', '/auth/otp/verify', undefined, {
      phone: phoneNumber,
      code,
    });
    expect({ status: verified.status, created: verified.body.created }).toEqual({
      status: 200,
      created: true,
    });
    await page.goto(`${stack.admin}/admin/users`);
    const user = page.locator('tbody tr', { hasText: phoneNumber });
    expect(await user.getByTestId('user-identity').textContent()).toBe(
      `${phoneNumber}${translate('en', 'admin.users.noEmail')}`,
    );
  });

  it('edits where pay on delivery is offered, with region names and messages in both languages', async () => {
    const page = await staffPage();
    await page.goto(`${stack.admin}/admin/settings`);
    await page.getByTestId('settings-tab-cod').click();
    const panel = page.getByTestId('cod-settings');
    // the defaults: Addis Ababa and Dire Dawa, up to ETB 10,000
    expect(await panel.getByTestId('cod-region').allTextContents()).toEqual(['Addis Ababa', 'Dire Dawa']);
    const max = panel.locator('input[name="cashOnDelivery.maxOrderTotal"]');
    expect(await max.inputValue()).toBe('10000');

    // a cleared total is refused in words and nothing is saved
    await max.fill('');
    await panel.getByText(translate('en', 'admin.settings.cod.maxInvalid')).waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText(translate('en', 'admin.settings.cod.invalid')).waitFor();
    expect(
      (await apiJson(stack, 'GET', '/admin/settings', staffToken)).body.settings.cashOnDelivery.maxOrderTotal,
    ).toBe(10000);

    // Oromia added, total lowered: saved as the API keeps them
    await max.fill('5000');
    await panel.getByRole('combobox').click();
    await page.getByTestId('cod-region-OR').click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Settings saved').waitFor();
    expect((await apiJson(stack, 'GET', '/admin/settings', staffToken)).body.settings.cashOnDelivery).toEqual(
      {
        enabled: true,
        regions: ['Addis Ababa', 'Dire Dawa', 'Oromia'],
        maxOrderTotal: 5000,
      },
    );
    // the storefront decides what to offer from the public settings
    expect((await apiJson(stack, 'GET', '/settings/public')).body.settings.cashOnDelivery).toMatchObject({
      regions: ['Addis Ababa', 'Dire Dawa', 'Oromia'],
      maxOrderTotal: 5000,
    });

    // in Amharic on a phone: the regions in Amharic, no region while on is refused in Amharic
    const phone = await staffPage({ lang: 'am', phone: true });
    await phone.goto(`${stack.admin}/admin/settings`);
    await phone.getByTestId('settings-tab-cod').click();
    const amPanel = phone.getByTestId('cod-settings');
    expect(await amPanel.getByTestId('cod-region').allTextContents()).toEqual(['አዲስ አበባ', 'ድሬ ዳዋ', 'ኦሮሚያ']);
    await amPanel.getByRole('combobox').click();
    for (const code of ['AA', 'DD', 'OR']) await phone.getByTestId(`cod-region-${code}`).click();
    await phone.keyboard.press('Escape');
    await amPanel.getByText(translate('am', 'admin.settings.cod.regionsRequired')).waitFor();
    expect(await overflows(phone)).toBe(false);
  });
});
