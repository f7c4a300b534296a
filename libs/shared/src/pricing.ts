import { percentOf, toBirr, toSantim, type Santim } from './money';

/** Business constants of docs/product.md §9 (the settled rules). */
export const TAX_PERCENT = 15;
export const MAX_QUANTITY_PER_ADD = 10;
export const DEFAULT_ADD_QUANTITY = 1;
export const CATALOGUE_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const LOW_STOCK_THRESHOLD = 5;
export const FEATURED_PRODUCTS = 8;

export const SHIPPING_METHODS = ['standard', 'express', 'pickup'] as const;
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];

/** Shipping prices and the free-standard-shipping threshold; defaults of the settings document. */
export interface ShippingRates {
  standard: Santim;
  express: Santim;
  pickup: Santim;
  /** Standard shipping is free when the subtotal is over this amount. */
  freeStandardOver: Santim;
}

export const DEFAULT_SHIPPING_RATES: ShippingRates = {
  standard: 15_000,
  express: 30_000,
  pickup: 0,
  freeStandardOver: 100_000,
};

export interface PricedLine {
  unitPrice: Santim;
  quantity: number;
}

/** Cart total (sum of price times quantity, in santim) and item count (sum of quantities). */
export function cartTotals(lines: readonly PricedLine[]): { total: Santim; itemCount: number } {
  return lines.reduce(
    (acc, line) => ({
      total: acc.total + line.unitPrice * line.quantity,
      itemCount: acc.itemCount + line.quantity,
    }),
    { total: 0, itemCount: 0 },
  );
}

/** A line's total in ETB from a unit price in ETB (as the API answers it), computed in santim: no float drift. */
export function lineTotalBirr(unitPriceBirr: number, quantity: number): number {
  return toBirr(toSantim(unitPriceBirr) * quantity);
}

/**
 * An order-level discount (a coupon, docs/decisions/0095): a percentage of the subtotal (1..100, rounded
 * to the santim, half up), a fixed amount (capped at the subtotal) or free shipping (shipping 0 for any
 * method; the shipping waived is not counted in `discount`).
 */
export type OrderDiscount =
  | { kind: 'percent'; percent: number } // 1..100, of the subtotal, rounded to the santim
  | { kind: 'fixed'; amount: Santim } // capped at the subtotal
  | { kind: 'freeShipping' }; // shipping 0 (any method's price)

export interface OrderTotals {
  /** The lines' sum (line prices: sale prices already applied), before any discount. */
  subtotal: Santim;
  /** What the order discount takes off the subtotal (0 without one and for free shipping). */
  discount: Santim;
  shippingCost: Santim;
  /** VAT of the discounted subtotal (added on top, or contained in it with `pricesIncludeTax`). */
  tax: Santim;
  totalAmount: Santim;
}

/** What a discount takes off a subtotal: never negative, never more than the subtotal. */
export function discountOf(subtotal: Santim, discount?: OrderDiscount): Santim {
  if (!discount || subtotal <= 0) return 0;
  if (discount.kind === 'percent') {
    const { percent } = discount;
    if (!Number.isFinite(percent) || percent < 1 || percent > 100) {
      throw new RangeError(`A percentage discount is 1..100, not ${percent}`);
    }
    return Math.min(subtotal, percentOf(subtotal, percent));
  }
  if (discount.kind === 'fixed') {
    const { amount } = discount;
    if (!Number.isSafeInteger(amount) || amount < 0) {
      throw new RangeError(`A fixed discount is a whole number of santim ≥ 0, not ${amount}`);
    }
    return Math.min(subtotal, amount);
  }
  return 0;
}

export function shippingCost(
  subtotal: Santim,
  method: ShippingMethod,
  rates: ShippingRates = DEFAULT_SHIPPING_RATES,
): Santim {
  if (method === 'standard' && subtotal > rates.freeStandardOver) return 0;
  return rates[method];
}

/**
 * The VAT in an amount: 15% of it added on top (prices exclude VAT, the specification's arithmetic),
 * or the VAT contained in it (`pricesIncludeTax`: amount × 15/115, rounded to the santim).
 */
export function taxOf(subtotal: Santim, pricesIncludeTax = false): Santim {
  if (!pricesIncludeTax) return percentOf(subtotal, TAX_PERCENT);
  return subtotal - Math.round((subtotal * 100) / (100 + TAX_PERCENT));
}

/**
 * The one pricing rule (docs/product.md, prices; docs/decisions/0095), in this order: the lines' prices
 * (sale prices already in `unitPrice`) → the order discount → shipping by method (standard is free when
 * the discounted subtotal is over the threshold; free-shipping discounts make any method 0) → VAT of the
 * discounted subtotal: 15% added on top, or with `pricesIncludeTax` (a setting) the VAT the shelf prices
 * already contain, not added again (the total is then discounted subtotal + shipping).
 */
export function priceOrder(
  lines: readonly PricedLine[],
  method: ShippingMethod = 'standard',
  rates: ShippingRates = DEFAULT_SHIPPING_RATES,
  pricesIncludeTax = false,
  discount?: OrderDiscount,
): OrderTotals {
  const subtotal = cartTotals(lines).total;
  const off = discountOf(subtotal, discount);
  const discounted = subtotal - off;
  const shipping = discount?.kind === 'freeShipping' ? 0 : shippingCost(discounted, method, rates);
  const tax = taxOf(discounted, pricesIncludeTax);
  return {
    subtotal,
    discount: off,
    shippingCost: shipping,
    tax,
    totalAmount: discounted + shipping + (pricesIncludeTax ? 0 : tax),
  };
}

/** Discount percent shown on a product card, from the original and current price. */
export function discountPercent(price: number, originalPrice?: number | null): number {
  if (!originalPrice || originalPrice <= price) return 0;
  return Math.round(((originalPrice - price) / originalPrice) * 100);
}
