import { translate } from '@shop/i18n';
import { shopHarness } from './shop-support';

/**
 * Issue 32.2, the language in the address (docs/decisions/0092-language-in-the-address.md), at 390 px:
 * Amharic pages under /am/ with their hreflang and canonical addresses, the switch to the twin, the
 * remembered choice (a person goes to /am/, a crawler does not), sitemap.xml and robots.txt, and an
 * add-to-cart made on an Amharic page staying in Amharic.
 */
const PHONE = { width: 390, height: 844 };
const CHROME =
  'Mozilla/5.0 (Linux; Android 13; SM-A145F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('language in the address (390 px)', () => {
  const { h, open, api } = shopHarness();
  jest.setTimeout(120_000);

  it('/am/products is Amharic, with its canonical address, hreflang twins and Open Graph locale', async () => {
    const { page, errors, close } = await open('/am/products', { viewport: PHONE });
    const base = h.stack.storefront;
    expect(await page.getAttribute('html', 'lang')).toBe('am');
    await expect(page.locator('h1').first().textContent()).resolves.toMatch(/[\u1200-\u137f]/);
    expect(await page.locator('nav').first().textContent()).toContain(translate('am', 'nav.products'));
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe(`${base}/am/products`);
    expect(await page.getAttribute('link[rel="alternate"][hreflang="en"]', 'href')).toBe(`${base}/products`);
    expect(await page.getAttribute('link[rel="alternate"][hreflang="am"]', 'href')).toBe(
      `${base}/am/products`,
    );
    expect(await page.getAttribute('link[rel="alternate"][hreflang="x-default"]', 'href')).toBe(
      `${base}/products`,
    );
    expect(await page.getAttribute('meta[property="og:locale"]', 'content')).toBe('am_ET');
    // every link of the page's header keeps the language
    const hrefs = await page
      .locator('header a[href^="/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(2);
    for (const href of hrefs) expect(href).toMatch(/^\/am(\/|$|\?)/);
    expect(errors).toEqual([]);
    await close();
  });

  it('the switch goes to the same page in the other language, query kept, without JavaScript', async () => {
    const { page, context, close } = await open('/am/products?category=skincare', {
      viewport: PHONE,
      javaScriptEnabled: false,
    });
    await page.selectOption('.language select', 'en');
    await Promise.all([
      page.waitForURL('**/products?category=skincare'),
      page.click('.language button[type="submit"]'),
    ]);
    expect(new URL(page.url()).pathname).toBe('/products');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    const cookie = (await context.cookies()).find((c) => c.name === 'language');
    expect(cookie?.value).toBe('en');
    // and back: Amharic sets the remembered choice to am
    await page.selectOption('.language select', 'am');
    await Promise.all([
      page.waitForURL('**/am/products?category=skincare'),
      page.click('.language button[type="submit"]'),
    ]);
    expect(await page.getAttribute('html', 'lang')).toBe('am');
    expect((await context.cookies()).find((c) => c.name === 'language')?.value).toBe('am');
    await close();
  });

  it('a visitor who chose Amharic goes from / to /am/ (not kept by any cache); a crawler does not', async () => {
    const { page, close } = await open('/', { viewport: PHONE, lang: 'am' });
    expect(new URL(page.url()).pathname).toBe('/am/');
    expect(await page.getAttribute('html', 'lang')).toBe('am');
    await close();
    const ask = (ua: string, cookie = 'language=am') =>
      fetch(`${h.stack.storefront}/products?category=haircare`, {
        redirect: 'manual',
        headers: { 'User-Agent': ua, Cookie: cookie, Accept: 'text/html' },
      });
    const person = await ask(CHROME);
    expect(person.status).toBe(302);
    expect(person.headers.get('Location')).toBe('/am/products?category=haircare');
    expect(person.headers.get('Cache-Control')).toBe('private, no-store');
    const bot = await ask(GOOGLEBOT);
    expect(bot.status).toBe(200);
    expect(await bot.text()).toMatch(/<html lang="en"/);
    const english = await ask(CHROME, 'language=en');
    expect(english.status).toBe(200);
  });

  it('sitemap.xml lists both languages with alternates and lastmod; robots.txt points to it', async () => {
    const res = await fetch(`${h.stack.storefront}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/xml/);
    expect(res.headers.get('Cache-Control')).toMatch(/^public, /);
    const xml = await res.text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9"/,
    );
    const { products } = await api<{ products: { _id: string; updatedAt: string }[] }>(
      '/products?limit=1&sort=newest',
    );
    const p = products[0];
    const base = h.stack.storefront;
    expect(xml).toContain(`<loc>${base}/product/${p._id}</loc>`);
    expect(xml).toContain(`<loc>${base}/am/product/${p._id}</loc>`);
    expect(xml).toContain(`<lastmod>${new Date(p.updatedAt).toISOString()}</lastmod>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="am" href="${base}/am/product/${p._id}"/>`);
    expect(xml).toContain(`<loc>${base}/am/about</loc>`);
    expect(xml).toContain(`<loc>${base}/products?category=skincare</loc>`);
    expect(xml).not.toContain('/cart</loc>');
    expect(xml.match(/<url>/g)?.length).toBe(xml.match(/<\/url>/g)?.length);
    // every address it lists opens, for a crawler (no cookie), in its language, and names itself canonical
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(locs.length).toBeGreaterThan(50);
    const opened: { loc: string; status: number; lang?: string; canonical?: string }[] = [];
    for (let i = 0; i < locs.length; i += 8)
      opened.push(
        ...(await Promise.all(
          locs.slice(i, i + 8).map(async (loc) => {
            const page = await fetch(loc, { redirect: 'manual', headers: { 'User-Agent': 'Googlebot/2.1' } });
            const html = await page.text();
            const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
            return { loc, status: page.status, lang: /<html lang="(\w+)"/.exec(html)?.[1], canonical };
          }),
        )),
      );
    expect(opened.filter((o) => o.status !== 200)).toEqual([]);
    expect(
      opened.filter((o) => o.lang !== (new URL(o.loc).pathname.startsWith('/am/') ? 'am' : 'en')),
    ).toEqual([]);
    expect(opened.filter((o) => o.canonical !== o.loc)).toEqual([]);
    const robots = await fetch(`${base}/robots.txt`);
    expect(robots.status).toBe(200);
    const txt = await robots.text();
    expect(txt).toContain(`Sitemap: ${base}/sitemap.xml`);
    expect(txt).toMatch(/^Disallow: \/am\/checkout$/m);
    expect(txt).toMatch(/^Disallow: \/cart$/m);
  });

  it('add to cart on /am/product/… stays in /am/ (without JavaScript)', async () => {
    const { products } = await api<{ products: { _id: string; stock: number }[] }>('/products?limit=20');
    const p = products.find((x) => x.stock > 0)!;
    const { page, close } = await open(`/am/product/${p._id}`, { viewport: PHONE, javaScriptEnabled: false });
    await Promise.all([
      page.waitForURL(/added=1/),
      page.locator('form.add-to-cart button[type="submit"]').click(),
    ]);
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/am/product/${p._id}`);
    expect(await page.getAttribute('html', 'lang')).toBe('am');
    await page.locator('header a[href="/am/cart"]').first().click();
    await page.waitForURL('**/am/cart');
    expect(await page.locator('main').textContent()).toMatch(/[\u1200-\u137f]/);
    await close();
  });
});
