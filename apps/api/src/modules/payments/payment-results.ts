import { toBirr } from '@shop/shared';
import type { Types } from 'mongoose';
import type { ErrorCode } from '../../common/errors/domain-error';
import type { OrderRecord } from '../orders/order.view';
import type { Payment } from './schemas/payment.schema';

/** The texts of the payment answers (the codes beside them are what clients show). */
export const PAYMENT_MESSAGES = {
  success: 'Payment Successful!',
  notFound: 'Payment reference not found',
  verificationFailed: 'Payment verification failed',
  notSuccessful: 'Payment was not successful',
  verificationError: 'Payment verification error',
  pending: 'Payment is still being processed',
  refundPending: 'Payment received for a cancelled order; it will be refunded',
} as const;

/** What a transaction reference looks like (the server makes them; anything else is unknown). */
export const TX_REF_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

export type StoredPayment = Payment & { _id: Types.ObjectId };

export type VerificationStatus = 'paid' | 'failed' | 'pending' | 'refund_pending';

export interface PaymentOrderSummary {
  _id: string;
  orderNumber?: string;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  totalAmount: number;
  currency: string;
  paidAt?: Date;
  paymentReference?: string;
}

export interface VerificationResult {
  success: boolean;
  status: VerificationStatus;
  message: string;
  /** PAYMENT_SUCCESS, PAYMENT_REFUND_PENDING, PAYMENT_FAILED, PAYMENT_VERIFICATION_FAILED or PAYMENT_PENDING. */
  code: ErrorCode;
  txRef: string;
  provider: string;
  order?: PaymentOrderSummary;
}

export interface InitializeResult {
  success: true;
  provider: string;
  txRef: string;
  checkoutUrl: string;
  amount: number;
  currency: string;
  hostedForm: {
    action: string;
    fields: Record<string, string>;
  };
}

export interface ReverifyReport {
  checked: number;
  paid: number;
  failed: number;
  pending: number;
  errors: number;
}

export function toOrderSummary(order: OrderRecord): PaymentOrderSummary {
  return {
    _id: String(order._id),
    ...(order.orderNumber ? { orderNumber: order.orderNumber } : {}),
    status: order.status,
    paymentStatus: order.paymentStatus,
    paymentMethod: order.paymentMethod,
    totalAmount: toBirr(order.totalAmountSantim),
    currency: order.currency,
    paidAt: order.paidAt,
    paymentReference: order.paymentReference,
  };
}
