import fc from 'fast-check';
import {
  DEFAULT_SHIPPING_RATES,
  SHIPPING_METHODS,
  discountOf,
  priceOrder,
  type OrderDiscount,
  type ShippingMethod,
  type ShippingRates,
} from './pricing';

/**
 * A plain reference of the one pricing rule (docs/decisions/0095), written apart from pricing.ts in
 * whole-number arithmetic with BigInt: lines → discount → shipping on the discounted subtotal → VAT of
 * the discounted subtotal (on top, or contained with pricesIncludeTax).
 */
function reference(
  lines: { unitPrice: number; quantity: number }[],
  method: ShippingMethod,
  rates: ShippingRates,
  included: boolean,
  discount?: OrderDiscount,
) {
  let subtotal = 0n;
  for (const line of lines) subtotal += BigInt(line.unitPrice) * BigInt(line.quantity);
  let off = 0n;
  if (discount?.kind === 'percent' && subtotal > 0n) {
    // half up to the santim: floor((subtotal × percent × 2 + 100) / 200) for integer percents
    off = (subtotal * BigInt(discount.percent) * 2n + 100n) / 200n;
  } else if (discount?.kind === 'fixed') {
    off = BigInt(discount.amount) < subtotal ? BigInt(discount.amount) : subtotal;
  }
  if (off > subtotal) off = subtotal;
  const rest = subtotal - off;
  let shipping = BigInt(rates[method]);
  if (method === 'standard' && rest > BigInt(rates.freeStandardOver)) shipping = 0n;
  if (discount?.kind === 'freeShipping') shipping = 0n;
  // VAT 15% on top (half up), or the VAT inside: rest − round(rest × 100 / 115)
  const tax = included ? rest - (rest * 200n + 115n) / 230n : (rest * 30n + 100n) / 200n;
  const total = rest + shipping + (included ? 0n : tax);
  return {
    subtotal: Number(subtotal),
    discount: Number(off),
    shippingCost: Number(shipping),
    tax: Number(tax),
    totalAmount: Number(total),
  };
}

const line = fc.record({
  unitPrice: fc.integer({ min: 1, max: 5_000_000 }),
  quantity: fc.integer({ min: 1, max: 10 }),
});
const method = fc.constantFrom<ShippingMethod>(...SHIPPING_METHODS);
const rates = fc.record({
  standard: fc.integer({ min: 0, max: 50_000 }),
  express: fc.integer({ min: 0, max: 100_000 }),
  pickup: fc.integer({ min: 0, max: 10_000 }),
  freeStandardOver: fc.integer({ min: 0, max: 2_000_000 }),
});
const discount: fc.Arbitrary<OrderDiscount | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 1, max: 100 }).map((percent) => ({ kind: 'percent' as const, percent })),
  fc.integer({ min: 0, max: 10_000_000 }).map((amount) => ({ kind: 'fixed' as const, amount })),
  fc.constant({ kind: 'freeShipping' as const }),
);

describe('the one pricing rule (property tests against a plain reference)', () => {
  it('gives the reference figures for any lines, method, rates, VAT mode and discount', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        method,
        rates,
        fc.boolean(),
        discount,
        (ls, m, r, inc, d) => {
          expect(priceOrder(ls, m, r, inc, d)).toEqual(reference(ls, m, r, inc, d));
        },
      ),
      { numRuns: 2000, seed: 30_4 },
    );
  });

  it('never discounts below zero nor above the subtotal, and the total is never negative', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        method,
        rates,
        fc.boolean(),
        discount,
        (ls, m, r, inc, d) => {
          const t = priceOrder(ls, m, r, inc, d);
          expect(t.discount).toBeGreaterThanOrEqual(0);
          expect(t.discount).toBeLessThanOrEqual(t.subtotal);
          expect(t.totalAmount).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(t.tax) && Number.isInteger(t.totalAmount)).toBe(true);
        },
      ),
    );
  });

  it('is the old rule exactly when there is no discount (existing callers)', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), method, rates, fc.boolean(), (ls, m, r, inc) => {
        const four = priceOrder(ls, m, r, inc);
        expect(four).toEqual(priceOrder(ls, m, r, inc, undefined));
        expect(four.discount).toBe(0);
      }),
    );
  });
});

describe('the order of the rule, by example', () => {
  it('takes the free-standard threshold on the discounted subtotal', () => {
    // 1,100 ETB of lines is over the 1,000 ETB threshold; 10% off leaves 990 ETB: standard shipping is paid
    const t = priceOrder([{ unitPrice: 110_000, quantity: 1 }], 'standard', DEFAULT_SHIPPING_RATES, false, {
      kind: 'percent',
      percent: 10,
    });
    expect(t).toEqual({
      subtotal: 110_000,
      discount: 11_000,
      shippingCost: 15_000,
      tax: 14_850,
      totalAmount: 128_850,
    });
  });

  it('takes VAT of the discounted amount, on top or contained', () => {
    const fixed: OrderDiscount = { kind: 'fixed', amount: 15_000 };
    expect(priceOrder([{ unitPrice: 115_000, quantity: 1 }], 'pickup', undefined, false, fixed).tax).toBe(
      15_000,
    );
    // 1,150 − 150 = 1,000 ETB VAT-inclusive: it contains 130.43 ETB of VAT
    const inc = priceOrder([{ unitPrice: 115_000, quantity: 1 }], 'pickup', undefined, true, fixed);
    expect(inc).toEqual({
      subtotal: 115_000,
      discount: 15_000,
      shippingCost: 0,
      tax: 13_043,
      totalAmount: 100_000,
    });
  });

  it('caps a fixed discount at the subtotal and rounds a percentage to the santim, half up', () => {
    expect(discountOf(5_000, { kind: 'fixed', amount: 9_000 })).toBe(5_000);
    expect(discountOf(1_005, { kind: 'percent', percent: 10 })).toBe(101); // 100.5 → 101
    expect(discountOf(1_004, { kind: 'percent', percent: 10 })).toBe(100);
    expect(discountOf(1_000, { kind: 'percent', percent: 100 })).toBe(1_000);
  });

  it('makes any method free with a free-shipping discount and does not count it as discount', () => {
    const t = priceOrder([{ unitPrice: 20_000, quantity: 1 }], 'express', undefined, false, {
      kind: 'freeShipping',
    });
    expect(t).toEqual({ subtotal: 20_000, discount: 0, shippingCost: 0, tax: 3_000, totalAmount: 23_000 });
  });

  it('refuses a percentage outside 1..100 and a negative fixed amount (a caller bug, not a client input)', () => {
    expect(() => discountOf(1_000, { kind: 'percent', percent: 0 })).toThrow(RangeError);
    expect(() => discountOf(1_000, { kind: 'percent', percent: 101 })).toThrow(RangeError);
    expect(() => discountOf(1_000, { kind: 'fixed', amount: -1 })).toThrow(RangeError);
  });
});
