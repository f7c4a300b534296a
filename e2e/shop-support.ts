import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium, root, startStack, type Stack } from './stack';

export interface ShopPage {
  page: Page;
  context: BrowserContext;
  /** console errors and uncaught exceptions seen so far */
  errors: string[];
  close(): Promise<void>;
}

export interface OpenOptions extends BrowserContextOptions {
  lang?: 'en' | 'am';
  /** an API token: the shopper is signed in */
  token?: string;
  /** console messages that are expected in this test (e.g. the 404 status of a not-found page) */
  allow?: RegExp[];
}

/** One stack and one browser per test file, with pages that record console errors. */
export function shopHarness() {
  const h = {} as { stack: Stack; browser: Browser };

  beforeAll(async () => {
    // these suites sign in as often as their tests need (a fast machine fits more than the default 10
    // per minute from one address into a minute); the limit itself is tested by the API's suites
    h.stack = await startStack({ apiEnv: { AUTH_RATE_LIMIT: '1000' } });
    h.browser = await launchChromium();
  });

  afterAll(async () => {
    await h.browser?.close();
    await h.stack?.stop();
  });

  async function open(urlPath: string, options: OpenOptions = {}): Promise<ShopPage> {
    const { lang, token, allow = [], ...contextOptions } = options;
    const context = await h.browser.newContext(contextOptions);
    const host = new URL(h.stack.storefront).hostname;
    const cookies = [];
    if (lang) cookies.push({ name: 'language', value: lang, domain: host, path: '/' });
    if (token) cookies.push({ name: 'token', value: token, domain: host, path: '/', httpOnly: true });
    if (cookies.length) await context.addCookies(cookies);
    const errors: string[] = [];
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !allow.some((re) => re.test(m.text()))) errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(h.stack.storefront + urlPath);
    // wait for hydration, so that what the test does next is handled by React (data-hydrated: the parts
    // hydrated after the page, components/Deferred.tsx, included)
    if (contextOptions.javaScriptEnabled !== false)
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    return { page, context, errors, close: () => context.close() };
  }

  async function api<T = any>(apiPath: string, init: RequestInit & { token?: string } = {}): Promise<T> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    const res = await fetch(h.stack.api + apiPath, { ...init, headers });
    const body = await res.json();
    if (!res.ok) throw new Error(`${apiPath}: ${res.status} ${JSON.stringify(body)}`);
    return body as T;
  }

  async function login(email: string, password: string): Promise<string> {
    const body = await api<{ token: string }>('/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    });
    return body.token;
  }

  return { h, open, api, login };
}

export const CUSTOMER = { email: 'customer@beauty.et', password: 'Customer@123' };
export const ADMIN = { email: 'admin@beauty.et', password: 'Admin@12345' };

const axeSource = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousViolations(
  page: Page,
): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<any> } }).axe;
    return axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
  });
  return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Ge'ez script (Ethiopic block). */
export const ETHIOPIC = /[\u1200-\u137F]/;
