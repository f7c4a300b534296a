/** The order status machine of docs/product.md §4, shared by the API and the back office. */
export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['processing', 'cancelled'],
  processing: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** A customer may cancel their own order while it is pending or processing. */
export function customerMayCancel(status: OrderStatus): boolean {
  return status === 'pending' || status === 'processing';
}

export const ORDER_STATUS_COLORS: Readonly<Record<OrderStatus, string>> = {
  pending: 'yellow',
  processing: 'blue',
  shipped: 'purple',
  delivered: 'green',
  cancelled: 'red',
};

export const PAYMENT_STATUSES = [
  'unpaid',
  'paid',
  'failed',
  'refund_pending',
  'partially_refunded',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * The payment status machine of docs/product.md §4 (settled after the first release): unpaid → paid |
 * failed; failed → paid (a retried payment); paid → refund_pending (a paid order cancelled)
 * → refunded. Staff record refunds (docs/decisions/0080-fulfilment-refunds-notes.md): paid |
 * refund_pending | partially_refunded → refunded (the whole paid amount back) or
 * partially_refunded (a part); a partly refunded order cancelled is refund_pending again. Only the
 * orders module writes an order's payment status, through this table.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  unpaid: ['paid', 'failed'],
  failed: ['paid'],
  paid: ['refund_pending', 'partially_refunded', 'refunded'],
  refund_pending: ['partially_refunded', 'refunded'],
  partially_refunded: ['refund_pending', 'partially_refunded', 'refunded'],
  refunded: [],
};

/**
 * The payment machine of a pay-on-delivery order (docs/decisions/0061-pay-on-delivery.md): unpaid →
 * paid only when staff record the money the rider collected; never failed (nothing is tried online);
 * a cancelled order still unpaid stays unpaid (nothing to refund); a collected order cancelled
 * afterwards goes paid → refund_pending → refunded as any paid order.
 */
export const PAY_ON_DELIVERY_PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> =
  {
    unpaid: ['paid'],
    failed: [],
    paid: ['refund_pending', 'partially_refunded', 'refunded'],
    refund_pending: ['partially_refunded', 'refunded'],
    partially_refunded: ['refund_pending', 'partially_refunded', 'refunded'],
    refunded: [],
  };

/** The payment machine of an order paid by this method (`cash_on_delivery` has its own). */
export function paymentTransitionsFor(
  method: string | undefined | null,
): Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> {
  return method === 'cash_on_delivery' ? PAY_ON_DELIVERY_PAYMENT_TRANSITIONS : PAYMENT_TRANSITIONS;
}

/** Whether the payment may move `from` → `to`; with `method`, on that method's machine. */
export function canTransitionPayment(
  from: PaymentStatus,
  to: PaymentStatus,
  method?: string | null,
): boolean {
  return paymentTransitionsFor(method)[from]?.includes(to) ?? false;
}

/**
 * Whether staff may record the rider's collection for an order: a pay-on-delivery order, not
 * cancelled, still unpaid. Online payments are never "collected".
 */
export function canCollectPayment(order: {
  paymentMethod?: string;
  paymentStatus: string;
  status: string;
}): boolean {
  return (
    order.paymentMethod === 'cash_on_delivery' &&
    order.status !== 'cancelled' &&
    canTransitionPayment(order.paymentStatus as PaymentStatus, 'paid', order.paymentMethod)
  );
}

/** The moves that need the order paid (or paid on delivery): docs/decisions/0080-fulfilment-refunds-notes.md. */
export const FULFILMENT_STATUSES: readonly OrderStatus[] = ['processing', 'shipped'];

/** Payment states in which the shop holds the customer's money (a part may have gone back). */
export const PAID_PAYMENT_STATUSES: readonly PaymentStatus[] = ['paid', 'partially_refunded'];

/**
 * Whether the order may be prepared and sent (processing, shipped): it is paid (a part refunded
 * still counts), or it is paid on delivery and not refunded (the rider collects). An online (Chapa)
 * order unpaid or whose payment failed may not: the API answers 409 ORDER_NOT_PAID.
 */
export function canFulfil(order: { paymentMethod?: string | null; paymentStatus: string }): boolean {
  if (order.paymentMethod === 'cash_on_delivery') return order.paymentStatus !== 'refunded';
  return PAID_PAYMENT_STATUSES.includes(order.paymentStatus as PaymentStatus);
}

/**
 * The statuses the order may move to now: the machine's moves, without processing/shipped while
 * the order may not be fulfilled (canFulfil). What the back office offers, what the API accepts.
 */
export function nextStatuses(order: {
  status: string;
  paymentMethod?: string | null;
  paymentStatus: string;
}): OrderStatus[] {
  const moves = ORDER_TRANSITIONS[order.status as OrderStatus] ?? [];
  return moves.filter((to) => !FULFILMENT_STATUSES.includes(to) || canFulfil(order));
}

/**
 * Whether staff may record a refund: the shop holds money for the order (paid, partly refunded, or
 * paid and cancelled: refund_pending) and some of it has not gone back yet.
 */
export function canRefund(order: { paymentStatus: string; totalAmount: number; refunded?: number }): boolean {
  return (
    ['paid', 'partially_refunded', 'refund_pending'].includes(order.paymentStatus) &&
    refundableAmount(order) > 0
  );
}

/** What may still be refunded, in ETB: the paid total minus earlier refunds (never below 0). */
export function refundableAmount(order: { totalAmount: number; refunded?: number }): number {
  return Math.max(0, Math.round((order.totalAmount - (order.refunded ?? 0)) * 100) / 100);
}

export const REFUND_METHODS = ['chapa', 'manual'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];
