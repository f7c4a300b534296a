import type { Browser, BrowserContext } from 'playwright-core';
import { translate } from '@shop/i18n';
import { apiJson } from './account-support';
import { staffPage } from './admin-support';
import { launchChromium, startStack, type Stack } from './stack';

/**
 * Issue 30.2 in the back office, in Amharic on a 390 px phone: staff create a coupon code (typed in
 * lower case, saved in capitals), see it in the list with its uses, and deactivate it
 * (docs/decisions/0096-coupon-codes.md).
 */
describe('back office coupon codes in Amharic (390 px)', () => {
  let stack: Stack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const t = (key: string, params?: Record<string, string | number>) => translate('am', key, params);

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
  });

  it('creates a code, lists it with its uses and deactivates it', async () => {
    const page = await staffPage(browser, stack.admin, { lang: 'am', phone: true }, contexts, pageErrors);
    await page.goto(`${stack.admin}/admin/coupons/create`);
    await page.getByText(t('admin.coupons.add')).first().waitFor();
    await page.locator('input[name=code]').fill('timket20');
    await page.locator('input[name=value]').fill('20');
    await page.locator('input[name=usageLimit]').fill('100');
    const [saved201] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/admin/coupons')),
      page.locator('button[type=submit]').click(),
    ]);
    expect(saved201.status()).toBe(201);
    await page.waitForURL(/\/admin\/coupons$/);
    const row = page.locator('tr', { hasText: 'TIMKET20' });
    await row.waitFor();
    expect(await row.textContent()).toContain('20%');
    expect(await row.textContent()).toContain('0 / 100');

    const login = await apiJson(stack, 'POST', '/auth/login', undefined, {
      email: 'admin@beauty.et',
      password: 'Admin@12345',
    });
    const list = await apiJson(stack, 'GET', '/admin/coupons', login.body.token);
    const saved = list.body.find((c: { code: string }) => c.code === 'TIMKET20');
    expect(saved).toMatchObject({ kind: 'percent', value: 20, usageLimit: 100, active: true, uses: 0 });

    await row.getByRole('button', { name: t('admin.coupons.deactivate') }).click();
    await page.locator('.ra-confirm').click();
    await page.getByText(t('admin.coupons.deactivated')).waitFor();
    const after = await apiJson(stack, 'GET', `/admin/coupons/${saved.id}`, login.body.token);
    expect(after.body.active).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
