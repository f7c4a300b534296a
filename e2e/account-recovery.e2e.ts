import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { translate } from '@shop/i18n';
import { STRONG_PASSWORD, apiJson, launch, session, uniqueEmail } from './account-support';
import { startStack, type Stack } from './stack';

/** Mails the API's local SMTP server kept under DATA_DIR/mail for one recipient. */
function mailsTo(dir: string, to: string): { subject: string; text: string }[] {
  let names: string[] = [];
  try {
    names = readdirSync(path.join(dir, 'mail')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .map(
      (n) =>
        JSON.parse(readFileSync(path.join(dir, 'mail', n), 'utf8')) as {
          to: string;
          subject: string;
          text: string;
        },
    )
    .filter((m) => m.to === to);
}

/**
 * Account recovery in Chromium over the running stack: 'Forgot password?' on the sign-in page, the
 * mail the API really sent (through its local SMTP server), the link, a new password, the old session
 * ended, and signing in with the new password.
 */
describe('account recovery', () => {
  let stack: Stack;
  let browser: Browser;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'recovery-'));

  beforeAll(async () => {
    stack = await startStack({
      apiEnv: { AUTH_RATE_LIMIT: '1000', DATA_DIR: dataDir, NOTIFICATIONS_INTERVAL_MS: '200' },
    });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resets a forgotten password from the sign-in page and signs in with the new one', async () => {
    const t = (key: string) => translate('en', key);
    const email = uniqueEmail('recovery');
    const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Meron Alemu',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    expect(registered.status).toBe(201);
    const oldToken = registered.body.token as string;

    const s = await session(browser, stack);
    const { page } = s;
    await page.goto(`${stack.storefront}/signin`);
    await page.getByRole('link', { name: t('recover.forgotLink') }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.locator('input[name=email]').fill(email);
    await page.getByRole('button', { name: t('recover.send') }).click();
    await page.getByText(t('recover.sent')).waitFor();

    let mail: { subject: string; text: string } | undefined;
    for (let i = 0; i < 200 && !mail; i++) {
      mail = mailsTo(dataDir, email).find((m) => m.subject === 'Reset your password');
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail).toBeDefined();
    const link = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(link).toBeDefined();
    expect(link!.startsWith(stack.storefront)).toBe(true);

    await page.goto(link!);
    await page.locator('input[name=password]').fill('Koso@Tree2031');
    await page.locator('input[name=confirmPassword]').fill('Koso@Tree2031');
    await page.getByRole('button', { name: t('recover.save') }).click();
    await page.waitForURL(/\/signin\?reset=1$/);
    await page.getByText(t('recover.done')).waitFor();

    // the session from before the reset is over; the old password no longer works
    expect((await apiJson(stack, 'GET', '/auth/me', oldToken)).status).toBe(401);
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: t('auth.signIn') }).click();
    await page.locator('.acc-alert').waitFor();

    await page.locator('input[name=password]').fill('Koso@Tree2031');
    await page.getByRole('button', { name: t('auth.signIn') }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
    await page.goto(`${stack.storefront}/profile`);
    await page.waitForURL(/\/profile$/);
    await page.locator('main').getByText(email).first().waitFor();

    // the link was single-use
    await page.context().clearCookies();
    await page.goto(link!);
    await page.locator('input[name=password]').fill('Other@Tree2032');
    await page.locator('input[name=confirmPassword]').fill('Other@Tree2032');
    await page.getByRole('button', { name: t('recover.save') }).click();
    await page.getByText(t('recover.invalid')).waitFor();
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('stops a wishlist notice from the emailed link without signing in, in the message’s language (Amharic)', async () => {
    const am = (key: string, params?: Record<string, string>) => translate('am', key, params);
    const email = uniqueEmail('unsubscribe');
    const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Hana Girma',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    const token = registered.body.token as string;
    expect((await apiJson(stack, 'PUT', '/users/profile', token, { language: 'am' })).status).toBe(200);
    const admin = (
      await apiJson(stack, 'POST', '/auth/login', undefined, {
        email: 'admin@beauty.et',
        password: 'Admin@12345',
      })
    ).body.token as string;
    const product = { name: 'Teff Face Mask', nameAm: 'የጤፍ የፊት ማስክ', price: 300, stock: 5 };
    const created = await apiJson(stack, 'POST', '/products', admin, product);
    expect(created.status).toBe(201);
    const id = created.body.product._id as string;
    expect((await apiJson(stack, 'POST', `/wishlist/add/${id}`, token, { notifyOnSale: true })).status).toBe(
      200,
    );
    expect((await apiJson(stack, 'PUT', `/products/${id}`, admin, { ...product, price: 240 })).status).toBe(
      200,
    );

    let mail: { subject: string; text: string } | undefined;
    for (let i = 0; i < 200 && !mail; i++) {
      mail = mailsTo(dataDir, email).find((m) => m.subject === 'የጤፍ የፊት ማስክ ቅናሽ ላይ ነው');
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail).toBeDefined();
    // an Amharic message links the Amharic page (docs/decisions/0092-language-in-the-address.md)
    const link = /(http:\/\/127\.0\.0\.1:\d+\/am\/unsubscribe\?token=[A-Za-z0-9._-]+&lang=am)/.exec(
      mail!.text,
    )?.[1];
    expect(link!.startsWith(stack.storefront)).toBe(true);

    // a fresh browser with no cookie and no sign-in: opening the link only asks
    const s = await session(browser, stack);
    const { page } = s;
    await page.goto(link!);
    await page.waitForURL((url) => !url.search.includes('lang='));
    await page.getByRole('heading', { name: am('unsubscribe.title') }).waitFor();
    await page.getByText(am('unsubscribe.askSale', { product: product.nameAm })).waitFor();
    expect((await apiJson(stack, 'GET', '/wishlist', token)).body.products[0].notifyOnSale).toBe(true);
    await page.getByRole('button', { name: am('unsubscribe.confirm') }).click();
    await page.getByText(am('unsubscribe.doneSale', { product: product.nameAm })).waitFor();
    const wishlist = (await apiJson(stack, 'GET', '/wishlist', token)).body;
    expect(wishlist.products[0]).toMatchObject({ notifyOnSale: false });
    // opening it again says it is done; a forged link says it is not valid
    await page.goto(link!.replace('&lang=am', ''));
    await page.getByText(am('unsubscribe.doneSale', { product: product.nameAm })).waitFor();
    await page.goto(`${stack.storefront}/am/unsubscribe?token=forged.token`);
    await page.getByText(am('errors.UNSUBSCRIBE_INVALID')).waitFor();
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it("shows staff the outbox in the back office, the reset message's content hidden", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${stack.admin}/admin`);
    await page.locator('input[name=email]').fill('admin@beauty.et');
    await page.locator('input[name=password]').fill('Admin@12345');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/admin\/dashboard/);
    await page.goto(`${stack.admin}/admin/notifications`);
    const row = page.locator('tbody tr').filter({ hasText: 'Password reset' }).first();
    await row.waitFor();
    await row.filter({ hasText: 'Sent' }).waitFor();
    await row.click();
    await page.getByText('A password reset: its content is not shown').waitFor();
    await page.goto(`${stack.admin}/admin/mails`);
    await page.locator('tbody tr').filter({ hasText: 'Reset your password' }).first().waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
  it("lets staff reset their password from the back office's sign-in page", async () => {
    const t = (key: string) => translate('en', key);
    const email = uniqueEmail('staff-recovery');
    const registered = await apiJson(stack, 'POST', '/auth/register-admin', undefined, {
      name: 'Selam Tesfaye',
      email,
      password: STRONG_PASSWORD,
      adminSecretKey: 'dev-admin-secret',
    });
    expect(registered.status).toBe(201);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${stack.admin}/admin/login`);
    await page.locator('input[name=email]').fill(email);
    await page.getByTestId('forgot-password').click();
    await page.getByRole('button', { name: t('recover.send'), exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: t('recover.sent') })
      .waitFor();

    let mail: { subject: string; text: string } | undefined;
    for (let i = 0; i < 200 && !mail; i++) {
      mail = mailsTo(dataDir, email).find((m) => m.subject === 'Reset your password');
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail).toBeDefined();
    const link = /(http:\/\/127\.0\.0\.1:\d+\/admin\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(
      mail!.text,
    )?.[1];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${stack.admin}/admin/`)).toBe(true);

    // a refusal is worded by its code in the chosen language, never by the API's English message
    await page.goto(link!);
    await page.evaluate(() => localStorage.setItem('language', 'am'));
    await page.reload();
    await page.locator('input[name=password]').fill('password');
    await page.locator('input[name=confirmPassword]').fill('password');
    await page.locator('button[type=submit]').click();
    const refusal = page.getByRole('alert');
    await refusal.filter({ hasText: translate('am', 'errors.WEAK_PASSWORD') }).waitFor();
    expect(await refusal.textContent()).not.toContain('stronger password');
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    await page.locator('input[name=password]').fill('Koso@Tree2031');
    await page.locator('input[name=confirmPassword]').fill('Koso@Tree2031');
    await page.locator('button[type=submit]').click();
    await page
      .getByRole('status')
      .filter({ hasText: t('recover.done') })
      .waitFor();

    // the old password is refused, the new one opens the dashboard
    expect(
      (
        await apiJson(stack, 'POST', '/auth/login', undefined, {
          email,
          password: STRONG_PASSWORD,
          role: 'admin',
        })
      ).status,
    ).toBe(401);
    await page.goto(`${stack.admin}/admin/login`);
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill('Koso@Tree2031');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/admin\/dashboard/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
