import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapXml } from './sitemap.server';

describe('sitemap.xml', () => {
  it('lists each page in both languages with alternates and lastmod, escaped', () => {
    const xml = sitemapXml('https://shop.et/', [
      { path: '/' },
      { path: '/product/p1', lastmod: '2026-11-01T10:00:00.000Z' },
      { path: '/products?category=skincare&page=2' },
    ]);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
      ),
    ).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      'https://shop.et/',
      'https://shop.et/am/',
      'https://shop.et/product/p1',
      'https://shop.et/am/product/p1',
      'https://shop.et/products?category=skincare&amp;page=2',
      'https://shop.et/am/products?category=skincare&amp;page=2',
    ]);
    expect(xml.match(/<lastmod>2026-11-01T10:00:00.000Z<\/lastmod>/g)).toHaveLength(2);
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="am" href="https://shop.et/am/product/p1"/>');
    expect(xml).toContain(
      '<xhtml:link rel="alternate" hreflang="x-default" href="https://shop.et/product/p1"/>',
    );
    expect(xml.match(/<url>/g)).toHaveLength(6);
    expect(xml.trimEnd().endsWith('</urlset>')).toBe(true);
  });
});

describe('robots.txt', () => {
  it('keeps crawlers out of personal pages in both languages and points to the sitemap', () => {
    const txt = robotsTxt('https://shop.et');
    expect(txt).toMatch(/^User-agent: \*$/m);
    for (const path of ['/cart', '/am/cart', '/checkout', '/am/checkout', '/profile', '/am/orders'])
      expect(txt).toMatch(new RegExp(`^Disallow: ${path}$`, 'm'));
    expect(txt).not.toMatch(/^Disallow: \/(am\/)?products/m);
    expect(txt).toMatch(/^Sitemap: https:\/\/shop\.et\/sitemap\.xml$/m);
  });
});
