import { apiFor } from '../session.server';
import { settle } from './api.server';
import { keyOfText } from '../apiMessages';

export type VerifyOutcome = {
  state: 'paid' | 'pending' | 'failed';
  message: string;
  orderId?: string;
  /** The order's short number (`AN-10042`), shown as on every other page. */
  orderNumber?: string;
};

/** A server text of SPEC section 8 (or the API's pending/refund notices) as its payment key, else the fallback. */
export function paymentMessageKey(message: string | undefined, fallback: string): string {
  return keyOfText(message, ['payment']) ?? fallback;
}

interface VerifyAnswer {
  status: 'paid' | 'failed' | 'pending' | 'refund_pending';
  message?: string;
  order?: { _id: string; orderNumber?: string };
}

/**
 * Verifies a transaction with the API. On success the cart is emptied; a failure to do so is only
 * logged (SPEC section 8).
 */
export async function verifyPayment(request: Request, txRef: string | null): Promise<VerifyOutcome> {
  if (!txRef) return { state: 'failed', message: 'payment.notFound' };
  const result = await settle<VerifyAnswer>(
    apiFor(request).GET('/api/payments/verify/{txRef}', { params: { path: { txRef } } }),
  );
  if (!result.ok) {
    if (result.status === 404) return { state: 'failed', message: 'payment.notFound' };
    return {
      state: 'failed',
      message:
        result.status >= 500
          ? 'payment.verificationError'
          : paymentMessageKey(result.message, 'payment.verificationFailed'),
    };
  }
  const orderId = result.data.order?._id;
  const orderNumber = result.data.order?.orderNumber;
  if (result.data.status === 'paid') {
    const cleared = await settle(apiFor(request).DELETE('/api/cart/clear'));
    if (!cleared.ok) console.error('Failed to clear cart after payment', cleared.status, cleared.message);
    return { state: 'paid', message: 'payment.success', orderId, orderNumber };
  }
  if (result.data.status === 'pending')
    return {
      state: 'pending',
      message: paymentMessageKey(result.data.message, 'payment.pending'),
      orderId,
      orderNumber,
    };
  return {
    state: 'failed',
    message: paymentMessageKey(result.data.message, 'payment.notSuccessful'),
    orderId,
    orderNumber,
  };
}
