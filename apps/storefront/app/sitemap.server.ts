import { CATEGORIES } from '@shop/shared';
import { localePath } from './language';
import { listProducts } from './products.server';

/** One address of the sitemap (its English path; the Amharic twin is derived) and when it last changed. */
export interface SitemapPage {
  path: string;
  lastmod?: string;
}

/** The static pages of the shop, in both languages (account, cart and checkout pages are not listed). */
export const STATIC_PAGES = ['/', '/products', '/about', '/contact', '/faq', '/shipping', '/track-order'];
/** 100 products a page, at most 250 pages: 25,000 products, 50,000 addresses (one sitemap's limit). */
const PAGE_SIZE = 100;
const MAX_PAGES = 250;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/**
 * The sitemap (sitemaps.org 0.9): every page in English and in Amharic (`/am/…`), each with both as
 * xhtml:link alternates (and x-default English), `lastmod` where known (docs/decisions/0092).
 */
export function sitemapXml(origin: string, pages: SitemapPage[]): string {
  const base = origin.replace(/\/+$/, '');
  const urls: string[] = [];
  for (const page of pages) {
    const en = escapeXml(`${base}${localePath('en', page.path)}`);
    const am = escapeXml(`${base}${localePath('am', page.path)}`);
    const alternates =
      `    <xhtml:link rel="alternate" hreflang="en" href="${en}"/>\n` +
      `    <xhtml:link rel="alternate" hreflang="am" href="${am}"/>\n` +
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${en}"/>\n`;
    const lastmod = page.lastmod ? `    <lastmod>${escapeXml(page.lastmod)}</lastmod>\n` : '';
    for (const loc of [en, am])
      urls.push(`  <url>\n    <loc>${loc}</loc>\n${lastmod}${alternates}  </url>\n`);
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    urls.join('') +
    '</urlset>\n'
  );
}

/** robots.txt: everything but the personal pages (account, cart, checkout, payment), and the sitemap. */
export function robotsTxt(origin: string): string {
  const personal = [
    '/cart',
    '/checkout',
    '/orders',
    '/order-confirmation/',
    '/profile',
    '/wishlist',
    '/signin',
    '/signup',
    '/welcome',
    '/forgot-password',
    '/reset-password',
    '/unsubscribe',
    '/payment/',
    '/account/',
    '/language',
    '/logout',
  ];
  const lines = ['User-agent: *', 'Allow: /'];
  for (const path of personal) lines.push(`Disallow: ${path}`, `Disallow: ${localePath('am', path)}`);
  lines.push('', `Sitemap: ${origin.replace(/\/+$/, '')}/sitemap.xml`, '');
  return lines.join('\n');
}

/**
 * The pages of the sitemap: the static pages, each category, each product (read through the typed API
 * client, `lastmod` its updatedAt). `null` when the API did not answer (the sitemap is then not served).
 */
export async function sitemapPages(request: Request): Promise<SitemapPage[] | null> {
  const products: SitemapPage[] = [];
  let newest: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data, failed } = await listProducts(request, { page, limit: PAGE_SIZE });
    if (failed || !data) return null;
    for (const p of data.products) {
      const lastmod = p.updatedAt ? new Date(p.updatedAt).toISOString() : undefined;
      if (lastmod && (!newest || lastmod > newest)) newest = lastmod;
      products.push({ path: `/product/${encodeURIComponent(p._id)}`, lastmod });
    }
    if (page >= data.totalPages) break;
  }
  return [
    ...STATIC_PAGES.map((path) => ({
      path,
      lastmod: path === '/' || path === '/products' ? newest : undefined,
    })),
    ...CATEGORIES.map((c) => ({ path: `/products?category=${encodeURIComponent(c.slug)}`, lastmod: newest })),
    ...products,
  ];
}
