import { isSameSitePath, storefrontPaths, storefrontUrl } from './storefront-routes';

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
});
