import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN } from './shop-support';

export interface StaffPageOptions {
  /** The back office's language (its `localStorage.language`); English unless told. */
  lang?: 'en' | 'am';
  /** A 390 px touch phone instead of a 1366 px desktop. */
  phone?: boolean;
}

/**
 * A browser page of the back office signed in as the seeded admin, on the dashboard. The context is
 * pushed onto `contexts` (the suite closes them) and uncaught page errors are pushed onto `pageErrors`
 * (the suite asserts there are none).
 */
export async function staffPage(
  browser: Browser,
  adminUrl: string,
  options: StaffPageOptions,
  contexts: BrowserContext[],
  pageErrors: string[],
): Promise<Page> {
  const context = await browser.newContext(
    options.phone
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1366, height: 900 } },
  );
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.addInitScript((l) => localStorage.setItem('language', l), options.lang ?? 'en');
  await page.goto(`${adminUrl}/admin`);
  await page.locator('input[name=email]').fill(ADMIN.email);
  await page.locator('input[name=password]').fill(ADMIN.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/admin\/dashboard$/);
  return page;
}
