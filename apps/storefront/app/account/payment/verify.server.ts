import type { ApiClient } from '@shop/api-client';
import { apiFor } from '../../session.server';
import { codeKey } from '../../apiMessages';
import { settle } from '../api.server';

export type VerifyOutcome = {
  state: 'paid' | 'pending' | 'failed';
  message: string;
  orderId?: string;
  /** The order's short number (`AN-10042`), shown as on every other page. */
  orderNumber?: string;
};

/** The payment page's key for each code the payment API answers (docs/product.md §8 texts). */
const PAYMENT_KEYS: Record<string, string> = {
  PAYMENT_SUCCESS: 'payment.success',
  PAYMENT_PENDING: 'payment.pending',
  PAYMENT_FAILED: 'payment.notSuccessful',
  PAYMENT_VERIFICATION_FAILED: 'payment.verificationFailed',
  PAYMENT_REFUND_PENDING: 'payment.refundPending',
  PAYMENT_NOT_FOUND: 'payment.notFound',
  PAYMENT_VERIFICATION_ERROR: 'payment.verificationError',
};

/**
 * The text key of an API code on the payment pages: the payment page's own text for a payment code,
 * else the code's `errors.<CODE>` text (an order that can no longer be paid, the payment service
 * unavailable...), else the fallback. It takes the API's `code`, never its message.
 */
export function paymentMessageKey(code: string | undefined, fallback: string): string {
  return (code && Object.hasOwn(PAYMENT_KEYS, code) && PAYMENT_KEYS[code]) || codeKey(code) || fallback;
}

/**
 * Verifies a transaction with the API, as the signed-in customer or (`api`) as the guest holding the
 * order's token. On success the cart is emptied; a failure to do so is only logged (docs/product.md §8).
 */
export async function verifyPayment(
  request: Request,
  txRef: string | null,
  api: ApiClient = apiFor(request),
): Promise<VerifyOutcome> {
  if (!txRef) return { state: 'failed', message: 'payment.notFound' };
  const result = await settle(api.GET('/api/payments/verify/{txRef}', { params: { path: { txRef } } }));
  if (!result.ok) {
    if (result.status === 404) return { state: 'failed', message: 'payment.notFound' };
    return {
      state: 'failed',
      message:
        result.status >= 500
          ? 'payment.verificationError'
          : paymentMessageKey(result.code, 'payment.verificationFailed'),
    };
  }
  const orderId = result.data.order?._id;
  const orderNumber = result.data.order?.orderNumber;
  if (result.data.status === 'paid') {
    const cleared = await settle(apiFor(request).DELETE('/api/cart/clear'));
    if (!cleared.ok) console.error('Failed to clear cart after payment', cleared.status, cleared.code);
    return { state: 'paid', message: 'payment.success', orderId, orderNumber };
  }
  if (result.data.status === 'pending')
    return {
      state: 'pending',
      message: paymentMessageKey(result.data.code, 'payment.pending'),
      orderId,
      orderNumber,
    };
  return {
    state: 'failed',
    message: paymentMessageKey(result.data.code, 'payment.notSuccessful'),
    orderId,
    orderNumber,
  };
}
