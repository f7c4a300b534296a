import type { ChildProcess } from 'node:child_process';
import { get, type ClientRequest } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { apiJson, launch, productInStock, STRONG_PASSWORD, uniqueEmail } from './account-support';
import { startStack, startStorefront, type Stack } from './stack';

/**
 * The storefront as several workers on one port (STOREFRONT_WORKERS, apps/storefront/server/cluster.cjs,
 * docs/decisions/0106-storefront-workers.md), over the whole stack: pages answered by both workers,
 * GET /metrics counting the answers of all of them, a killed worker replaced while the others answer,
 * and SIGTERM stopping the primary and its workers together.
 */
const TOKEN = 'e2e-metrics-token-0123456789abcdef0123';

/** The pids of a process's children (Linux). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number),
  );
}

/** The status of a GET on a connection of its own (none kept alive to a worker that is then killed). */
function status(url: string): Promise<number> {
  return new Promise((resolve, reject) =>
    get(url, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    })
      .on('timeout', function (this: ClientRequest) {
        this.destroy(new Error(`${url}: no answer within 10 s`));
      })
      .on('error', reject),
  );
}

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The sum of a metric's samples whose line matches `labels` in Prometheus text. */
function sample(text: string, name: string, labels: RegExp): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && labels.test(line))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('storefront workers', () => {
  let stack: Stack;
  let browser: Browser;
  let primary: ChildProcess;
  let output: () => string = () => '';
  let storefront: string;
  let product: { _id: string; name: string };

  beforeAll(async () => {
    stack = await startStack({ apiEnv: { AUTH_RATE_LIMIT: '1000' } });
    browser = await launch();
    product = await productInStock(stack, 3);
    const started = await startStorefront(
      stack,
      { STOREFRONT_WORKERS: '2', METRICS_TOKEN: TOKEN },
      { ready: false },
    );
    storefront = started.url;
    primary = started.child;
    output = started.log;
    await until('two workers listening', () =>
      (output().match(/\(worker \d, pid \d+\)/g) ?? []).length >= 2 ? true : undefined,
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (primary && primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL');
    await stack?.stop();
  });

  const metrics = async () =>
    (await fetch(`${storefront}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();

  it('answers pages from two processes and counts every answer of both in GET /metrics', async () => {
    expect(childrenOf(primary.pid!)).toHaveLength(2);
    const pages = ['/', '/products', `/product/${product._id}`];
    const routes = /route="(\/|\/products|\/product\/:id)"/;
    const before = sample(await metrics(), 'http_request_duration_seconds_count', routes);
    for (let i = 0; i < 5; i++)
      for (const page of pages) expect(await status(`${storefront}${page}`)).toBe(200);
    const text = await metrics();
    // every page answer counted once, whichever worker gave it (the primary sums the workers' metrics)
    expect(sample(text, 'http_request_duration_seconds_count', routes) - before).toBe(15);
    // both workers rendered: each keeps its own pages (one miss per page and worker at most)
    const misses = sample(text, 'storefront_page_cache_events', /kind="miss"/);
    expect(misses).toBeGreaterThan(pages.length);
    expect(misses).toBeLessThanOrEqual(2 * pages.length);
    expect(output()).toMatch(/worker 1, pid \d+/);
    expect(output()).toMatch(/worker 2, pid \d+/);
  });

  it('shows a signed-in shopper their own header on pages from either worker, in a browser', async () => {
    const email = uniqueEmail('workers');
    const registered = await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Selam Worku',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    expect([200, 201]).toContain(registered.status);
    const token = registered.body.token as string;
    const added = await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 2 });
    expect([200, 201]).toContain(added.status);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'token', value: token, url: storefront }]);
    const page = await context.newPage();
    try {
      // four loads: the workers take turns, so both answer this shopper
      for (const address of ['/', '/products', '/', '/products']) {
        await page.goto(`${storefront}${address}`);
        await expect(page.getByTestId('cart-badge').textContent()).resolves.toBe('2');
        await expect(page.locator('.user-name').textContent()).resolves.toBe('Selam Worku');
      }
    } finally {
      await context.close();
    }
  });

  it('starts a killed worker again while the other one answers, and stops all on SIGTERM', async () => {
    const [killed, other] = childrenOf(primary.pid!);
    process.kill(killed, 'SIGKILL');
    // once the primary has seen the exit, the other worker gets every connection until the new one listens
    // (a connection handed to the worker in the instant it died is lost: Node's round-robin hand-over)
    const exitedLine = new RegExp(`worker \\d \\(pid ${killed}\\) exited \\(SIGKILL\\); starting it again`);
    await until('the primary seeing the exit', () => (exitedLine.test(output()) ? true : undefined));
    for (let i = 0; i < 6; i++) expect(await status(`${storefront}/products`)).toBe(200);
    const replaced = await until('a new worker', () => {
      const now = childrenOf(primary.pid!);
      return now.length === 2 && !now.includes(killed) ? now : undefined;
    });
    expect(replaced).toContain(other);
    await until('the new worker listening', () =>
      (output().match(/\(worker \d, pid \d+\)/g) ?? []).length >= 3 ? true : undefined,
    );
    for (let i = 0; i < 4; i++) expect(await status(`${storefront}/`)).toBe(200);

    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    await expect(exited).resolves.toBe(0);
    for (const pid of replaced) expect(() => process.kill(pid, 0)).toThrow(); // gone
  });
});
