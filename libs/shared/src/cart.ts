import { toSantim, type Santim } from './money';
import { MAX_QUANTITY_PER_ADD } from './pricing';
import { findEthiopianRegion } from './regions';

/**
 * Payment methods a customer may choose at checkout: every one but `cash_on_delivery` goes through
 * Chapa's hosted page; `cash_on_delivery` is paid to the rider and recorded by staff
 * (docs/decisions/0061-pay-on-delivery.md).
 */
export const PAYMENT_METHODS = ['chapa', 'telebirr', 'cbebirr', 'mpesa', 'card', 'cash_on_delivery'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'chapa';
export const PAY_ON_DELIVERY: PaymentMethod = 'cash_on_delivery';

/** Whether an order's payment method is pay on delivery (paid in cash or by phone to the rider). */
export function isPayOnDelivery(method: string | undefined | null): boolean {
  return method === PAY_ON_DELIVERY;
}

/** Where and up to which total pay on delivery is offered (the settings' `cashOnDelivery`). */
export interface CashOnDeliverySettings {
  enabled: boolean;
  /** Canonical English region names (ETHIOPIAN_REGIONS `en`). */
  regions: readonly string[];
  /** The largest order total (shipping and VAT included), in ETB. */
  maxOrderTotal: number;
}

export const DEFAULT_CASH_ON_DELIVERY: CashOnDeliverySettings = {
  enabled: true,
  regions: ['Addis Ababa', 'Dire Dawa'],
  maxOrderTotal: 10_000,
};

/**
 * Whether pay on delivery may be chosen for an order to `region` (any spelling findEthiopianRegion
 * knows) with this total in santim (shipping and VAT included): enabled, the region listed, the
 * total at most maxOrderTotal. The API refuses what this refuses; the storefront offers what it allows.
 */
export function codAllowed(
  settings: CashOnDeliverySettings | undefined | null,
  region: string | undefined | null,
  totalSantim: Santim,
): boolean {
  if (!settings?.enabled) return false;
  const canonical = findEthiopianRegion(region)?.en;
  if (!canonical || !settings.regions.includes(canonical)) return false;
  return Number.isFinite(totalSantim) && totalSantim <= toSantim(settings.maxOrderTotal);
}

/**
 * The most units one add may put in the cart: at most 10 per add (docs/product.md §9) and never more than
 * the stock left after what is already in the cart.
 */
export function maxAddable(stock: number, alreadyInCart = 0): number {
  return Math.max(0, Math.min(MAX_QUANTITY_PER_ADD, stock - alreadyInCart));
}

/** The header badge shows at most "99+". */
export function cartBadge(itemCount: number): string {
  return itemCount > 99 ? '99+' : String(Math.max(0, itemCount));
}
