import type { Browser, Page } from 'playwright-core';
import {
  addEthiopicCodePoints,
  badEthiopicRuns,
  ethiopicFonts,
  loadedFontFiles,
  missingGlyphs,
  type FontUse,
} from './font-check';
import { apiJson, STRONG_PASSWORD, uniqueEmail } from './account-support';
import { launchChromium, startStack, type Stack } from './stack';

const ADMIN = { email: 'admin@beauty.et', password: 'Admin@12345' };

/**
 * Issue 15: in Amharic every Ethiopic text node of the back office is drawn by a font that has
 * Ethiopic glyphs (the self-hosted Noto Sans Ethiopic), whatever its weight or element: dashboard
 * cards and chart, menus, list headers and badges, form labels and inputs, dialogs and dropdowns.
 * In English the Ethiopic text is the customers' own (names, addresses, Amharic product names) and the
 * language menu: it must be drawn by the same font, inside English-styled tables and headings.
 */
describe('the back office draws every Ethiopic text with an Ethiopic font', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const seen: FontUse[] = [];

  async function check(label: string, ready: () => Promise<unknown>) {
    await ready();
    const uses = await ethiopicFonts(page);
    seen.push(...uses);
    expect({ label, bad: badEthiopicRuns(uses) }).toEqual({ label, bad: [] });
    return uses;
  }

  beforeAll(async () => {
    process.env.AUTH_RATE_LIMIT = '1000';
    stack = await startStack();
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(20000);
    await page.addInitScript(() => localStorage.setItem('language', 'am'));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('on the sign-in page, the dashboard and the menus', async () => {
    await page.goto(`${stack.admin}/admin`);
    await check('sign-in', () => page.getByText('የአስተዳደር መግቢያ').waitFor());
    await page.reload();
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/admin\/dashboard$/);
    const dashboard = await check('dashboard', async () => {
      await page.getByTestId('total-orders').filter({ hasText: /\d/ }).waitFor();
      await page
        .getByTestId('sales-chart')
        .or(page.getByText('ምንም ሽያጭ', { exact: false }))
        .first()
        .waitFor();
    });
    // the active menu item (bold), the cards' labels and the chart's title are among them
    expect(dashboard.some((u) => u.where.includes('menuitem'))).toBe(true);
    expect(dashboard.length).toBeGreaterThan(15);

    // the language switcher, open
    await page.reload();
    await page.getByTestId('total-orders').filter({ hasText: /\d/ }).waitFor();
    await page
      .getByRole('button', { name: /ቋንቋ|language|አማርኛ/i })
      .first()
      .click();
    await check('language menu', () => page.getByRole('menuitem', { name: 'አማርኛ' }).waitFor());
  });

  it('on the lists, with their filters, badges and pagination', async () => {
    for (const path of ['orders', 'products', 'users', 'contacts', 'reviews', 'audit']) {
      await page.goto(`${stack.admin}/admin/${path}`);
      await check(path, async () => {
        await page.locator('table tbody tr, .RaEmpty-message, [data-testid=orders-empty]').first().waitFor();
        await page.waitForLoadState('networkidle');
      });
    }
  });

  it('on the forms, dialogs and dropdowns', async () => {
    await page.goto(`${stack.admin}/admin/products`);
    await page.getByRole('button', { name: 'አዲስ ምርት ጨምር' }).click();
    await check('product form', () => page.getByRole('dialog').locator('input[name=name]').waitFor());

    await page.goto(`${stack.admin}/admin/orders`);
    await page.getByTestId('status-select').first().waitFor({ state: 'attached' });
    await page.locator('[data-testid=status-badge]').first().waitFor();
    await page
      .getByRole('combobox')
      .filter({ hasNot: page.locator('[aria-disabled=true]') })
      .last()
      .click();
    await check('status dropdown', () => page.getByRole('option').first().waitFor());

    await page.goto(`${stack.admin}/admin/settings`);
    await check('settings', () => page.getByRole('tab').first().waitFor());
    expect(seen.length).toBeGreaterThan(60);
  });

  it('in English, on the Amharic text customers typed: names and addresses', async () => {
    const name = 'ሰላም ታደሰ';
    const email = uniqueEmail('font-en');
    const reg = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name,
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    expect(reg.status).toBe(201);
    const products = await apiJson<{ products: { _id: string; stock: number }[] }>(
      stack,
      'GET',
      '/products?limit=50',
    );
    const product = products.body.products.find((p) => p.stock >= 5)!;
    expect(
      (await apiJson(stack, 'POST', '/cart/add', reg.body.token, { productId: product._id, quantity: 1 }))
        .status,
    ).toBe(200);
    const placed = await apiJson<{ order: { _id: string } }>(stack, 'POST', '/orders', reg.body.token, {
      shippingAddress: {
        street: 'ቦሌ መንገድ 12',
        city: 'አዲስ አበባ',
        state: 'Addis Ababa',
        landmark: 'ከመድኃኔዓለም ቤተ ክርስቲያን አጠገብ',
        country: 'Ethiopia',
        phone: '+251911223344',
      },
      paymentMethod: 'chapa',
      shippingMethod: 'standard',
    });
    expect(placed.status).toBe(201);

    const context = await browser.newContext();
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    const english = await context.newPage();
    english.setDefaultTimeout(20000);
    const previous = page;
    page = english;
    try {
      await page.goto(`${stack.admin}/admin`);
      await page.locator('input[name=email]').fill(ADMIN.email);
      await page.locator('input[name=password]').fill(ADMIN.password);
      await page.locator('button[type=submit]').click();
      await page.waitForURL(/\/admin\/dashboard$/);
      await page.getByText('Dashboard').first().waitFor();

      await page.goto(`${stack.admin}/admin/orders`);
      const list = await check('orders list (en)', () =>
        page.locator('tr', { hasText: name }).first().waitFor(),
      );
      expect(list.some((u) => u.text.includes('ሰላም'))).toBe(true);

      await page.goto(`${stack.admin}/admin/orders/${placed.body.order._id}`);
      const show = await check('order page (en)', () =>
        page.getByTestId('order-details').getByText('አዲስ አበባ', { exact: false }).first().waitFor(),
      );
      expect(show.some((u) => u.text.includes('መድኃኔዓለም'))).toBe(true);

      await page.goto(`${stack.admin}/admin/users`);
      await check('users list (en)', () => page.locator('tr', { hasText: email }).waitFor());

      await page
        .getByRole('button', { name: /language|english|ቋንቋ/i })
        .first()
        .click();
      await check('language menu (en)', () => page.getByRole('menuitem', { name: 'አማርኛ' }).waitFor());
    } finally {
      page = previous;
      await context.close();
    }
  });
  it("loads the Amharic cut in the theme's three weights, which has a glyph for every Ethiopic character drawn", async () => {
    const fontFiles = await loadedFontFiles(page);
    // never the package's whole Ethiopic face (75 KB per weight)
    expect(fontFiles.filter((f) => f.includes('ethiopic-ethiopic'))).toEqual([]);
    const cuts = fontFiles.filter((f) => /\/amharic-[457]00-[\w-]+\.woff2$/.test(f));
    expect(cuts.map((f) => /amharic-([457]00)-/.exec(f)![1]).sort()).toEqual(['400', '500', '700']);
    // every Ethiopic character the tests above saw drawn (the menus, lists, forms, customers' text)
    const drawn = new Set<number>();
    for (const use of seen) addEthiopicCodePoints(use.text, drawn);
    expect(drawn.size).toBeGreaterThan(100);
    for (const url of cuts) {
      const woff2 = Buffer.from(await (await fetch(url)).arrayBuffer());
      expect({ url, missing: missingGlyphs(woff2, drawn) }).toEqual({ url, missing: [] });
    }
  });
});
