import { createTranslator } from '@shop/i18n';
import { describe, expect, it } from 'vitest';
import {
  FALLBACK,
  apiError,
  flashFromUrl,
  flashToUrl,
  codeKey,
  noticeSaid,
  say,
  sayNotice,
} from './apiMessages';

const en = createTranslator('en');
const am = createTranslator('am');
const ETHIOPIC = /[\u1200-\u137F]/;

describe('API error messages', () => {
  it('words INSUFFICIENT_STOCK with its parameters in English and Amharic', () => {
    const said = apiError(
      {
        code: 'INSUFFICIENT_STOCK',
        params: { product: 'Rose Serum', available: 4, inCart: 3 },
        message: 'Only 4 left in stock for Rose Serum (you already have 3 in your cart)',
      },
      FALLBACK.addToCart,
    );
    expect(said).toEqual({
      key: 'INSUFFICIENT_STOCK',
      params: { product: 'Rose Serum', available: 4, inCart: 3 },
    });
    expect(say(en, said)).toBe('Only 4 left in stock for Rose Serum (you already have 3 in your cart)');
    const amharic = say(am, said);
    expect(amharic).toMatch(ETHIOPIC);
    expect(amharic).toContain('Rose Serum');
    expect(amharic).toContain('4');
    expect(amharic).toContain('3');
    expect(amharic).not.toMatch(/left in stock|in your cart/);
  });

  it('leaves out the cart part when nothing is in the cart yet', () => {
    expect(
      say(
        en,
        apiError(
          { code: 'INSUFFICIENT_STOCK', params: { product: 'Oil', available: 2, inCart: 0 } },
          FALLBACK.addToCart,
        ),
      ),
    ).toBe('Only 2 left in stock for Oil');
  });

  it('words OUT_OF_STOCK and UNAVAILABLE in both languages', () => {
    const out = apiError(
      { code: 'OUT_OF_STOCK', params: { product: 'Oil', available: 0 } },
      FALLBACK.addToCart,
    );
    expect(say(en, out)).toBe('Oil is out of stock');
    expect(say(am, out)).toMatch(ETHIOPIC);
    const gone = apiError({ code: 'UNAVAILABLE', params: { product: 'Oil' } }, FALLBACK.createOrder);
    expect(say(en, gone)).toBe('Oil is no longer available');
    expect(say(am, gone)).toMatch(/^Oil .*[\u1200-\u137F]/);
  });

  it('falls back to the operation message (docs/product.md §8) for unknown errors, never the API text', () => {
    const cases = [
      [FALLBACK.addToCart, 'Failed to add item to cart'],
      [FALLBACK.updateCart, 'Failed to update cart item'],
      [FALLBACK.moveToCart, 'Failed to move to cart'],
      [FALLBACK.createOrder, 'Failed to create order'],
    ] as const;
    for (const [fallback, text] of cases) {
      const said = apiError({ message: 'Your account is locked, call +251 911 000 000' }, fallback);
      expect(said).toEqual({ key: fallback });
      expect(say(en, said)).toBe(text);
      expect(say(am, said)).toMatch(ETHIOPIC);
    }
    // An unknown code, or a stock code without a product, is not trusted either.
    expect(apiError({ code: 'SOMETHING_NEW', params: { product: 'x' } }, FALLBACK.updateCart)).toEqual({
      key: FALLBACK.updateCart,
    });
    expect(
      apiError({ code: 'UNAVAILABLE', message: 'Service temporarily unavailable' }, FALLBACK.createOrder),
    ).toEqual({ key: FALLBACK.createOrder });
  });

  it('translates the API code as errors.<CODE> with its parameters, never its English text', () => {
    const said = apiError(
      {
        code: 'CANNOT_CANCEL',
        params: { status: 'shipped' },
        message: 'Cannot cancel an order that is shipped',
      },
      FALLBACK.updateCart,
    );
    expect(said).toEqual({ key: 'errors.CANNOT_CANCEL', params: { status: 'shipped' } });
    expect(say(en, said)).toBe('An order that is shipped cannot be cancelled.');
    expect(say(am, said)).toMatch(ETHIOPIC);
    // the English text alone is not read back into a key any more
    expect(apiError({ message: 'Failed to add item to cart' }, FALLBACK.updateCart)).toEqual({
      key: FALLBACK.updateCart,
    });
  });

  it('knows a code only when the dictionaries word it', () => {
    expect(codeKey('DUPLICATE_EMAIL')).toBe('errors.DUPLICATE_EMAIL');
    expect(codeKey('NO_SUCH_CODE')).toBeUndefined();
    expect(codeKey('errors.DUPLICATE_EMAIL')).toBeUndefined();
    expect(codeKey(undefined)).toBeUndefined();
  });

  it('shows a made-up or unknown key as the fallback', () => {
    expect(say(en, 'no.suchKey', FALLBACK.addToCart)).toBe('Failed to add item to cart');
    expect(say(en, 'Hello there', FALLBACK.addToCart)).toBe('Failed to add item to cart');
    expect(say(en, null)).toBe('');
  });
});

describe('flash messages read from the URL', () => {
  const flash = (query: string) =>
    flashFromUrl(new URLSearchParams(query), 'cartError', FALLBACK.addToCart, ['cart'], en);

  it('never renders raw text from the URL', () => {
    const phishing = 'Your account is locked, call +251 911 000 000';
    for (const lang of [en, am]) {
      const text = say(lang, flash(`cartError=${encodeURIComponent(phishing)}`));
      expect(text).toBe(lang('cart.addFailed'));
      expect(text).not.toContain('+251');
    }
    // A key outside the allowed namespaces is refused too.
    expect(flash('cartError=auth.signInFailed')).toEqual({ key: FALLBACK.addToCart });
    expect(flash('')).toBeNull();
  });

  it('accepts a known key, and a stock code with whole-number parameters only (no product name from the URL)', () => {
    expect(say(en, flash('cartError=cart.updateFailed'))).toBe('Failed to update cart item');
    expect(say(en, flash('cartError=INSUFFICIENT_STOCK&available=4&inCart=3&product=Evil'))).toBe(
      'Only 4 left in stock (you already have 3 in your cart)',
    );
    expect(say(en, flash('cartError=INSUFFICIENT_STOCK&available=call+me&inCart=x'))).toBe(
      'Failed to add item to cart',
    );
    expect(say(am, flash('cartError=OUT_OF_STOCK'))).toMatch(ETHIOPIC);
  });

  it('round-trips through flashToUrl', () => {
    const target = new URL('/product/1', 'http://shop.local');
    flashToUrl(target, 'cartError', {
      key: 'INSUFFICIENT_STOCK',
      params: { product: 'Oil', available: 4, inCart: 3 },
    });
    expect(target.searchParams.has('product')).toBe(false);
    expect(say(en, flashFromUrl(target.searchParams, 'cartError', FALLBACK.addToCart, ['cart'], en))).toBe(
      'Only 4 left in stock (you already have 3 in your cart)',
    );
  });
});

describe('notices of lines the API fixed', () => {
  it('words the coded notices with the list’s own keys and the product name', () => {
    const out = noticeSaid(
      { type: 'removed', code: 'NOTICE_OUT_OF_STOCK_REMOVED', params: { product: 'Rose Oil' } },
      'cart',
    );
    expect(sayNotice(en, out)).toBe('Rose Oil is out of stock and was removed from your cart');
    expect(sayNotice(am, out)).toMatch(/^Rose Oil .*[\u1200-\u137F]/);
    const reduced = noticeSaid(
      {
        type: 'quantity_reduced',
        code: 'NOTICE_QUANTITY_REDUCED',
        params: { product: 'Rose Oil', available: 2 },
      },
      'cart',
    );
    expect(sayNotice(en, reduced)).toBe('Only 2 left in stock for Rose Oil; quantity reduced to 2');
    expect(sayNotice(am, reduced)).toMatch(ETHIOPIC);
    const gone = noticeSaid(
      { type: 'removed', code: 'NOTICE_UNAVAILABLE_REMOVED', params: { product: 'Rose Oil' } },
      'wishlist',
    );
    expect(sayNotice(en, gone)).toBe('Rose Oil is no longer available and was removed from your wishlist');
  });

  it('words an unknown notice generically, never as the API said it', () => {
    expect(sayNotice(en, noticeSaid({ type: 'removed', code: 'SOMETHING_ELSE' }, 'cart'))).toBe(
      'A product is no longer available and was removed from your cart',
    );
    expect(sayNotice(am, noticeSaid({ type: 'quantity_reduced' }, 'cart'))).toMatch(ETHIOPIC);
  });
});
