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

export const PAYMENT_STATUSES = ['unpaid', 'paid', 'failed', 'refund_pending', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * The payment status machine of docs/product.md §4 (settled after the first release): unpaid → paid |
 * failed; failed → paid (a retried payment); paid → refund_pending (a paid order cancelled)
 * → refunded. Only the orders module writes an order's payment status, through this table.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  unpaid: ['paid', 'failed'],
  failed: ['paid'],
  paid: ['refund_pending'],
  refund_pending: ['refunded'],
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
    paid: ['refund_pending'],
    refund_pending: ['refunded'],
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
