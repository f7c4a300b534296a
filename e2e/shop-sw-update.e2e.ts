import { cpSync, existsSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, root, startStack, type Stack } from './stack';

/**
 * A new version of the storefront deployed while a shopper's page is open (docs/decisions/0094-pwa.md:
 * no skipWaiting, the new worker waits until no page of the old one is open). The storefront runs from
 * a copy of its build; version B is deployed into that copy: a new /sw.js (its offline pages at a new
 * revision) and the old version's script files gone from the server, as a new build's deploy leaves
 * them. The open page of version A keeps working (a client-side navigation to a product whose script
 * it had not loaded, 'Add to cart') from its worker's precache; B installs and waits; once the page is
 * closed, the next visit is B's, with A's precache entries cleaned up.
 */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe('a service worker update while a page is open (PWA)', () => {
  const dir = path.join(root, 'apps/storefront', `.sw-update-${process.pid}`);
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const part of ['build', 'server', 'public'])
      cpSync(path.join(root, 'apps/storefront', part), path.join(dir, part), { recursive: true });
    stack = await startStack({ storefrontDir: dir });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const swFile = () => path.join(dir, 'build/client/sw.js');

  /** The offline pages' revision in the precache list of the deployed /sw.js. */
  function offlineRevision(): string {
    const match = /\burl:"\/offline",revision:"([0-9a-f]+)"/.exec(readFileSync(swFile(), 'utf8'));
    if (!match) throw new Error('no revision of /offline in sw.js');
    return match[1];
  }

  /** The revisions of /offline in the worker's precache (Workbox keys it `/offline?__WB_REVISION__=…`). */
  function precachedOfflineRevisions(page: Page): Promise<string[]> {
    return page.evaluate(async () => {
      const revisions: string[] = [];
      for (const name of await caches.keys()) {
        if (!name.includes('precache')) continue;
        for (const request of await (await caches.open(name)).keys()) {
          const url = new URL(request.url);
          if (url.pathname === '/offline') revisions.push(url.searchParams.get('__WB_REVISION__') ?? '');
        }
      }
      return revisions.sort();
    });
  }

  async function controlled(page: Page): Promise<void> {
    await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', null, {
      timeout: 30_000,
    });
  }

  async function hydrated(page: Page): Promise<void> {
    await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 30_000 });
  }

  it('keeps the open page working on its own version, then the next visit is the new one’s', async () => {
    const errors: string[] = [];
    const context: BrowserContext = await browser.newContext(PHONE);
    const watch = (page: Page) => {
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
    };
    const page = await context.newPage();
    watch(page);
    await page.goto(`${stack.storefront}/`);
    await hydrated(page);
    await controlled(page);
    const revisionA = offlineRevision();
    expect(await precachedOfflineRevisions(page)).toEqual([revisionA]);

    // ---- deploy B: a new worker, and A's script files gone from the server ----
    const revisionB =
      `b${revisionA.slice(1)}` === revisionA ? `c${revisionA.slice(1)}` : `b${revisionA.slice(1)}`;
    writeFileSync(
      swFile(),
      readFileSync(swFile(), 'utf8').replaceAll(`revision:"${revisionA}"`, `revision:"${revisionB}"`),
    );
    const update = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration!.update();
      const start = Date.now();
      while (!registration!.waiting && Date.now() - start < 30_000)
        await new Promise((r) => setTimeout(r, 100));
      return {
        waiting: registration!.waiting?.state ?? null,
        controllerIsActive: navigator.serviceWorker.controller === registration!.active,
      };
    });
    // B installed and waits: the open page is still A's
    expect(update).toEqual({ waiting: 'installed', controllerIsActive: true });
    // B's copy of the offline page is stored, A's is kept while A serves the page
    expect(await precachedOfflineRevisions(page)).toEqual([revisionA, revisionB].sort());

    const loaded = new Set(
      await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
      ),
    );
    const assets = path.join(dir, 'build/client/assets');
    const removed = readdirSync(assets)
      .filter((file) => file.endsWith('.js') && !loaded.has(`/assets/${file}`))
      .map((file) => {
        unlinkSync(path.join(assets, file));
        return `/assets/${file}`;
      });
    expect(removed.length).toBeGreaterThan(3);
    // the server no longer has them
    expect((await fetch(stack.storefront + removed[0])).status).toBe(404);

    // ---- the open page: a client-side navigation to a product, then 'Add to cart' ----
    await page.evaluate(() => ((window as unknown as { stillA: boolean }).stillA = true));
    const link = page.locator('article.card a[href^="/product/"]').first();
    const href = (await link.getAttribute('href'))!;
    const productId = href.split('/').pop()!;
    await link.click();
    await page.waitForURL(`**${href}`);
    await page.locator('form.add-to-cart button[type="submit"]').first().waitFor();
    // no document was loaded: the same page, with scripts the server no longer has
    expect(await page.evaluate(() => (window as unknown as { stillA?: boolean }).stillA)).toBe(true);
    const fromPrecache = await page.evaluate(
      (gone) =>
        performance.getEntriesByType('resource').filter((e) => gone.includes(new URL(e.name).pathname))
          .length,
      removed,
    );
    expect(fromPrecache).toBeGreaterThan(0);

    await page.locator('form.add-to-cart button[type="submit"]').first().click();
    await page.waitForFunction(
      async (id) => {
        const res = await fetch('/cart?_data=routes%2Fcart');
        const cart = await res.json();
        return (cart?.cart?.products ?? []).some(
          (line: { product: { _id: string } }) => line.product?._id === id,
        );
      },
      productId,
      { timeout: 20_000 },
    );
    // still A's page and worker, B still waiting
    expect(
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return [registration?.waiting?.state, (window as unknown as { stillA?: boolean }).stillA];
      }),
    ).toEqual(['installed', true]);

    // ---- the page is closed: the next visit is B's ----
    await page.close();
    const next = await context.newPage();
    watch(next);
    // The first navigation after the last page of A closed is held by Chromium while B activates; on a
    // loaded machine it once never finished loading (CI, 2026-11-27, not reproduced since): the shopper's
    // visit again is then answered by the active B (a reload of the held navigation was itself aborted
    // once: net::ERR_ABORTED, so the shopper's next try is a new visit). Noted in docs/decisions/0094-pwa.md.
    for (let attempt = 1; ; attempt++) {
      const visited = await next.goto(`${stack.storefront}/`, { timeout: 30_000 }).then(
        () => true,
        (error: unknown) => (attempt < 3 ? false : Promise.reject(error)),
      );
      if (visited) break;
    }
    await hydrated(next);
    await next.waitForFunction(
      async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return !registration?.waiting && navigator.serviceWorker.controller?.state === 'activated';
      },
      null,
      { timeout: 30_000 },
    );
    // A's precache entries are cleaned up once B is active
    await next.waitForFunction(
      async (b) => {
        for (const name of await caches.keys()) {
          if (!name.includes('precache')) continue;
          const offline = (await (await caches.open(name)).keys()).filter(
            (r) => new URL(r.url).pathname === '/offline',
          );
          if (offline.length !== 1 || !offline[0].url.endsWith(`__WB_REVISION__=${b}`)) return false;
        }
        return true;
      },
      revisionB,
      { timeout: 30_000 },
    );
    // B's page works too (its scripts, gone from this server, come from B's precache) and sees the cart
    await next.locator(`a[href^="/cart"]`).first().waitFor();
    const cartLines = await next.evaluate(async () => {
      const res = await fetch('/cart?_data=routes%2Fcart');
      return ((await res.json())?.cart?.products ?? []).length;
    });
    expect(cartLines).toBe(1);
    expect(existsSync(swFile())).toBe(true);
    await context.close();
    expect(errors).toEqual([]);
  }, 180_000);
});
