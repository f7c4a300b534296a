import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { ClientSession, Connection, Model, Types } from 'mongoose';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { canTransitionPayment, toBirr, type PaymentStatus } from '@shop/shared';
import type { AuthUser } from '../../common/auth/auth-user';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
  type ErrorCode,
} from '../../common/errors/domain-error';
import { inTransaction, parseObjectId } from '../../common/mongo';
import { APP_CONFIG, type AppConfig } from '../../config';
import { OrdersService, type OrderRecord } from '../orders/orders.service';
import {
  PAYMENT_PROVIDER,
  santimToAmountString,
  type PaymentProvider,
  type ProviderVerification,
} from './providers/payment-provider';
import { Payment, type PaymentEvent } from './schemas/payment.schema';

export const PAYMENT_MESSAGES = {
  success: 'Payment Successful!',
  notFound: 'Payment reference not found',
  verificationFailed: 'Payment verification failed',
  notSuccessful: 'Payment was not successful',
  verificationError: 'Payment verification error',
  pending: 'Payment is still being processed',
  refundPending: 'Payment received for a cancelled order; it will be refunded',
} as const;

const ORDER_NOT_FOUND = 'Order not found';
/** Chapa limits customization[title] to 16 characters. */
const CHECKOUT_TITLE = 'Beauty Shop';
/** MongoDB's write-conflict code: two settlements raced for one order (retried by the driver first). */
/** Re-verification gives up on transactions older than this: the provider has long expired them. */
const REVERIFY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const TX_REF_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

type EventSource = PaymentEvent['source'];
type StoredPayment = Payment & { _id: Types.ObjectId };
type StoredOrder = OrderRecord;

/** What settled a payment (webhook, verify, reverify, test): its latest event, recorded in the audit log. */
const lastSource = (payment: StoredPayment): string | undefined => payment.events?.at(-1)?.source;

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

function toOrderSummary(order: StoredOrder): PaymentOrderSummary {
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

function splitName(name: string | undefined): { firstName: string; lastName: string } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return { firstName: 'Customer', lastName: 'Customer' };
  return { firstName: parts[0], lastName: parts.length > 1 ? parts.slice(1).join(' ') : parts[0] };
}

function hmacHex(secret: string, data: Buffer | string): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** Constant-time comparison of a received hex signature with the expected one. */
function signatureMatches(received: unknown, expected: string): boolean {
  if (typeof received !== 'string' || !received) return false;
  const a = Buffer.from(received.trim().toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Payments: the server makes the transaction, and an order becomes paid only after the provider
 * confirms it with the stored amount and currency. Every settlement is one conditional update on
 * the payment record ("status: initialized" -> final), so a webhook delivered twice, a verify racing
 * a webhook, or the periodic re-verification settle a transaction exactly once.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger('Payments');

  constructor(
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly orders: OrdersService,
  ) {}

  get providerName(): string {
    return this.provider.name;
  }

  returnUrlFor(txRef: string): string {
    return `${this.config.storefrontUrl}/payment/return?tx_ref=${encodeURIComponent(txRef)}`;
  }

  /** Starts a payment for the customer's own unpaid order: a new tx_ref, amount and currency from the stored order. */
  async initialize(user: AuthUser, orderId: string): Promise<InitializeResult> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    const order = await this.orders.orderForPayment(id);
    if (!order || String(order.user) !== user.id) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    this.assertPayable(order);

    const txRef = `bs-${String(order._id)}-${randomBytes(8).toString('hex')}`;
    // Conditional on the order still being payable: a cancel or a payment in between wins.
    if (!(await this.orders.claimPayment(order._id, txRef))) {
      this.assertPayable((await this.orders.orderForPayment(order._id)) ?? order);
      throw new ConflictError('This order can no longer be paid', 'ORDER_NOT_PAYABLE');
    }

    const payment = await this.payments.create({
      txRef,
      order: order._id,
      user: order.user,
      provider: this.provider.name,
      amountSantim: order.totalAmountSantim,
      currency: order.currency || 'ETB',
      status: 'initialized',
      events: [{ source: 'initialize', at: new Date(), processed: false }],
    });

    const email = order.customer?.email || user.email;
    const { firstName, lastName } = splitName(order.customer?.name || user.name);
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

  /** The customer (owner) or an admin asks whether a transaction is paid; settles it on the provider's word. */
  async verify(user: AuthUser, txRef: string): Promise<VerificationResult> {
    const payment = await this.findPayment(txRef);
    if (String(payment.user) !== user.id && user.role !== 'admin')
      throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    return this.settle(payment.txRef, 'verify');
  }

  /** Chapa's callback_url (a GET after payment): triggers a verification, reveals nothing about the order. */
  async handleCallback(txRef: string | undefined): Promise<Omit<VerificationResult, 'order'>> {
    const payment = await this.findPayment(txRef ?? '');
    const { order: _order, ...result } = await this.settle(payment.txRef, 'verify');
    return result;
  }

  /** Test provider only: the customer chooses the outcome on the test checkout page. */
  async completeTestPayment(
    user: AuthUser,
    txRef: string,
    outcome: 'success' | 'failed',
  ): Promise<VerificationResult> {
    const payment = await this.findPayment(txRef);
    if (payment.provider !== 'test' || this.provider.name !== 'test' || String(payment.user) !== user.id) {
      throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    }
    await this.payments.updateOne(
      { _id: payment._id, status: 'initialized', testOutcome: { $exists: false } },
      { $set: { testOutcome: outcome } },
    );
    return this.settle(payment.txRef, 'test');
  }

  /** What the public test checkout page shows about a transaction. */
  async describeTestPayment(
    txRef: string,
  ): Promise<{ txRef: string; amount: number; currency: string; status: string; returnUrl: string }> {
    const payment = await this.findPayment(txRef);
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

  /**
   * A Chapa webhook: the HMAC-SHA256 of the raw body with the webhook secret must match
   * `x-chapa-signature` (or `chapa-signature`); then the transaction is verified with Chapa before
   * anything changes. Unknown references are acknowledged so that Chapa stops retrying.
   */
  async handleWebhook(
    rawBody: Buffer | undefined,
    headers: Record<string, unknown>,
  ): Promise<{ received: true; processed: boolean }> {
    const secret = this.config.chapa.webhookSecret;
    if (!secret || !rawBody?.length)
      throw new DomainError(
        'UNAUTHORIZED',
        'Invalid webhook signature',
        undefined,
        'INVALID_WEBHOOK_SIGNATURE',
      );
    const bodySignature = hmacHex(secret, rawBody);
    const trusted =
      signatureMatches(headers['x-chapa-signature'], bodySignature) ||
      signatureMatches(headers['chapa-signature'], bodySignature) ||
      // Chapa also documents chapa-signature as the HMAC of the secret itself; the body is still verified with Chapa.
      signatureMatches(headers['chapa-signature'], hmacHex(secret, secret));
    if (!trusted)
      throw new DomainError(
        'UNAUTHORIZED',
        'Invalid webhook signature',
        undefined,
        'INVALID_WEBHOOK_SIGNATURE',
      );

    let event: Record<string, unknown>;
    try {
      event = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new InvalidDataError('Malformed JSON body', undefined, 'MALFORMED_JSON');
    }
    const data = (event.data && typeof event.data === 'object' ? event.data : {}) as Record<string, unknown>;
    const txRef =
      typeof event.tx_ref === 'string'
        ? event.tx_ref
        : typeof data.tx_ref === 'string'
          ? data.tx_ref
          : undefined;
    if (!txRef || !TX_REF_PATTERN.test(txRef)) return { received: true, processed: false };
    const payment = await this.payments.findOne({ txRef }).lean<StoredPayment>();
    if (!payment) return { received: true, processed: false };
    try {
      const before = payment.status;
      const result = await this.settle(
        txRef,
        'webhook',
        typeof event.status === 'string' ? event.status : undefined,
      );
      return { received: true, processed: before === 'initialized' && result.status !== 'pending' };
    } catch (error) {
      // Acknowledge anyway: the periodic re-verification settles it once Chapa answers again.
      this.logger.warn(`webhook ${txRef}: verification deferred (${(error as Error).message})`);
      return { received: true, processed: false };
    }
  }

  /**
   * Re-verifies transactions that were started at least `olderThanMs` ago and never settled (the
   * customer closed the tab, the webhook was lost), so a completed payment still marks its order paid.
   */
  async reverifyPending(olderThanMs: number): Promise<ReverifyReport> {
    const now = Date.now();
    const due = await this.payments
      .find({
        status: 'initialized',
        provider: this.provider.name,
        createdAt: { $lte: new Date(now - olderThanMs), $gte: new Date(now - REVERIFY_MAX_AGE_MS) },
      })
      .sort({ createdAt: 1 })
      .limit(200)
      .select({ txRef: 1 })
      .lean();
    const report: ReverifyReport = { checked: 0, paid: 0, failed: 0, pending: 0, errors: 0 };
    for (const { txRef } of due) {
      report.checked++;
      try {
        const result = await this.settle(txRef, 'reverify');
        if (result.status === 'paid' || result.status === 'refund_pending') report.paid++;
        else if (result.status === 'failed') report.failed++;
        else report.pending++;
      } catch (error) {
        report.errors++;
        this.logger.warn(`re-verification of ${txRef} failed: ${(error as Error).message}`);
      }
    }
    return report;
  }

  private async findPayment(txRef: string): Promise<StoredPayment> {
    if (typeof txRef !== 'string' || !TX_REF_PATTERN.test(txRef))
      throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    const payment = await this.payments.findOne({ txRef }).lean<StoredPayment>();
    if (!payment) throw new NotFoundError(PAYMENT_MESSAGES.notFound, 'PAYMENT_NOT_FOUND');
    return payment;
  }

  private assertPayable(order: StoredOrder): void {
    if (order.status === 'cancelled')
      throw new ConflictError(
        'This order has been cancelled and cannot be paid',
        'ORDER_CANCELLED_UNPAYABLE',
      );
    if (!canTransitionPayment(order.paymentStatus as PaymentStatus, 'paid'))
      throw new ConflictError('This order has already been paid', 'ORDER_ALREADY_PAID');
  }

  /** Asks the provider about an unsettled transaction and settles it once; a settled one is only re-read. */
  private async settle(
    txRef: string,
    source: EventSource,
    claimedStatus?: string,
  ): Promise<VerificationResult> {
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
    return this.outcome(settled ?? (await this.payments.findById(payment._id).lean<StoredPayment>())!);
  }

  /**
   * Brings the order in line with a successful payment; every step is conditional, so running it
   * again (a repeat verify, a crash between the two writes) changes nothing or completes the work.
   */
  private async applySuccessToOrder(payment: StoredPayment): Promise<StoredOrder | null> {
    const source = lastSource(payment);
    await this.inTransaction((session) => this.applySuccessInSession(payment, source, session));
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
  ): Promise<void> {
    const paidAt = payment.settledAt ?? new Date();
    if (!(await this.orders.markPaid(payment.order, payment.txRef, paidAt, source, session)))
      await this.orders.flagRefund(payment.order, payment.txRef, source, session);
  }

  /** Runs `work` in one transaction; a write conflict that outlasts the driver's retries is a 409, never a 500. */
  private inTransaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    return inTransaction(this.connection, work, 'The shop is busy with the same order; please try again');
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
