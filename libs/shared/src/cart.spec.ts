import { cartBadge, maxAddable } from './cart';
import { cartTotals } from './pricing';

describe('cart arithmetic', () => {
  it('adds price times quantity in santim and counts units', () => {
    expect(
      cartTotals([
        { unitPrice: 45_050, quantity: 2 },
        { unitPrice: 999, quantity: 3 },
      ]),
    ).toEqual({ total: 93_097, itemCount: 5 });
    expect(cartTotals([])).toEqual({ total: 0, itemCount: 0 });
  });
  it('allows at most 10 per add and never beyond the stock left', () => {
    expect(maxAddable(50)).toBe(10);
    expect(maxAddable(4, 1)).toBe(3);
    expect(maxAddable(2, 5)).toBe(0);
  });
  it('caps the badge at 99+', () => {
    expect(cartBadge(99)).toBe('99');
    expect(cartBadge(100)).toBe('99+');
    expect(cartBadge(0)).toBe('0');
  });
});
