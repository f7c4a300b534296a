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

export interface OrderTotals {
  subtotal: Santim;
  shippingCost: Santim;
  tax: Santim;
  totalAmount: Santim;
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
 * Prices an order: subtotal of the lines, shipping by method, 15% VAT of the subtotal. With
 * `pricesIncludeTax` (a setting) shelf prices already include the VAT: `tax` is the VAT they contain
 * and is not added again, so the total is subtotal + shipping.
 */
export function priceOrder(
  lines: readonly PricedLine[],
  method: ShippingMethod = 'standard',
  rates: ShippingRates = DEFAULT_SHIPPING_RATES,
  pricesIncludeTax = false,
): OrderTotals {
  const subtotal = cartTotals(lines).total;
  const shipping = shippingCost(subtotal, method, rates);
  const tax = taxOf(subtotal, pricesIncludeTax);
  return {
    subtotal,
    shippingCost: shipping,
    tax,
    totalAmount: subtotal + shipping + (pricesIncludeTax ? 0 : tax),
  };
}

/** Discount percent shown on a product card, from the original and current price. */
export function discountPercent(price: number, originalPrice?: number | null): number {
  if (!originalPrice || originalPrice <= price) return 0;
  return Math.round(((originalPrice - price) / originalPrice) * 100);
}
