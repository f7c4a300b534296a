import { MAX_QUANTITY_PER_ADD } from './pricing';

/** Payment methods a customer may choose at checkout; all of them go through Chapa's hosted page. */
export const PAYMENT_METHODS = ['chapa', 'telebirr', 'cbebirr', 'mpesa', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'chapa';

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
