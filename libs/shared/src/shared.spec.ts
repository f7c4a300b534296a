import {
  canTransition,
  discountPercent,
  lineTotalBirr,
  normaliseRole,
  passwordScore,
  passwordStrengthLabel,
  priceOrder,
  toBirr,
  toBirrText,
  toSantim,
} from './index';

describe('money', () => {
  it('converts ETB to santim without floating-point drift', () => {
    expect(toSantim(0.1 + 0.2)).toBe(30);
    expect(toSantim(1249.99)).toBe(124_999);
    expect(toBirr(124_999)).toBe(1249.99);
  });

  it('writes santim as ETB text with two decimals for payment providers', () => {
    expect(toBirrText(124_950)).toBe('1249.50');
    expect(toBirrText(5)).toBe('0.05');
    expect(toBirrText(100_000)).toBe('1000.00');
  });
});

describe('lineTotalBirr', () => {
  it('multiplies in santim, so 3 x 0.1 ETB is 0.3 and 7 x 1249.99 is 8749.93', () => {
    expect(lineTotalBirr(0.1, 3)).toBe(0.3);
    expect(0.1 * 3).not.toBe(0.3);
    expect(lineTotalBirr(1249.99, 7)).toBe(8749.93);
  });
});

describe('priceOrder', () => {
  it('charges flat 150 ETB standard shipping and 15% tax under the free-shipping threshold', () => {
    const totals = priceOrder([{ unitPrice: 45_000, quantity: 2 }], 'standard');
    expect(totals).toEqual({
      subtotal: 90_000,
      discount: 0,
      shippingCost: 15_000,
      tax: 13_500,
      totalAmount: 118_500,
    });
  });

  it('ships standard for free when the subtotal is over 1000 ETB, but not express', () => {
    expect(priceOrder([{ unitPrice: 100_001, quantity: 1 }], 'standard').shippingCost).toBe(0);
    expect(priceOrder([{ unitPrice: 100_000, quantity: 1 }], 'standard').shippingCost).toBe(15_000);
    expect(priceOrder([{ unitPrice: 200_000, quantity: 1 }], 'express').shippingCost).toBe(30_000);
    expect(priceOrder([{ unitPrice: 200_000, quantity: 1 }], 'pickup').shippingCost).toBe(0);
  });
});

describe('order status machine', () => {
  it('allows only the transitions of docs/product.md §4', () => {
    expect(canTransition('pending', 'processing')).toBe(true);
    expect(canTransition('processing', 'shipped')).toBe(true);
    expect(canTransition('shipped', 'delivered')).toBe(true);
    expect(canTransition('pending', 'delivered')).toBe(false);
    expect(canTransition('shipped', 'cancelled')).toBe(false);
    expect(canTransition('delivered', 'pending')).toBe(false);
    expect(canTransition('cancelled', 'processing')).toBe(false);
  });
});

describe('password strength', () => {
  it('scores one point per rule and labels the score', () => {
    expect(passwordScore('abc')).toBe(1);
    expect(passwordScore('abcdefgh')).toBe(2);
    expect(passwordScore('Abcdefgh')).toBe(3);
    expect(passwordScore('Abcdefg1')).toBe(4);
    expect(passwordScore('Abcdef1!')).toBe(5);
    expect(passwordStrengthLabel(1)).toBe('very weak');
    expect(passwordStrengthLabel(3)).toBe('medium');
    expect(passwordStrengthLabel(5)).toBe('very strong');
  });
});

describe('roles and discounts', () => {
  it("reads the dictionary's 'user' role as customer", () => {
    expect(normaliseRole('user')).toBe('customer');
    expect(normaliseRole('admin')).toBe('admin');
    expect(normaliseRole('root')).toBeUndefined();
  });

  it('computes the discount badge percent', () => {
    expect(discountPercent(750, 1000)).toBe(25);
    expect(discountPercent(1000, 900)).toBe(0);
    expect(discountPercent(1000)).toBe(0);
  });
});
