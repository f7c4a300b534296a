import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import {
  canTransitionPayment,
  PAY_ON_DELIVERY,
  PAYMENT_STATUSES,
  PAYMENT_TRANSITIONS,
  toBirr,
  type PaymentStatus,
  type RefundMethod,
} from '@shop/shared';
import { ClientSession, Connection, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { Changes } from '../../common/changes';
import { ConflictError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { parseObjectId } from '../../common/mongo';
import { AuditService } from '../audit/audit.service';
import { NotificationsService } from '../notifications/notifications.service';
import { orderTransaction } from './order-transaction';
import { ORDER_NOT_FOUND } from './order-queries.service';
import {
  toAdminOrderView,
  toOrderView,
  type AdminOrderView,
  type OrderRecord,
  type OrderView,
} from './order.view';
import { Order } from './schemas/order.schema';

/** Payment states from which the machine (PAYMENT_TRANSITIONS: online payments) allows a move to `to`. */
const paymentSources = (to: PaymentStatus): PaymentStatus[] =>
  PAYMENT_STATUSES.filter((from) => PAYMENT_TRANSITIONS[from].includes(to));
/** Pay-on-delivery states staff may record as paid (its own machine: unpaid). */
const COLLECTABLE = PAYMENT_STATUSES.filter((from) => canTransitionPayment(from, 'paid', PAY_ON_DELIVERY));
export const PAYMENT_NOT_COLLECTABLE =
  'No payment can be recorded for this order: it is not an unpaid pay-on-delivery order';
/** Payment states in which staff may record a refund (the shop holds money for the order). */
export const REFUNDABLE_PAYMENT_STATUSES: readonly PaymentStatus[] = paymentSources('refunded');
export const NOT_REFUNDABLE =
  'Nothing can be refunded for this order: it is not paid, or it is fully refunded';

/** A refund to record (POST /api/admin/orders/{id}/refunds). */
export interface RefundInput {
  amountSantim: number;
  reason: string;
  method: RefundMethod;
  reference?: string;
}

/** An order can take a payment while its payment status may still become paid (unpaid, failed). */
export const PAYABLE_PAYMENT_STATUSES: readonly PaymentStatus[] = paymentSources('paid');

/**
 * An order's payment state: only this service writes it, every move checked against the payment
 * machine (libs/shared PAYMENT_TRANSITIONS) by a conditional update, so a repeat changes nothing.
 * The payments module settles transactions and calls these; a move made in the payments module's
 * transaction (`session`) is said (Changes) by that module once it has committed.
 */
@Injectable()
export class OrderPayments {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    private readonly changes: Changes,
  ) {}

  /** The order a payment is about (any owner), or null. */
  async orderForPayment(orderId: Types.ObjectId | string): Promise<OrderRecord | null> {
    if (!Types.ObjectId.isValid(String(orderId))) return null;
    return (await this.orders
      .findById(new Types.ObjectId(String(orderId)))
      .lean()
      .exec()) as OrderRecord | null;
  }

  /**
   * Makes `txRef` the order's current payment attempt, conditional on the order still being payable
   * (not cancelled, payment status unpaid or failed); false when a cancel or a payment won meanwhile.
   */
  async claimPayment(orderId: Types.ObjectId, txRef: string): Promise<boolean> {
    const claimed = await this.orders
      .updateOne(
        {
          _id: orderId,
          status: { $ne: 'cancelled' },
          paymentStatus: { $in: PAYABLE_PAYMENT_STATUSES },
          paymentMethod: { $ne: PAY_ON_DELIVERY },
        },
        { $set: { paymentReference: txRef } },
      )
      .exec();
    if (claimed.modifiedCount) this.changes.publish({ kind: 'order', ids: [String(orderId)] });
    return claimed.matchedCount > 0;
  }

  /**
   * unpaid → failed, only for the order's current attempt `txRef` (one conditional update); the order
   * stays payable with a new transaction. The change, its audit entry and the customer's message are
   * written together: in `session` (the payment settlement's transaction) or a transaction of their own.
   * Answers whether it changed.
   */
  markPaymentFailed(
    orderId: Types.ObjectId,
    txRef: string,
    source?: string,
    session?: ClientSession,
  ): Promise<boolean> {
    return this.inSession(orderId, session, async (s) => {
      const failed = (await this.orders
        .findOneAndUpdate(
          { _id: orderId, paymentReference: txRef, paymentStatus: { $in: paymentSources('failed') } },
          { $set: { paymentStatus: 'failed' } },
          { new: true, session: s },
        )
        .lean()
        .exec()) as OrderRecord | null;
      if (!failed) return false;
      await this.notifications.enqueue(s, { type: 'payment.failed', order: failed, txRef });
      await this.auditPayment(orderId, 'unpaid', 'failed', source, s);
      return true;
    });
  }

  /**
   * unpaid | failed → paid for an order that is not cancelled, in one conditional update (a repeat
   * changes nothing), with its audit entry and the customer's message in the same transaction
   * (`session`, or one of its own). Answers whether this call made it paid.
   */
  markPaid(
    orderId: Types.ObjectId,
    txRef: string,
    paidAt: Date,
    source?: string,
    session?: ClientSession,
  ): Promise<boolean> {
    return this.inSession(orderId, session, async (s) => {
      const before = (await this.orders
        .findOneAndUpdate(
          { _id: orderId, status: { $ne: 'cancelled' }, paymentStatus: { $in: PAYABLE_PAYMENT_STATUSES } },
          { $set: { paymentStatus: 'paid', paidAt, paymentReference: txRef } },
          { new: false, session: s },
        )
        .lean()
        .exec()) as OrderRecord | null;
      if (!before) return false;
      const paid: OrderRecord = { ...before, paymentStatus: 'paid', paidAt, paymentReference: txRef };
      await this.notifications.enqueue(s, { type: 'payment.paid', order: paid });
      await this.auditPayment(orderId, before.paymentStatus, 'paid', source, s);
      return true;
    });
  }

  /**
   * Staff record the money the rider collected for a pay-on-delivery order (POST
   * /api/admin/orders/{id}/payment/collected): unpaid → paid, `paidAt` now, the reference if given,
   * once (a conditional update), with its audit entry (`order.payment_collected`) and the customer's
   * message in one transaction. 404 for an unknown order; 409 PAYMENT_NOT_COLLECTABLE for an order
   * that is not pay on delivery, not unpaid, or cancelled.
   */
  async markCollected(orderId: string, actor: AuthUser, reference?: string): Promise<OrderView> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    const paidAt = new Date();
    const collected = await this.inSession(id, undefined, async (s) => {
      const paid = (await this.orders
        .findOneAndUpdate(
          {
            _id: id,
            paymentMethod: PAY_ON_DELIVERY,
            status: { $ne: 'cancelled' },
            paymentStatus: { $in: COLLECTABLE },
          },
          { $set: { paymentStatus: 'paid', paidAt, ...(reference ? { paymentReference: reference } : {}) } },
          { new: true, session: s },
        )
        .lean()
        .exec()) as OrderRecord | null;
      if (!paid) return null;
      await this.notifications.enqueue(s, { type: 'payment.paid', order: paid });
      await this.audit.record(
        actor,
        {
          entity: 'order',
          entityId: String(id),
          action: 'order.payment_collected',
          from: { paymentStatus: 'unpaid' },
          to: { paymentStatus: 'paid', ...(reference ? { paymentReference: reference } : {}) },
        },
        s,
      );
      return paid;
    });
    if (collected) return toOrderView(collected);
    if (!(await this.orders.exists({ _id: id }))) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    throw new ConflictError(PAYMENT_NOT_COLLECTABLE, 'PAYMENT_NOT_COLLECTABLE');
  }

  /**
   * The order a refund is about, checked before any money moves: 404 unknown; 409 NOT_REFUNDABLE
   * when the shop holds no money for it (unpaid, failed, refunded); 409 REFUND_EXCEEDS_PAID above
   * the paid total minus earlier refunds. Answers the order as read.
   */
  async refundable(orderId: string, amountSantim: number): Promise<OrderRecord> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    const order = (await this.orders.findById(id).lean().exec()) as OrderRecord | null;
    if (!order) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    this.checkRefund(order, amountSantim);
    return order;
  }

  private checkRefund(order: OrderRecord, amountSantim: number): void {
    const left = order.totalAmountSantim - (order.refundedSantim ?? 0);
    if (!REFUNDABLE_PAYMENT_STATUSES.includes(order.paymentStatus as PaymentStatus) || left <= 0)
      throw new ConflictError(NOT_REFUNDABLE, 'NOT_REFUNDABLE', { paymentStatus: order.paymentStatus });
    if (amountSantim > left)
      throw new ConflictError(
        `The refund is more than what is left of the paid amount (ETB ${toBirr(left).toFixed(2)})`,
        'REFUND_EXCEEDS_PAID',
        { refundable: toBirr(left) },
      );
  }

  /**
   * Records a refund (docs/decisions/0080-fulfilment-refunds-notes.md): the refund, the refunded
   * total and the payment status (refunded when all of the paid total went back, else
   * partially_refunded) in one conditional update on the refunded total it was read with, with its
   * audit entry (`order.refund`) and the customer's message in the same transaction. `given`: the
   * money already went back through the provider, so a concurrent refund cannot refuse this one.
   */
  async recordRefund(
    orderId: string,
    actor: AuthUser,
    input: RefundInput,
    given = false,
  ): Promise<AdminOrderView> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    if (input.method === 'manual' && !input.reference)
      throw new InvalidDataError(
        'A manual refund needs its reference',
        [{ field: 'reference', message: 'reference is required for a manual refund' }],
        'INVALID_TEXT',
        { field: 'reference' },
      );
    for (let attempt = 0; attempt < 5; attempt++) {
      const order = (await this.orders.findById(id).lean().exec()) as OrderRecord | null;
      if (!order) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
      if (!given) this.checkRefund(order, input.amountSantim);
      const refundedSantim = (order.refundedSantim ?? 0) + input.amountSantim;
      const to: PaymentStatus = refundedSantim >= order.totalAmountSantim ? 'refunded' : 'partially_refunded';
      const refundId = new Types.ObjectId();
      const refund = {
        _id: refundId,
        amountSantim: input.amountSantim,
        reason: input.reason,
        method: input.method,
        ...(input.reference ? { reference: input.reference } : {}),
        by: new Types.ObjectId(actor.id),
        ...(actor.name ? { byName: actor.name } : {}),
        at: new Date(),
      };
      const done = await this.inSession(id, undefined, async (s) => {
        const updated = (await this.orders
          .findOneAndUpdate(
            {
              _id: id,
              paymentStatus: order.paymentStatus,
              refundedSantim: order.refundedSantim ?? null,
            },
            { $set: { paymentStatus: to, refundedSantim }, $push: { refunds: refund } },
            { new: true, session: s },
          )
          .lean()
          .exec()) as OrderRecord | null;
        if (!updated) return null;
        await this.notifications.enqueue(s, {
          type: 'payment.refunded',
          order: updated,
          refundId: String(refundId),
          amountSantim: input.amountSantim,
        });
        await this.audit.record(
          actor,
          {
            entity: 'order',
            entityId: String(id),
            action: 'order.refund',
            from: { paymentStatus: order.paymentStatus, refunded: toBirr(order.refundedSantim ?? 0) },
            to: {
              paymentStatus: to,
              refunded: toBirr(refundedSantim),
              amount: toBirr(input.amountSantim),
              method: input.method,
              reason: input.reason,
              ...(input.reference ? { reference: input.reference } : {}),
            },
          },
          s,
        );
        return updated;
      });
      if (done) return toAdminOrderView(done);
    }
    throw new ConflictError(
      'The order changed while recording the refund; please try again',
      'ORDER_CHANGED',
    );
  }

  /**
   * Money arrived for an order cancelled meanwhile: it counts as paid and is due back at once
   * (paid → refund_pending), never lost and never "paid". Answers whether this call flagged it.
   */
  flagRefund(
    orderId: Types.ObjectId,
    txRef: string,
    source?: string,
    session?: ClientSession,
  ): Promise<boolean> {
    return this.inSession(orderId, session, async (s) => {
      const before = await this.orders
        .findOneAndUpdate(
          { _id: orderId, status: 'cancelled', paymentStatus: { $in: PAYABLE_PAYMENT_STATUSES } },
          { $set: { paymentStatus: 'refund_pending', paymentReference: txRef } },
          { new: false, session: s },
        )
        .lean()
        .exec();
      if (!before) return false;
      await this.auditPayment(orderId, before.paymentStatus, 'refund_pending', source, s);
      return true;
    });
  }

  /** Runs `work` in the caller's transaction when given one, else in a transaction of its own (then said). */
  private inSession<T>(
    orderId: Types.ObjectId,
    session: ClientSession | undefined,
    work: (s: ClientSession) => Promise<T>,
  ): Promise<T> {
    if (session) return work(session);
    return orderTransaction(this.connection, this.changes, (s, touched) => {
      touched.orders.add(String(orderId));
      return work(s);
    });
  }

  /** `source`: what settled the payment (webhook, verify, reverify, test), shown as the actor in the audit log. */
  private auditPayment(
    orderId: Types.ObjectId,
    from: string,
    to: PaymentStatus,
    source?: string,
    session?: ClientSession,
  ) {
    return this.audit.record(
      undefined,
      { entity: 'order', entityId: String(orderId), action: 'order.paymentStatus', from, to, source },
      session,
    );
  }
}
