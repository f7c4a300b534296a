import {
  canCollectPayment,
  canRefund,
  isPayOnDelivery,
  PAYMENT_METHODS,
  refundableAmount,
} from '@shop/shared';
import { apiErrorMessage, errorBody, type Translate } from '../apiErrors';

/** The order fields the payment rules read (a list row and an order detail both have them). */
export interface PaymentFacts {
  paymentMethod?: string | null;
  paymentStatus?: string | null;
  status?: string | null;
  totalAmount?: number | null;
}

/**
 * The i18n key of an order's payment method: 'Pay on delivery', 'Chapa', or Chapa with the wallet the
 * customer picked there (telebirr, CBE Birr, M-Pesa, card); never the raw value.
 */
export function paymentMethodKey(method: string | null | undefined): string {
  // an order without a method was placed before methods existed: Chapa, the default
  const known = (PAYMENT_METHODS as readonly string[]).includes(method ?? '') ? method : 'chapa';
  return `shop.admin.orders.paymentMethods.${known}`;
}

/** What the rider does about money, for the packing slip. */
export type SlipPayment = { kind: 'collect'; amount: number } | { kind: 'paid' } | { kind: 'nothing' };

/**
 * Only an unpaid pay-on-delivery order that is still going out asks the rider to collect its total; a
 * paid order says so; anything else (an online order not paid yet, a refund, a cancelled order) has
 * nothing to collect at the door.
 */
export function slipPayment(o: PaymentFacts): SlipPayment {
  // a part refunded: the rest is still paid
  if (o.paymentStatus === 'paid' || o.paymentStatus === 'partially_refunded') return { kind: 'paid' };
  if (isPayOnDelivery(o.paymentMethod) && o.paymentStatus === 'unpaid' && o.status !== 'cancelled')
    return { kind: 'collect', amount: Number(o.totalAmount ?? 0) };
  return { kind: 'nothing' };
}

/** The slip's payment line in the chosen language (`money` formats the amount). */
export function slipPaymentText(o: PaymentFacts, t: Translate, money: (amount: number) => string): string {
  const p = slipPayment(o);
  if (p.kind === 'collect') return t('shop.admin.orders.slipCollect', { amount: money(p.amount) });
  return t(p.kind === 'paid' ? 'shop.admin.orders.slipPaid' : 'shop.admin.orders.slipNothing');
}

/**
 * Whether staff may record the rider's money: a pay-on-delivery order, unpaid, not cancelled (the rules
 * of POST /api/admin/orders/{id}/payment/collected, which refuses anything else with PAYMENT_NOT_COLLECTABLE).
 */
export const canRecordCollection = (o: PaymentFacts) =>
  canCollectPayment({
    paymentMethod: o.paymentMethod ?? undefined,
    paymentStatus: o.paymentStatus ?? '',
    status: o.status ?? '',
  });

/** The longest reference the API keeps for a collected payment. */
export const COLLECTION_REFERENCE_MAX = 100;

/** A refused 'Record payment collected' in words: the API's reason for this action, else the code's text, else the action's own failure. */
export function collectErrorText(error: unknown, t: Translate): string {
  if (errorBody(error).code === 'PAYMENT_NOT_COLLECTABLE')
    return t('shop.admin.orders.collect.notCollectable');
  return apiErrorMessage(error, t, 'shop.admin.orders.collect.failed');
}

/** The order fields a refund reads. */
export interface RefundFacts {
  paymentMethod?: string | null;
  paymentStatus?: string | null;
  paymentReference?: string | null;
  totalAmount?: number | null;
  refunded?: number | null;
}

/** What may still go back, in ETB, and whether anything may (the API's NOT_REFUNDABLE / REFUND_EXCEEDS_PAID rules). */
export const refundFacts = (o: RefundFacts) => {
  const facts = { totalAmount: Number(o.totalAmount ?? 0), refunded: Number(o.refunded ?? 0) };
  return {
    left: refundableAmount(facts),
    allowed: canRefund({ ...facts, paymentStatus: o.paymentStatus ?? '' }),
    // only an order paid online has a Chapa transaction to refund
    chapa: !isPayOnDelivery(o.paymentMethod) && Boolean(o.paymentReference),
  };
};
