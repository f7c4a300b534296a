import { describe, expect, it } from 'vitest';
import {
  isKeepableImage,
  isKeepablePage,
  isPersonalPath,
  isVersionedTexts,
  offlinePageFor,
  pageOfDataRequest,
  queuedKindOf,
} from './policy';

const headers = (h: Record<string, string>) => new Headers(h);
const html = 'text/html; charset=utf-8';

describe('what the service worker keeps', () => {
  it('keeps an anonymous page the storefront marks public', () => {
    const h = headers({
      'Content-Type': html,
      'Cache-Control': 'public, max-age=0, s-maxage=60, stale-while-revalidate=300',
    });
    expect(isKeepablePage(200, h)).toBe(true);
  });

  it('never keeps a personal page, one without Cache-Control, an error or a non-page', () => {
    expect(isKeepablePage(200, headers({ 'Content-Type': html, 'Cache-Control': 'private, no-store' }))).toBe(
      false,
    );
    expect(isKeepablePage(200, headers({ 'Content-Type': html, 'Cache-Control': 'public, no-store' }))).toBe(
      false,
    );
    expect(isKeepablePage(200, headers({ 'Content-Type': html }))).toBe(false);
    expect(isKeepablePage(404, headers({ 'Content-Type': html, 'Cache-Control': 'public' }))).toBe(false);
    expect(
      isKeepablePage(200, headers({ 'Content-Type': 'application/json', 'Cache-Control': 'public' })),
    ).toBe(false);
    expect(
      isKeepablePage(200, headers({ 'Content-Type': html, 'Cache-Control': 'public', 'Set-Cookie': 'a=b' })),
    ).toBe(false);
    // 'publicity' is not 'public'
    expect(isKeepablePage(200, headers({ 'Content-Type': html, 'Cache-Control': 'publicity' }))).toBe(false);
  });

  it('keeps images only when they are images answered 200', () => {
    expect(isKeepableImage(200, headers({ 'Content-Type': 'image/avif' }))).toBe(true);
    expect(isKeepableImage(404, headers({ 'Content-Type': 'image/png' }))).toBe(false);
    expect(isKeepableImage(200, headers({ 'Content-Type': html }))).toBe(false);
  });

  it('treats account, cart and checkout pages as personal in both languages', () => {
    for (const path of [
      '/cart',
      '/checkout',
      '/orders',
      '/account/orders/1',
      '/am/profile',
      '/wishlist',
      '/signin',
    ])
      expect(isPersonalPath(path), path).toBe(true);
    for (const path of ['/', '/am', '/products', '/product/abc', '/am/product/abc', '/about', '/cartoons'])
      expect(isPersonalPath(path), path).toBe(false);
  });
});

describe('offline answers', () => {
  it("shows the offline page in the address's language", () => {
    expect(offlinePageFor('/product/x')).toBe('/offline');
    expect(offlinePageFor('/am/product/x')).toBe('/am/offline');
    expect(offlinePageFor('/am')).toBe('/am/offline');
    expect(offlinePageFor('/amharic-soap')).toBe('/offline');
  });

  it("turns a client-side navigation's data request into its page", () => {
    const u = (s: string) => new URL(s, 'https://shop.example');
    expect(pageOfDataRequest(u('/product/abc?_data=routes%2Fproduct.%24id'), 'GET')).toBe('/product/abc');
    expect(pageOfDataRequest(u('/?index&_data=routes%2F_index'), 'GET')).toBe('/');
    expect(pageOfDataRequest(u('/products?q=shea&_data=routes%2Fproducts'), 'GET')).toBe('/products?q=shea');
    expect(pageOfDataRequest(u('/products?_data=root'), 'GET')).toBe('/products');
    expect(pageOfDataRequest(u('/am/product/abc?_data=am%2Froutes%2Fproduct.%24id'), 'GET')).toBe(
      '/am/product/abc',
    );
    expect(pageOfDataRequest(u('/i18n/am?_data=other'), 'GET')).toBeNull();
    expect(pageOfDataRequest(u('/cart/add?_data=routes%2Fcart_.add'), 'POST')).toBeNull();
    expect(pageOfDataRequest(u('/products'), 'GET')).toBeNull();
  });

  it('keeps the texts only at a version (that address never changes)', () => {
    const u = (s: string) => new URL(s, 'https://shop.example');
    expect(isVersionedTexts(u('/i18n/am?v=3416eace37f4'), 'GET')).toBe(true);
    expect(isVersionedTexts(u('/i18n/en?v=2fd52af0c428'), 'GET')).toBe(true);
    expect(isVersionedTexts(u('/i18n/am'), 'GET')).toBe(false);
    expect(isVersionedTexts(u('/i18n/am?v=old'), 'GET')).toBe(false);
    expect(isVersionedTexts(u('/i18n/fr?v=3416eace37f4'), 'GET')).toBe(false);
    expect(isVersionedTexts(u('/i18n/am?v=3416eace37f4'), 'POST')).toBe(false);
  });

  it('queues only the cart and wishlist form posts', () => {
    const u = (s: string) => new URL(s, 'https://shop.example');
    expect(queuedKindOf(u('/cart/add?_data=routes%2Fcart_.add'), 'POST')).toBe('cart');
    expect(queuedKindOf(u('/am/cart/add'), 'POST')).toBe('cart');
    expect(queuedKindOf(u('/wishlist/toggle'), 'POST')).toBe('wishlist');
    expect(queuedKindOf(u('/cart/add'), 'GET')).toBeNull();
    expect(queuedKindOf(u('/checkout'), 'POST')).toBeNull();
    expect(queuedKindOf(u('/cart/remove'), 'POST')).toBeNull();
  });
});
