import { Inject, Injectable } from '@nestjs/common';
import { isPayOnDelivery, toSantim, type RefundMethod } from '@shop/shared';
import { randomBytes } from 'node:crypto';
import type { AuthUser } from '../../common/auth/auth-user';
import { ConflictError } from '../../common/errors/domain-error';
import { OrderPayments } from '../orders/order-payments.service';
import type { AdminOrderView } from '../orders/order.view';
import { PAYMENT_PROVIDER, type PaymentProvider } from './providers/payment-provider';

export const REFUND_METHOD_UNAVAILABLE =
  'This order was not paid through Chapa: record the refund as a manual refund with its reference';

/**
 * Staff's refunds (POST /api/admin/orders/{id}/refunds, docs/decisions/0080-fulfilment-refunds-notes.md):
 * checked against the order first (nothing refundable, more than what is left: 409, nothing moves),
 * then, for method 'chapa', given back through the provider's refund API on the paid transaction,
 * and recorded on the order (OrderPayments.recordRefund: status, audit, the customer's message).
 * A 'manual' refund (cash, bank transfer) is recorded with its reference; no provider call.
 */
@Injectable()
export class PaymentRefunds {
  constructor(
    private readonly orders: OrderPayments,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  async refund(
    orderId: string,
    actor: AuthUser,
    input: { amount: number; reason: string; method: RefundMethod; reference?: string },
  ): Promise<AdminOrderView> {
    const amountSantim = toSantim(input.amount);
    const order = await this.orders.refundable(orderId, amountSantim);
    if (input.method === 'manual')
      return this.orders.recordRefund(orderId, actor, { ...input, amountSantim });
    if (isPayOnDelivery(order.paymentMethod) || !order.paymentReference)
      throw new ConflictError(REFUND_METHOD_UNAVAILABLE, 'REFUND_METHOD_UNAVAILABLE');
    const ours = `RF-${order.orderNumber ?? String(order._id)}-${randomBytes(3).toString('hex')}`;
    const given = await this.provider.refund({
      txRef: order.paymentReference,
      amountSantim,
      reason: input.reason,
      reference: ours,
    });
    return this.orders.recordRefund(
      orderId,
      actor,
      { ...input, amountSantim, reference: input.reference || given.providerReference || ours },
      true,
    );
  }
}
