import { describe, expect, it } from 'vitest';
import { languageCookie, languageFromCookie } from './language';

describe('language cookie', () => {
  it('reads en or am and defaults to en', () => {
    expect(languageFromCookie('a=1; language=am')).toBe('am');
    expect(languageFromCookie('language=fr')).toBe('en');
    expect(languageFromCookie(null)).toBe('en');
  });

  it('writes a cookie the server can read back', () => {
    expect(languageFromCookie(languageCookie('am').split(';')[0])).toBe('am');
  });
});

describe('language in the address', () => {
  it('the page language, its twins and canonical address (query kept, flashes and campaigns dropped)', async () => {
    const { languageAddresses, pageLanguage, localePath } = await import('./language');
    expect(pageLanguage(new Request('http://x/am/products'))).toBe('am');
    expect(pageLanguage(new Request('http://x/products'))).toBe('en');
    expect(pageLanguage(new Request('http://x/amharic-soap'))).toBe('en');
    expect(localePath('am', '/cart')).toBe('/am/cart');
    const am = languageAddresses(
      'https://shop.et',
      '/am/products',
      '?category=skincare&utm_source=fb&added=1',
    );
    expect(am.canonical).toBe('https://shop.et/am/products?category=skincare');
    expect(am.alternates).toEqual([
      { hreflang: 'en', href: 'https://shop.et/products?category=skincare' },
      { hreflang: 'am', href: 'https://shop.et/am/products?category=skincare' },
      { hreflang: 'x-default', href: 'https://shop.et/products?category=skincare' },
    ]);
    const home = languageAddresses('https://shop.et/', '/', '');
    expect(home.canonical).toBe('https://shop.et/');
    expect(home.alternates[1].href).toBe('https://shop.et/am/');
  });
});
