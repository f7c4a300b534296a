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

export function canTransitionPayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[from].includes(to);
}
