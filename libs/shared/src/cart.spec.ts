import { cartBadge, codAllowed, DEFAULT_CASH_ON_DELIVERY, isPayOnDelivery, maxAddable } from './cart';
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

  it('offers pay on delivery only when enabled, in a listed region and up to the largest total', () => {
    const cod = DEFAULT_CASH_ON_DELIVERY;
    expect(codAllowed(cod, 'Addis Ababa', 1_000_000)).toBe(true); // ETB 10,000.00 exactly
    expect(codAllowed(cod, 'አዲስ አበባ', 500)).toBe(true); // any spelling of a listed region
    expect(codAllowed(cod, 'DD', 500)).toBe(true);
    expect(codAllowed(cod, 'Addis Ababa', 1_000_001)).toBe(false);
    expect(codAllowed(cod, 'Oromia', 500)).toBe(false);
    expect(codAllowed(cod, 'Atlantis', 500)).toBe(false);
    expect(codAllowed({ ...cod, enabled: false }, 'Addis Ababa', 500)).toBe(false);
    expect(codAllowed(undefined, 'Addis Ababa', 500)).toBe(false);
    expect(isPayOnDelivery('cash_on_delivery')).toBe(true);
    expect(isPayOnDelivery('chapa')).toBe(false);
  });
});
