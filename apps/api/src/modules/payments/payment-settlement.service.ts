import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { ClientSession, Connection, Model } from 'mongoose';
import { Changes } from '../../common/changes';
import { DomainError, NotFoundError } from '../../common/errors/domain-error';
import { ShopSignals } from '../../common/metrics/shop-signals';
import { inTransaction } from '../../common/mongo';
import { OrderPayments } from '../orders/order-payments.service';
import type { OrderRecord } from '../orders/order.view';
import {
  PAYMENT_MESSAGES,
  toOrderSummary,
  TX_REF_PATTERN,
  type StoredPayment,
  type VerificationResult,
} from './payment-results';
import {
  PAYMENT_PROVIDER,
  type PaymentProvider,
  type ProviderVerification,
} from './providers/payment-provider';
import { Payment, type PaymentEvent } from './schemas/payment.schema';

export type EventSource = PaymentEvent['source'];

/** What settled a payment (webhook, verify, reverify, test): its latest event, recorded in the audit log. */
const lastSource = (payment: StoredPayment): string | undefined => payment.events?.at(-1)?.source;

/**
 * Settling a transaction on the provider's word. Every settlement is one conditional update on the
 * payment record ("status: initialized" -> final) in one transaction with the order's payment state
 * (OrderPayments), so a webhook delivered twice, a verify racing a webhook, or the periodic
 * re-verification settle a transaction exactly once; an order becomes paid only after the provider
 * confirms the stored amount and currency.
 */
@Injectable()
export class PaymentSettlement {
  private readonly logger = new Logger('Payments');

  constructor(
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly orders: OrderPayments,
    private readonly changes: Changes,
    private readonly signals: ShopSignals,
  ) {}

  /** The transaction of a reference; an unknown or malformed one is a 404. */
  async findPayment(txRef: string): Promise<StoredPayment> {
    if (typeof txRef !== 'string' || !TX_REF_PATTERN.test(txRef))
      throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    const payment = await this.payments.findOne({ txRef }).lean<StoredPayment>();
    if (!payment) throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    return payment;
  }

  /** Asks the provider about an unsettled transaction and settles it once; a settled one is only re-read. */
  async settle(txRef: string, source: EventSource, claimedStatus?: string): Promise<VerificationResult> {
    const payment = await this.payments.findOne({ txRef }).lean<StoredPayment>();
    if (!payment) throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    if (payment.status !== 'initialized') {
      if (source === 'webhook')
        await this.recordEvent(payment, { source, providerStatus: claimedStatus, note: 'repeat delivery' });
      return this.outcome(payment);
    }

    let verification: ProviderVerification;
    try {
      verification = await this.provider.verify(txRef);
    } catch (error) {
      this.signals.paymentUnverified();
      await this.recordEvent(payment, {
        source,
        providerStatus: 'unreachable',
        note: (error as Error).message,
      });
      if (error instanceof DomainError) throw error;
      throw new DomainError(
        'UNAVAILABLE',
        PAYMENT_MESSAGES.verificationError,
        undefined,
        'PAYMENT_VERIFICATION_ERROR',
      );
    }

    if (verification.status === 'pending') {
      await this.recordEvent(payment, { source, providerStatus: 'pending', note: verification.message });
      return this.outcome(payment);
    }
    if (verification.status === 'failed') return this.settleFailed(payment, source, 'declined', verification);
    if (verification.amountSantim !== payment.amountSantim) {
      return this.settleFailed(payment, source, 'amount_mismatch', verification);
    }
    if ((verification.currency ?? '').toUpperCase() !== payment.currency.toUpperCase()) {
      return this.settleFailed(payment, source, 'currency_mismatch', verification);
    }
    return this.settleSucceeded(payment, source, verification);
  }

  private async recordEvent(
    payment: StoredPayment,
    event: Omit<PaymentEvent, 'at' | 'processed'>,
  ): Promise<void> {
    await this.payments.updateOne(
      { _id: payment._id },
      {
        $set: { lastCheckedAt: new Date() },
        $push: { events: { ...event, at: new Date(), processed: false } },
      },
    );
  }

  private async settleFailed(
    payment: StoredPayment,
    source: EventSource,
    reason: 'declined' | 'amount_mismatch' | 'currency_mismatch',
    verification: ProviderVerification,
  ): Promise<VerificationResult> {
    const now = new Date();
    const note =
      reason === 'declined'
        ? verification.message
        : `provider confirmed ${verification.amountSantim ?? '?'} santim ${verification.currency ?? '?'}, expected ${payment.amountSantim} ${payment.currency}`;
    // the payment's settlement, the order's payment status, its audit entry and the customer's
    // message commit together: a crash leaves either all of them or none (and the next check settles)
    const settled = await this.inTransaction(async (session) => {
      const changed = await this.payments
        .findOneAndUpdate(
          { _id: payment._id, status: 'initialized' },
          {
            $set: {
              status: 'failed',
              failureReason: reason,
              settledAt: now,
              lastCheckedAt: now,
              providerReference: verification.providerReference,
            },
            $push: {
              events: { source, at: now, providerStatus: verification.status, processed: true, note },
            },
          },
          { new: true, session },
        )
        .lean<StoredPayment>();
      // Only the order's current attempt marks it failed; it stays payable with a new transaction.
      if (changed) await this.orders.markPaymentFailed(payment.order, payment.txRef, source, session);
      return changed;
    });
    if (!settled) return this.outcome((await this.payments.findById(payment._id).lean<StoredPayment>())!);
    this.orderChanged(payment);
    this.signals.paymentSettled(reason);
    if (reason !== 'declined') this.logger.warn(`payment ${payment.txRef} refused: ${note}`);
    return this.outcome(settled);
  }

  private async settleSucceeded(
    payment: StoredPayment,
    source: EventSource,
    verification: ProviderVerification,
  ): Promise<VerificationResult> {
    const now = new Date();
    // the settlement and the order's move (paid, or refund pending if cancelled meanwhile) with its
    // audit entry and message commit together; outcome() re-applies idempotently for older records
    const settled = await this.inTransaction(async (session) => {
      const changed = await this.payments
        .findOneAndUpdate(
          { _id: payment._id, status: 'initialized' },
          {
            $set: {
              status: 'success',
              settledAt: now,
              lastCheckedAt: now,
              providerReference: verification.providerReference,
            },
            $push: { events: { source, at: now, providerStatus: 'success', processed: true } },
          },
          { new: true, session },
        )
        .lean<StoredPayment>();
      if (changed) await this.applySuccessInSession(changed, source, session);
      return changed;
    });
    if (settled) {
      this.orderChanged(payment);
      this.signals.paymentSettled('success');
    }
    return this.outcome(settled ?? (await this.payments.findById(payment._id).lean<StoredPayment>())!);
  }

  /**
   * Brings the order in line with a successful payment; every step is conditional, so running it
   * again (a repeat verify, a crash between the two writes) changes nothing or completes the work.
   */
  private async applySuccessToOrder(payment: StoredPayment): Promise<OrderRecord | null> {
    const source = lastSource(payment);
    const moved = await this.inTransaction((session) => this.applySuccessInSession(payment, source, session));
    if (moved) this.orderChanged(payment);
    const order = await this.orders.orderForPayment(payment.order);
    const ownsOrder = order?.paymentReference === payment.txRef;
    if (!ownsOrder && !payment.refundRequired) {
      // A second successful transaction for an order already settled by another one: refund it.
      await this.payments.updateOne({ _id: payment._id }, { $set: { refundRequired: true } });
      this.logger.warn(
        `payment ${payment.txRef} succeeded for order ${String(payment.order)} already settled by ${order?.paymentReference}: refund required`,
      );
    } else if (ownsOrder && order?.paymentStatus === 'refund_pending' && !payment.refundRequired) {
      await this.payments.updateOne({ _id: payment._id }, { $set: { refundRequired: true } });
    }
    return order;
  }

  /** paid, or, cancelled meanwhile, flagged for refund: the money is never lost and never "paid" (both no-ops once done). */
  private async applySuccessInSession(
    payment: StoredPayment,
    source: string | undefined,
    session: ClientSession,
  ): Promise<boolean> {
    const paidAt = payment.settledAt ?? new Date();
    return (
      (await this.orders.markPaid(payment.order, payment.txRef, paidAt, source, session)) ||
      (await this.orders.flagRefund(payment.order, payment.txRef, source, session))
    );
  }

  /** Runs `work` in one transaction; a write conflict that outlasts the driver's retries is a 409, never a 500. */
  private inTransaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    return inTransaction(this.connection, work, 'The shop is busy with the same order; please try again');
  }

  /** Says (once its transaction has committed) that the payment's order changed. */
  private orderChanged(payment: StoredPayment): void {
    this.changes.publish({ kind: 'order', ids: [String(payment.order)] });
  }

  /** The answer for a payment's current state (and the order's), with the spec's messages. */
  private async outcome(payment: StoredPayment): Promise<VerificationResult> {
    const base = { txRef: payment.txRef, provider: payment.provider };
    if (payment.status === 'success') {
      const order = await this.applySuccessToOrder(payment);
      const summary = order ? toOrderSummary(order) : undefined;
      if (order?.paymentStatus === 'refund_pending' && order.paymentReference === payment.txRef) {
        return {
          ...base,
          success: true,
          status: 'refund_pending',
          message: PAYMENT_MESSAGES.refundPending,
          code: 'PAYMENT_REFUND_PENDING',
          order: summary,
        };
      }
      return {
        ...base,
        success: true,
        status: 'paid',
        message: PAYMENT_MESSAGES.success,
        code: 'PAYMENT_SUCCESS',
        order: summary,
      };
    }
    const order = await this.orders.orderForPayment(payment.order);
    const summary = order ? toOrderSummary(order) : undefined;
    if (payment.status === 'failed') {
      const mismatch =
        payment.failureReason === 'amount_mismatch' || payment.failureReason === 'currency_mismatch';
      return {
        ...base,
        success: false,
        status: 'failed',
        message: mismatch ? PAYMENT_MESSAGES.verificationFailed : PAYMENT_MESSAGES.notSuccessful,
        code: mismatch ? 'PAYMENT_VERIFICATION_FAILED' : 'PAYMENT_FAILED',
        order: summary,
      };
    }
    return {
      ...base,
      success: false,
      status: 'pending',
      message: PAYMENT_MESSAGES.pending,
      code: 'PAYMENT_PENDING',
      order: summary,
    };
  }
}
