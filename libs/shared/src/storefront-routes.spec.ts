import {
  isSameSitePath,
  languageOfPath,
  localePath,
  storefrontPaths,
  storefrontUrl,
  withoutLanguage,
} from './storefront-routes';

describe('storefront route table', () => {
  it('writes the pages the storefront has, with their parameters encoded', () => {
    expect(storefrontPaths.order('65f0a1')).toBe('/order-confirmation/65f0a1');
    expect(storefrontPaths.orderLookup('AN-10042')).toBe('/track-order?number=AN-10042');
    expect(storefrontPaths.orderLookup()).toBe('/track-order');
    expect(storefrontPaths.resetPassword('a+b/c')).toBe('/reset-password?token=a%2Bb%2Fc');
    expect(storefrontPaths.unsubscribe('t.k', 'am')).toBe('/unsubscribe?token=t.k&lang=am');
    expect(storefrontPaths.unsubscribe('t.k')).toBe('/unsubscribe?token=t.k');
    expect(storefrontPaths.product('p 1')).toBe('/product/p%201');
    expect(storefrontPaths.signIn('/orders?x=1')).toBe('/signin?redirectTo=%2Forders%3Fx%3D1');
  });

  it('never sends a visitor to another site after sign-in', () => {
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', '/\t/evil.example', ''])
      expect(isSameSitePath(bad)).toBe(false);
    expect(storefrontPaths.signIn('//evil.example')).toBe('/signin');
    expect(isSameSitePath('/order-confirmation/1')).toBe(true);
  });

  it('joins the configured base and a path with one slash', () => {
    expect(storefrontUrl('https://shop.et/', '/orders')).toBe('https://shop.et/orders');
    expect(storefrontUrl('http://127.0.0.1:3000', storefrontPaths.order('1'))).toBe(
      'http://127.0.0.1:3000/order-confirmation/1',
    );
  });

  it('puts Amharic pages under /am and English ones at the root, query and hash kept', () => {
    expect(localePath('am', '/products?q=shea#top')).toBe('/am/products?q=shea#top');
    expect(localePath('am', '/')).toBe('/am/');
    expect(localePath('am', '/?added=1')).toBe('/am/?added=1');
    expect(localePath('am', '/am/cart')).toBe('/am/cart');
    expect(localePath('en', '/am/cart?x=1')).toBe('/cart?x=1');
    expect(localePath('en', '/am')).toBe('/');
    expect(localePath('en', '/amber-oil')).toBe('/amber-oil');
    expect(localePath(undefined, '/orders')).toBe('/orders');
    expect(withoutLanguage('/am/')).toBe('/');
    expect(withoutLanguage('/amharic')).toBe('/amharic');
    expect(languageOfPath('/am')).toBe('am');
    expect(languageOfPath('/am/product/1')).toBe('am');
    expect(languageOfPath('/amber')).toBe('en');
    expect(languageOfPath('/')).toBe('en');
  });

  it("links a message's page in the message's language", () => {
    expect(storefrontUrl('https://shop.et/', storefrontPaths.order('1'), 'am')).toBe(
      'https://shop.et/am/order-confirmation/1',
    );
    expect(storefrontUrl('https://shop.et', storefrontPaths.home(), 'am')).toBe('https://shop.et/am/');
    expect(storefrontUrl('https://shop.et', storefrontPaths.orders(), 'en')).toBe('https://shop.et/orders');
  });
});
