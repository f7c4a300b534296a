import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { canTransitionPayment, isPayOnDelivery, toBirr, type PaymentStatus } from '@shop/shared';
import { ConflictError, NotFoundError } from '../../common/errors/domain-error';
import { parseObjectId } from '../../common/mongo';
import { APP_CONFIG, type AppConfig } from '../../config';
import { GuestOrderTokens, type OrderViewer } from '../orders/orders.module';
import { OrderPayments } from '../orders/order-payments.service';
import type { OrderRecord } from '../orders/order.view';
import { PAYMENT_MESSAGES, type InitializeResult, type VerificationResult } from './payment-results';
import { PaymentSettlement } from './payment-settlement.service';
import { PAYMENT_PROVIDER, santimToAmountString, type PaymentProvider } from './providers/payment-provider';
import { Payment } from './schemas/payment.schema';

export {
  PAYMENT_MESSAGES,
  type InitializeResult,
  type PaymentOrderSummary,
  type ReverifyReport,
  type VerificationResult,
  type VerificationStatus,
} from './payment-results';

const ORDER_NOT_FOUND = 'Order not found';
/** Chapa limits customization[title] to 16 characters. */
const CHECKOUT_TITLE = 'Beauty Shop';

function splitName(name: string | undefined): { firstName: string; lastName: string } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return { firstName: 'Customer', lastName: 'Customer' };
  return { firstName: parts[0], lastName: parts.length > 1 ? parts.slice(1).join(' ') : parts[0] };
}

/**
 * Payments as the customer meets them: the server makes the transaction for the stored order's
 * amount and currency, the customer (or an admin) asks whether it is paid, the provider's callback
 * and the test provider's checkout. Settling is PaymentSettlement's; webhooks PaymentWebhooks';
 * the periodic re-check PaymentReverification's.
 */
@Injectable()
export class PaymentsService {
  constructor(
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly orders: OrderPayments,
    private readonly settlement: PaymentSettlement,
    private readonly guestTokens: GuestOrderTokens,
  ) {}

  get providerName(): string {
    return this.provider.name;
  }

  returnUrlFor(txRef: string): string {
    return `${this.config.storefrontUrl}/payment/return?tx_ref=${encodeURIComponent(txRef)}`;
  }

  /**
   * Starts a payment for the customer's own unpaid order (or a guest's, with its order token): a new
   * tx_ref, amount and currency from the stored order. A pay-on-delivery order is paid to the rider (409).
   */
  async initialize(viewer: OrderViewer, orderId: string): Promise<InitializeResult> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    const order = await this.orders.orderForPayment(id);
    if (!order || !this.isPayer(viewer, order)) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    if (isPayOnDelivery(order.paymentMethod))
      throw new ConflictError('This order is paid on delivery', 'PAY_ON_DELIVERY_ORDER');
    this.assertPayable(order);
    const user = viewer.user;

    const txRef = `bs-${String(order._id)}-${randomBytes(8).toString('hex')}`;
    // Conditional on the order still being payable: a cancel or a payment in between wins.
    if (!(await this.orders.claimPayment(order._id, txRef))) {
      this.assertPayable((await this.orders.orderForPayment(order._id)) ?? order);
      throw new ConflictError('This order can no longer be paid', 'ORDER_NOT_PAYABLE');
    }

    const payment = await this.payments.create({
      txRef,
      order: order._id,
      ...(order.user ? { user: order.user } : {}),
      provider: this.provider.name,
      amountSantim: order.totalAmountSantim,
      currency: order.currency || 'ETB',
      status: 'initialized',
      events: [{ source: 'initialize', at: new Date(), processed: false }],
    });

    const email = order.customer?.email || user?.email || '';
    // Chapa takes the local 10-digit form (09.../07...)
    const e164 = order.customer?.phone || order.shippingAddress?.phone;
    const phoneNumber = e164 && /^\+251[79]\d{8}$/.test(e164) ? `0${e164.slice(4)}` : undefined;
    const { firstName, lastName } = splitName(order.customer?.name || user?.name);
    const callbackUrl = `${this.config.publicUrl}/api/payments/callback`;
    const returnUrl = this.returnUrlFor(txRef);
    const description = `Payment for order ${String(order._id)}`;
    let checkoutUrl: string;
    try {
      ({ checkoutUrl } = await this.provider.initialize({
        txRef,
        amountSantim: payment.amountSantim,
        currency: payment.currency,
        email,
        firstName,
        lastName,
        ...(phoneNumber ? { phoneNumber } : {}),
        title: CHECKOUT_TITLE,
        description,
        callbackUrl,
        returnUrl,
      }));
    } catch (error) {
      await this.payments.updateOne(
        { _id: payment._id, status: 'initialized' },
        {
          $set: { status: 'failed', failureReason: 'initialize_failed', settledAt: new Date() },
          $push: {
            events: { source: 'initialize', at: new Date(), processed: true, note: (error as Error).message },
          },
        },
      );
      throw error;
    }

    return {
      success: true,
      provider: this.provider.name,
      txRef,
      checkoutUrl,
      amount: toBirr(payment.amountSantim),
      currency: payment.currency,
      hostedForm: {
        action: this.provider.name === 'chapa' ? this.config.chapa.hostedFormUrl : checkoutUrl,
        fields: {
          public_key: this.config.chapa.publicKey ?? '',
          tx_ref: txRef,
          amount: santimToAmountString(payment.amountSantim),
          currency: payment.currency,
          email,
          first_name: firstName,
          last_name: lastName,
          title: CHECKOUT_TITLE,
          description,
          logo: `${this.config.storefrontUrl}/favicon.svg`,
          callback_url: callbackUrl,
          return_url: returnUrl,
        },
      },
    };
  }

  /**
   * The customer (owner), a guest with its order's token, or an admin asks whether a transaction is
   * paid; settles it on the provider's word.
   */
  async verify(viewer: OrderViewer, txRef: string): Promise<VerificationResult> {
    const payment = await this.settlement.findPayment(txRef);
    if (viewer.user?.role !== 'admin' && !(await this.paysFor(viewer, payment)))
      throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    return this.settlement.settle(payment.txRef, 'verify');
  }

  /** Chapa's callback_url (a GET after payment): triggers a verification, reveals nothing about the order. */
  async handleCallback(txRef: string | undefined): Promise<Omit<VerificationResult, 'order'>> {
    const payment = await this.settlement.findPayment(txRef ?? '');
    const { order: _order, ...result } = await this.settlement.settle(payment.txRef, 'verify');
    return result;
  }

  /** Test provider only: the customer chooses the outcome on the test checkout page. */
  async completeTestPayment(
    viewer: OrderViewer,
    txRef: string,
    outcome: 'success' | 'failed',
  ): Promise<VerificationResult> {
    const payment = await this.settlement.findPayment(txRef);
    if (
      payment.provider !== 'test' ||
      this.provider.name !== 'test' ||
      !(await this.paysFor(viewer, payment))
    ) {
      throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    }
    await this.payments.updateOne(
      { _id: payment._id, status: 'initialized', testOutcome: { $exists: false } },
      { $set: { testOutcome: outcome } },
    );
    return this.settlement.settle(payment.txRef, 'test');
  }

  /** What the public test checkout page shows about a transaction. */
  async describeTestPayment(
    txRef: string,
  ): Promise<{ txRef: string; amount: number; currency: string; status: string; returnUrl: string }> {
    const payment = await this.settlement.findPayment(txRef);
    if (payment.provider !== 'test' || this.provider.name !== 'test')
      throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    return {
      txRef: payment.txRef,
      amount: toBirr(payment.amountSantim),
      currency: payment.currency,
      status: payment.status,
      returnUrl: this.returnUrlFor(payment.txRef),
    };
  }

  /** Whether the viewer pays for this order: its account, or (a guest's order) the holder of its token. */
  private isPayer(viewer: OrderViewer, order: OrderRecord): boolean {
    if (viewer.user && order.user && String(order.user) === viewer.user.id) return true;
    return this.guestTokens.accepts(order, viewer.orderToken);
  }

  /** Whether the viewer pays for the payment's order (its account, or the guest order's token). */
  private async paysFor(viewer: OrderViewer, payment: { user?: unknown; order: unknown }): Promise<boolean> {
    if (viewer.user && payment.user && String(payment.user) === viewer.user.id) return true;
    if (!viewer.orderToken) return false;
    const order = await this.orders.orderForPayment(String(payment.order));
    return !!order && this.guestTokens.accepts(order, viewer.orderToken);
  }

  private assertPayable(order: OrderRecord): void {
    if (order.status === 'cancelled')
      throw new ConflictError(
        'This order has been cancelled and cannot be paid',
        'ORDER_CANCELLED_UNPAYABLE',
      );
    if (!canTransitionPayment(order.paymentStatus as PaymentStatus, 'paid'))
      throw new ConflictError('This order has already been paid', 'ORDER_ALREADY_PAID');
  }
}
