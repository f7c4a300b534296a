import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, freePort, root } from './stack';

/** The storefront alone, pointed at an API address where nothing listens. */
describe('storefront when the API is unreachable', () => {
  let child: ChildProcess;
  let browser: Browser;
  let base: string;
  let errors: string[];

  beforeAll(async () => {
    const [port, deadApiPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(root, 'apps/storefront/server/index.cjs')], {
      cwd: path.join(root, 'apps/storefront'),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        API_URL: `http://127.0.0.1:${deadApiPort}/api`,
      },
      stdio: 'ignore',
    });
    for (let i = 0; i < 120; i++) {
      try {
        await fetch(base);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  async function open(urlPath: string, allow: RegExp[] = []): Promise<Page> {
    errors = [];
    const page = await browser.newPage();
    page.on(
      'console',
      (m) => m.type() === 'error' && !allow.some((re) => re.test(m.text())) && errors.push(m.text()),
    );
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base + urlPath);
    return page;
  }

  it('shows the catalogue error state with a retry link, never invented products', async () => {
    const page = await open('/products?search=shea&page=2');
    await page.getByRole('alert').getByText('Error loading products.').waitFor();
    expect(await page.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe(
      '/products?search=shea&page=2',
    );
    expect(await page.locator('article.card').count()).toBe(0);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('still shows the home page: the error state for featured products, 3 static testimonials, no maintenance page', async () => {
    const page = await open('/');
    await page.getByRole('region', { name: 'Highlights' }).waitFor();
    await page.getByText('Error loading products.').waitFor();
    const testimonials = page.getByRole('region', { name: 'What our customers say' });
    expect(await testimonials.getByRole('button', { name: /Go to testimonial/ }).count()).toBe(3);
    expect(await testimonials.getByTestId('testimonial').textContent()).toContain(
      'shea and coffee body butter',
    );
    expect(await page.getByRole('link', { name: 'Cart, 0 items' }).count()).toBe(1);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('shows an error page with a retry link (not the not-found page) for a product it cannot load', async () => {
    const page = await open('/product/6b03ea96fd5a87bdf99578ca', [/status of 502/]);
    await page.getByRole('heading', { level: 1, name: 'Something went wrong' }).waitFor();
    expect(await page.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe(
      '/product/6b03ea96fd5a87bdf99578ca',
    );
    expect(await page.getByText('Page not found').count()).toBe(0);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('shows the shipping page with the default options', async () => {
    const page = await open('/shipping');
    const text = await page.locator('main').textContent();
    for (const s of ['ETB 150.00', 'ETB 300.00', 'over ETB 1,000.00']) expect(text).toContain(s);
    await page.close();
    expect(errors).toEqual([]);
  });
});
