import type { Browser, Page } from 'playwright-core';
import { translate } from '@shop/i18n';
import { formatMoney, type Currency } from '@shop/shared';
import { launchChromium, startStack, type Stack } from './stack';

const ADMIN = { email: 'admin@beauty.et', password: 'Admin@12345' };
const CUSTOMER = { email: 'customer@beauty.et', password: 'Customer@123' };
// a 1x1 transparent PNG: the upload endpoint judges images by their content
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface Stats {
  totalOrders: number;
  totalRevenue: number;
  itemsSold: number;
  totalUsers: number;
  totalProducts: number;
  currency: Currency;
}

describe('the back office in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let admin: Page;
  let adminToken: string;
  let customerToken: string;
  let pageErrors: string[];
  const unique = Date.now().toString(36);

  async function api<T = any>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; json: T; headers: Headers }> {
    const res = await fetch(`${stack.api}${path}`, {
      method,
      headers: {
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json().catch(() => undefined)) as T, headers: res.headers };
  }

  async function token(user: { email: string; password: string }, role = 'customer'): Promise<string> {
    const { status, json } = await api<{ token: string }>('POST', '/auth/login', { ...user, role });
    expect(status).toBe(200);
    return json.token;
  }

  async function newPage(): Promise<Page> {
    const page = await browser.newPage();
    page.setDefaultTimeout(15000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return page;
  }

  async function signIn(page: Page, user: { email: string; password: string }) {
    await page.goto(`${stack.admin}/admin`);
    await page.locator('input[name=email]').fill(user.email);
    await page.locator('input[name=password]').fill(user.password);
    await page.locator('button[type=submit]').click();
  }

  /** A customer's paid order of `quantity` units of the first product with enough stock. */
  async function placePaidOrder(quantity: number) {
    const { json: list } = await api<{ products: { _id: string; stock: number }[] }>(
      'GET',
      '/products?limit=50',
    );
    const product = list.products.find((p) => p.stock >= 20)!;
    await api('DELETE', '/cart/clear', undefined, customerToken);
    expect((await api('POST', '/cart/add', { productId: product._id, quantity }, customerToken)).status).toBe(
      200,
    );
    const placed = await api<{ order: { _id: string; orderNumber?: string; totalAmount: number } }>(
      'POST',
      '/orders',
      {
        shippingAddress: {
          street: 'Bole Road 12',
          city: 'Addis Ababa',
          state: 'Addis Ababa',
          zipCode: '1000',
          country: 'Ethiopia',
        },
        paymentMethod: 'chapa',
        shippingMethod: 'standard',
      },
      customerToken,
    );
    expect(placed.status).toBe(201);
    const init = await api<{ txRef: string }>(
      'POST',
      '/payments/initialize',
      { orderId: placed.json.order._id },
      customerToken,
    );
    expect(init.status).toBe(201);
    expect(
      (await api('POST', `/payments/test/${init.json.txRef}/complete`, { outcome: 'success' }, customerToken))
        .status,
    ).toBe(200);
    return placed.json.order;
  }

  beforeAll(async () => {
    // the suite signs in more often than the default per-IP sign-in limit allows
    process.env.AUTH_RATE_LIMIT = '1000';
    stack = await startStack();
    browser = await launchChromium();
    adminToken = await token(ADMIN, 'admin');
    customerToken = await token(CUSTOMER);
    pageErrors = [];
    admin = await newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  it('refuses a customer with a clear message', async () => {
    const page = await newPage();
    await signIn(page, CUSTOMER);
    await page.getByTestId('login-error').filter({ hasText: 'not an administrator' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.goto(`${stack.admin}/admin/orders`);
    await page.locator('input[name=password]').waitFor();
    await page.close();
  });

  it('signs an admin in to a dashboard whose figures count the orders the test placed', async () => {
    const before = (await api<Stats>('GET', '/admin/dashboard/stats', undefined, adminToken)).json;
    const first = await placePaidOrder(2);
    const second = await placePaidOrder(3);
    const revenue = Math.round((before.totalRevenue + first.totalAmount + second.totalAmount) * 100) / 100;

    await signIn(admin, ADMIN);
    await admin.waitForURL(/\/admin\/dashboard$/);
    await admin
      .getByTestId('total-orders')
      .filter({ hasText: String(before.totalOrders + 2) })
      .waitFor();
    expect(await admin.getByTestId('total-revenue').textContent()).toBe(
      formatMoney(revenue, before.currency),
    );
    expect(await admin.getByTestId('items-sold').textContent()).toBe(String(before.itemsSold + 5));
    expect(await admin.getByTestId('total-users').textContent()).toBe(String(before.totalUsers));
    expect(await admin.getByTestId('total-products').textContent()).toBe(String(before.totalProducts));
    await admin.getByText('Sales (last 7 days)').waitFor();
    expect(await admin.getByTestId('sales-chart').getAttribute('height')).toBe('260');
    expect(await admin.getByTestId('sales-chart').textContent()).toMatch(/\d+\.\dk/);
    // the recent activity shows the new orders as pending (yellow) then paid events
    expect(
      await admin.locator('[data-testid=recent-activity] [data-status=pending]').count(),
    ).toBeGreaterThan(0);
    // each row names its order by the number staff and customers quote (AN-10042), as the orders list does
    expect(second.orderNumber).toMatch(/^[A-Z]{2}-\d+$/);
    await admin.getByTestId('recent-activity').getByText(`Order ${second.orderNumber}:`).first().waitFor();
    // every resource is in the side menu, and so is sign-out
    for (const item of [
      'Dashboard',
      'Products',
      'Orders',
      'Users',
      'Contacts',
      'Reviews',
      'Settings',
      'Logout',
    ]) {
      await admin.getByRole('menuitem', { name: item }).first().waitFor();
    }
  });

  it('keeps the session in an httpOnly cookie only, so it survives a reload and scripts cannot read it', async () => {
    // no JWT anywhere a script can reach
    const stored = await admin.evaluate(() =>
      [sessionStorage, localStorage].flatMap((s) => Object.keys(s).map((k) => s.getItem(k) ?? '')),
    );
    expect(stored.filter((v) => /^"?eyJ/.test(v))).toEqual([]);
    expect(await admin.evaluate(() => document.cookie)).not.toMatch(/eyJ/);
    const cookies = await admin.context().cookies(stack.api);
    expect(cookies.find((c) => c.name === 'token')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });

    // a reload keeps the admin signed in: the dashboard and a list load from the cookie session
    await admin.reload();
    await admin.getByTestId('total-orders').waitFor();
    await admin.goto(`${stack.admin}/admin/orders`);
    await admin
      .getByTestId('order-count')
      .filter({ hasText: /\d+ orders?/ })
      .waitFor();
    expect(await admin.locator('input[name=password]').count()).toBe(0);
  });

  it('adds a product with an uploaded image that the storefront API then lists', async () => {
    const name = `Teff Glow Mask ${unique}`;
    await admin.goto(`${stack.admin}/admin/products`);
    await admin.getByRole('button', { name: 'Add new product' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.locator('input[name=price]').waitFor();
    await dialog.locator('input[name=name]').fill(name);
    await dialog.locator('input[name=brand]').fill('Addis Naturals');
    await dialog.locator('input[name=price]').fill('745.5');
    await dialog.locator('input[name=stock]').fill('12');
    await dialog.getByRole('combobox', { name: 'Category', exact: true }).click();
    await admin.getByRole('option', { name: 'Skincare' }).click();
    await dialog
      .locator('input[name=image-upload]')
      .setInputFiles({ name: 'mask.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByTestId('image-preview').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Product saved successfully').waitFor();
    await admin.getByText(name).waitFor();

    const { json } = await api<{
      products: { _id: string; name: string; price: number; stock: number; images: string[] }[];
    }>('GET', `/products?search=${encodeURIComponent(unique)}`);
    const product = json.products.find((p) => p.name === name)!;
    expect(product).toMatchObject({ price: 745.5, stock: 12 });
    // answered absolute, from the API's PUBLIC_API_URL
    expect(product.images[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/uploads\//);
    const image = await fetch(product.images[0]);
    expect(image.status).toBe(200);
    // kept as WebP (and AVIF) copies, never as uploaded (docs/decisions/0093-photo-variants.md)
    expect(image.headers.get('content-type')).toBe('image/webp');
    // the browser shows the uploaded image in the table
    const row = admin.locator('tr', { hasText: name });
    await admin.waitForFunction((n) => {
      const img = [...document.querySelectorAll('tr')]
        .find((tr) => tr.textContent?.includes(n))
        ?.querySelector('img');
      return Boolean(img && img.complete && img.naturalWidth > 0);
    }, name);

    // edit in the modal
    await row.getByRole('button', { name: 'Edit' }).click();
    await admin.getByRole('dialog').locator('input[name=price]').fill('799');
    await admin.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Product saved successfully').waitFor();
    await row.getByText('ETB 799.00').waitFor();
    expect((await api<{ price: number }>('GET', `/products/${product._id}`)).json.price).toBe(799);

    // delete after confirmation
    await row.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog').getByText('Are you sure you want to delete this product?').waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await admin.getByText('Product deleted successfully').waitFor();
    // deleting withdraws the product: gone from the list of products on sale and from the storefront
    await row.waitFor({ state: 'detached' });
    expect((await api('GET', `/products/${product._id}`)).status).toBe(404);
    expect(
      (await api<{ products: { name: string }[] }>('GET', `/products?search=${encodeURIComponent(unique)}`))
        .json.products,
    ).toEqual([]);
  });

  it('moves an order through pending, processing, shipped and delivered', async () => {
    const order = await placePaidOrder(1);
    await admin.goto(`${stack.admin}/admin/orders`);
    await admin
      .locator('tr', { hasText: order.orderNumber ?? order._id.slice(-6) })
      .getByTestId('status-badge')
      .filter({ hasText: 'Pending' })
      .waitFor();
    await admin
      .getByTestId('order-count')
      .filter({ hasText: /\d+ orders?/ })
      .waitFor();
    await admin.goto(`${stack.admin}/admin/orders/${order._id}`);
    const details = admin.getByTestId('order-details');
    await details.getByTestId('status-badge').filter({ hasText: 'Pending' }).waitFor();
    const move = async (label: string) => {
      await details.getByRole('combobox').click();
      // the dropdown offers only the moves the status machine allows
      await admin.getByRole('option', { name: label }).click();
      await details.getByTestId('status-badge').filter({ hasText: label }).waitFor();
    };
    await details.getByRole('combobox').click();
    expect(await admin.getByRole('option').allTextContents()).toEqual(['Pending', 'Processing', 'Cancelled']);
    await admin.keyboard.press('Escape');
    await move('Processing');
    await details.getByLabel('Tracking number').fill('ET-TRACK-42');
    await move('Shipped');
    await move('Delivered');
    await details.getByTestId('tracking-number').filter({ hasText: 'ET-TRACK-42' }).waitFor();
    expect(await details.getByRole('combobox').getAttribute('aria-disabled')).toBe('true');

    const { json } = await api<{ status: string; statusHistory: { status: string }[] }>(
      'GET',
      `/admin/orders/${order._id}`,
      undefined,
      adminToken,
    );
    expect(json.status).toBe('delivered');
    expect(json.statusHistory.map((h) => h.status)).toEqual(
      expect.arrayContaining(['pending', 'processing', 'shipped', 'delivered']),
    );
    expect(await details.getByTestId('status-history').locator('li').count()).toBe(json.statusHistory.length);
  });

  it('deactivates a user, who then cannot sign in', async () => {
    const user = { name: `Selam ${unique}`, email: `selam.${unique}@example.et`, password: 'Selam@2024!x' };
    expect((await api('POST', '/auth/register', { ...user, confirmPassword: user.password })).status).toBe(
      201,
    );
    await admin.goto(`${stack.admin}/admin/users`);
    await admin.getByPlaceholder('Name or email').fill(user.email);
    const row = admin.locator('tr', { hasText: user.email });
    await row.getByTestId('user-active').filter({ hasText: 'Active' }).waitFor();
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await admin.getByText('User status updated successfully').waitFor();
    await row.getByTestId('user-active').filter({ hasText: 'Inactive' }).waitFor();

    const login = await api<{ message: string }>('POST', '/auth/login', {
      email: user.email,
      password: user.password,
    });
    expect(login.status).toBe(403);
    expect(login.json.message).toBe('This account has been deactivated');
  });

  it('adds a user in the modal, changes their role and deletes them after confirmation', async () => {
    const email = `abebe.${unique}@example.et`;
    await admin.goto(`${stack.admin}/admin/users`);
    await admin.getByRole('button', { name: 'Add User' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.locator('input[name=name]').fill(`Abebe ${unique}`);
    await dialog.locator('input[name=email]').fill(email);
    await dialog.locator('input[name=password]').fill('Abebe@2024!x');
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await admin.getByText('User created').waitFor();
    await admin.getByPlaceholder('Name or email').fill(email);
    const row = admin.locator('tr', { hasText: email });
    await row.getByRole('combobox').click();
    await admin.getByRole('option', { name: 'Admin' }).click();
    await admin.getByText('User role updated successfully').waitFor();
    const { json: users } = await api<{ id: string; email: string; role: string }[]>(
      'GET',
      `/admin/users?filter=${encodeURIComponent(JSON.stringify({ q: email }))}`,
      undefined,
      adminToken,
    );
    expect(users.find((u) => u.email === email)?.role).toBe('admin');

    await row.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog').getByText('Are you sure you want to delete this user?').waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await admin.getByText('User deleted successfully').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await api('GET', `/admin/users/${users[0].id}`, undefined, adminToken)).status).toBe(404);
  });

  it('marks a contact message read', async () => {
    const subject = `Delivery to Bahir Dar ${unique}`;
    const sent = await api('POST', '/contacts/submit', {
      name: 'Hanna',
      email: 'hanna@example.et',
      subject,
      message: 'Do you deliver to Bahir Dar?',
    });
    expect(sent.status).toBe(201);
    await admin.goto(`${stack.admin}/admin/contacts`);
    const row = admin.locator('tr', { hasText: subject });
    await row.getByTestId('contact-status').filter({ hasText: 'Unread' }).waitFor();
    await row.getByText(subject).click();
    await admin.getByTestId('contact-detail').getByText('Do you deliver to Bahir Dar?').waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Mark as read' }).click();
    await admin.getByText('Contact status updated successfully').waitFor();
    await row.getByTestId('contact-status').filter({ hasText: 'Read' }).waitFor();

    const { json } = await api<{ subject: string; status: string }[]>(
      'GET',
      `/admin/contacts?filter=${encodeURIComponent(JSON.stringify({ q: unique }))}`,
      undefined,
      adminToken,
    );
    expect(json.find((c) => c.subject === subject)?.status).toBe('read');
  });

  it('saves the settings from their tabs', async () => {
    const siteName = `Addis Natural Beauty ${unique}`;
    await admin.goto(`${stack.admin}/admin/settings`);
    for (const tab of ['General', 'Admin Settings', 'Notifications', 'System'])
      await admin.getByRole('tab', { name: tab }).waitFor();
    await admin.getByLabel('Site name').fill(siteName);
    await admin.getByRole('tab', { name: 'Notifications' }).click();
    await admin.getByLabel('Low stock alerts').uncheck();
    await admin.getByRole('tab', { name: 'System' }).click();
    await admin.getByLabel('Express shipping (ETB)').fill('320');
    await admin.getByRole('button', { name: 'Save Changes' }).click();
    await admin.getByText('Settings saved').waitFor();

    const { json } = await api<{
      settings: { siteName: string; lowStockAlerts: boolean; expressShipping: number };
    }>('GET', '/admin/settings', undefined, adminToken);
    expect(json.settings).toMatchObject({ siteName, lowStockAlerts: false, expressShipping: 320 });
  });

  it('signs out from the menu', async () => {
    await admin.goto(`${stack.admin}/admin/dashboard`);
    await admin.getByRole('menuitem', { name: 'Logout' }).first().click();
    await admin.locator('input[name=password]').waitFor();
    expect(await admin.evaluate(() => sessionStorage.length)).toBe(0);
    // the API cleared the cookie: a reload does not bring the session back
    expect((await admin.context().cookies(stack.api)).find((c) => c.name === 'token')).toBeUndefined();
    await admin.goto(`${stack.admin}/admin/orders`);
    await admin.locator('input[name=password]').waitFor();
  });

  it('shows the back office in Amharic, react-admin texts included', async () => {
    const page = await newPage();
    await page.addInitScript(() => localStorage.setItem('language', 'am'));
    await page.goto(`${stack.admin}/admin`);
    await page.getByText('የአስተዳደር መግቢያ').waitFor();
    await signIn(page, ADMIN);
    await page.getByText('ጠቅላላ ትዕዛዞች').waitFor();
    await page.getByRole('menuitem', { name: 'ምርቶች' }).waitFor();
    await page.getByRole('menuitem', { name: 'ትዕዛዞች' }).click();
    // react-admin's own pagination text, in Amharic
    await page.getByText('ረድፎች በገጽ፦').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('am');
    // the Amharic is drawn with the self-hosted Noto Sans Ethiopic, not left to a system font
    const ethiopicFontLoaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].some(
        (f) => f.family.replace(/['"]/g, '') === 'Noto Sans Ethiopic' && f.status === 'loaded',
      );
    });
    expect(ethiopicFontLoaded).toBe(true);
    // a refusal of the API is worded from its code (OWN_ACCOUNT_DEACTIVATE) in Amharic, not in English
    await page.goto(`${stack.admin}/admin/users`);
    await page.getByPlaceholder(translate('am', 'admin.users.search')).fill(ADMIN.email);
    const row = page.locator('tr', { hasText: ADMIN.email });
    await row.getByRole('button', { name: translate('am', 'admin.users.deactivate') }).click();
    await page.getByText(translate('am', 'errors.OWN_ACCOUNT_DEACTIVATE')).waitFor();
    expect(await page.getByText('You cannot deactivate your own account').count()).toBe(0);
    await page.close();
  });
});
