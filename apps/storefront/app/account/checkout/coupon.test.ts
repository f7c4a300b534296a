import { createTranslator } from '@shop/i18n';
import { priceOrder } from '@shop/shared';
import { describe, expect, it } from 'vitest';
import { apiError, say } from '../../apiMessages';
import { couponDiscount } from './coupon';

const en = createTranslator('en');
const am = createTranslator('am');
const ETHIOPIC = /[\u1200-\u137F]/;
const REFUSALS = [
  'COUPON_NOT_FOUND',
  'COUPON_EXPIRED',
  'COUPON_MIN_SUBTOTAL',
  'COUPON_EXHAUSTED',
  'COUPON_ALREADY_USED',
] as const;

describe('the cart coupon (docs/decisions/0096-coupon-codes.md)', () => {
  it('words every coupon refusal with its values in English and in Amharic, never the fallback', () => {
    for (const code of REFUSALS) {
      const said = apiError({ code, params: { code: 'BUNA10', minimum: 500 } }, 'cart.couponFailed');
      expect(said.key).toBe(`errors.${code}`);
      const english = say(en, said, 'cart.couponFailed');
      const amharic = say(am, said, 'cart.couponFailed');
      expect(english).not.toBe(en('cart.couponFailed'));
      expect(amharic).toMatch(ETHIOPIC);
      expect(amharic).not.toBe(english);
      if (code !== 'COUPON_NOT_FOUND') expect(english).toContain('BUNA10');
    }
    const min = apiError({ code: 'COUPON_MIN_SUBTOTAL', params: { code: 'BUNA10', minimum: 500 } }, 'x');
    expect(say(en, min)).toBe('The code BUNA10 needs a subtotal of at least 500 ETB.');
    expect(say(am, min)).toContain('500');
  });

  it('turns the cart answer into the pricing rule’s discount; none while the API says it gives nothing', () => {
    const lines = [{ unitPrice: 100_000, quantity: 2 }];
    const percent = couponDiscount({ coupon: { code: 'BUNA10', kind: 'percent', value: 10 } });
    expect(priceOrder(lines, 'standard', undefined, false, percent).discount).toBe(20_000);
    const fixed = couponDiscount({ coupon: { code: 'OFF50', kind: 'fixed', value: 50.5 } });
    expect(fixed).toEqual({ kind: 'fixed', amount: 5_050 });
    expect(couponDiscount({ coupon: { code: 'SHIP', kind: 'freeShipping', value: 0 } })).toEqual({
      kind: 'freeShipping',
    });
    expect(
      couponDiscount({ coupon: { code: 'BUNA10' }, couponProblem: { code: 'COUPON_MIN_SUBTOTAL' } }),
    ).toBeUndefined();
    expect(couponDiscount(null)).toBeUndefined();
  });
});
