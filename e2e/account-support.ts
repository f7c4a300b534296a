import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, startStack, type Stack } from './stack';

/** Shared helpers of the account journeys: a browser, pages that record console errors, API shortcuts. */
export const STRONG_PASSWORD = 'Abeba@2024!';

export const launch = launchChromium;

/** What a suite of accountSuite may ask for besides the stack and the browser. */
export interface AccountSuiteOptions {
  /**
   * A data folder of the API's own (its local SMS store and mails), made in the system's temporary
   * folder under this prefix and removed after the suite.
   */
  dataDirPrefix?: string;
}

/**
 * Starts the stack (sign-in rate limit raised: the journeys sign in often) and a browser before the suite and
 * stops both after it; `started` hands them, and the seeded admin's token, to the suite's variables.
 */
export function accountSuite(
  started: (stack: Stack, browser: Browser, adminToken: string) => void,
  options: AccountSuiteOptions = {},
): void {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    if (options.dataDirPrefix) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), options.dataDirPrefix));
    stack = await startStack({
      apiEnv: { AUTH_RATE_LIMIT: '1000', ...(dataDir ? { DATA_DIR: dataDir } : {}) },
    });
    browser = await launch();
    const login = await apiJson(stack, 'POST', '/auth/login', undefined, {
      email: 'admin@beauty.et',
      password: 'Admin@12345',
    });
    started(stack, browser, login.body.token);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** A fresh browser context (own cookies) whose storefront console errors are collected. */
export async function session(
  browser: Browser,
  stack: Stack,
  lang: 'en' | 'am' = 'en',
  javaScriptEnabled = true,
): Promise<Session> {
  const context = await browser.newContext({ javaScriptEnabled });
  if (lang === 'am') await context.addCookies([{ name: 'language', value: 'am', url: stack.storefront }]);
  const page = await context.newPage();
  const errors: string[] = [];
  // A form answered 4xx (validation, a refused sign-in) is expected; the browser logs it as a failed resource.
  // (404 stays an error: a missing page or asset is a bug.)
  const expectedRefusal =
    /^Failed to load resource: the server responded with a status of (400|401|403|409|422|429) /;
  page.on('console', (m) => {
    if (m.type() !== 'error' || !(m.location().url ?? '').startsWith(stack.storefront)) return;
    if (expectedRefusal.test(m.text())) return;
    errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => void d.accept());
  return { context, page, errors };
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.et`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test shortcuts read loosely typed JSON
export async function apiJson<T = any>(
  stack: Stack,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.api}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Registers a customer through the API and signs the browser context in with the token cookie. */
export async function signedInCustomer(
  stack: Stack,
  s: Session,
  prefix: string,
): Promise<{ token: string; email: string }> {
  const email = uniqueEmail(prefix);
  const { status, body } = await apiJson(stack, 'POST', '/auth/register', undefined, {
    name: 'Test Customer',
    email,
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
  });
  if (status !== 201) throw new Error(`register failed: ${status} ${JSON.stringify(body)}`);
  await s.context.addCookies([{ name: 'token', value: body.token, url: stack.storefront, httpOnly: true }]);
  return { token: body.token, email };
}

/** A seeded product with enough stock for a journey. */
export async function productInStock(
  stack: Stack,
  min = 5,
  skip = 0,
): Promise<{ _id: string; name: string; nameAm?: string; stock: number; price: number }> {
  const { body } = await apiJson(stack, 'GET', '/products?limit=50');
  const found = body.products.filter((p: { stock: number }) => p.stock >= min)[skip];
  if (!found) throw new Error('no product in stock');
  return found;
}

export async function stockOf(stack: Stack, productId: string): Promise<number> {
  return (await apiJson(stack, 'GET', `/products/${productId}`)).body.stock;
}

/** The Ethiopian checkout form: phone, region (a choice), city, street; no postal code. */
export async function fillAddress(page: Page): Promise<void> {
  await page.locator('input[name=phone]').fill('0911 23 45 67');
  await page.locator('select[name=state]').selectOption('Addis Ababa');
  await page.locator('input[name=city]').fill('Addis Ababa');
  await page.locator('input[name=street]').fill('Bole Road 12');
}
