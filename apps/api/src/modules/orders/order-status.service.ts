import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import {
  canFulfil,
  canTransition,
  canTransitionPayment,
  FULFILMENT_STATUSES,
  customerMayCancel,
  type OrderStatus,
  type PaymentStatus,
} from '@shop/shared';
import { Connection, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { CouponsService } from '../coupons/coupons.service';
import { Changes } from '../../common/changes';
import { ConflictError, NotFoundError } from '../../common/errors/domain-error';
import { parseObjectId } from '../../common/mongo';
import { AuditService } from '../audit/audit.service';
import { StockService } from '../catalog/stock.service';
import { NotificationsService } from '../notifications/notifications.service';
import type { OrderViewer } from './order-access.guard';
import { ORDER_NOT_FOUND, OrderQueries } from './order-queries.service';
import { orderTransaction } from './order-transaction';
import { toOrderView, type OrderRecord, type OrderView } from './order.view';
import { Order } from './schemas/order.schema';

export const ORDER_NOT_PAID = 'This order is not paid yet';

/** How often a status change re-reads an order that someone else changed meanwhile. */
const ATTEMPTS = 5;

/**
 * The order status machine (libs/shared `canTransition`): the customer's cancellation and the
 * back office's moves. Every move is one conditional update on the status it was read with, in its
 * history and the audit log; a cancellation gives the stock back in the same transaction.
 */
@Injectable()
export class OrderStatusService {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly queries: OrderQueries,
    private readonly stock: StockService,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    private readonly changes: Changes,
    private readonly coupons: CouponsService,
  ) {}

  /**
   * The customer's cancellation: only while pending or processing; stock comes back exactly once. The
   * customer is its account, or a guest holding the order's token (docs/decisions/0102-guest-cancel.md).
   */
  async cancel(id: string, viewer: OrderViewer): Promise<OrderView> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const order = await this.queries.visibleRecord(id, viewer.user, viewer.orderToken);
      const from = order.status as OrderStatus;
      if (!customerMayCancel(from))
        throw new ConflictError(`Cannot cancel an order that is ${from}`, 'CANNOT_CANCEL', { status: from });
      const changed = await this.applyTransition(order, 'cancelled', viewer.user);
      if (changed) return changed;
    }
    throw new ConflictError('The order changed while cancelling; please try again', 'ORDER_CHANGED');
  }

  /**
   * An admin status change following the machine (docs/product.md): an invalid move is a 409, a
   * cancellation restores stock (and flags a paid order for refund), every change is in the history
   * and the audit log. Used by `PATCH /api/orders/{id}/status` and the admin API.
   */
  async changeStatus(
    orderId: string,
    status: OrderStatus,
    actor: AuthUser,
    trackingNumber?: string,
  ): Promise<OrderView> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const order = (await this.orders.findById(id).lean().exec()) as OrderRecord | null;
      if (!order) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
      const from = order.status as OrderStatus;
      if (from === status && trackingNumber !== undefined) {
        // Same status with a tracking number: only the tracking number changes, no new history entry.
        const updated = (await this.orders
          .findOneAndUpdate({ _id: id, status: from }, { $set: { trackingNumber } }, { new: true })
          .lean()
          .exec()) as OrderRecord | null;
        if (updated) {
          this.changes.publish({ kind: 'order', ids: [String(id)] });
          return toOrderView(updated);
        }
        continue;
      }
      if (!canTransition(from, status)) {
        throw new ConflictError(
          `Cannot change order status from ${from} to ${status}`,
          'INVALID_STATUS_TRANSITION',
          { from, to: status },
        );
      }
      // fulfilment follows payment (docs/decisions/0080-fulfilment-refunds-notes.md)
      if (FULFILMENT_STATUSES.includes(status) && !canFulfil(order)) {
        throw new ConflictError(ORDER_NOT_PAID, 'ORDER_NOT_PAID', {
          paymentStatus: order.paymentStatus,
          paymentMethod: order.paymentMethod,
        });
      }
      const changed = await this.applyTransition(order, status, actor, trackingNumber);
      if (changed) return changed;
    }
    throw new ConflictError('The order changed while updating its status; please try again', 'ORDER_CHANGED');
  }

  /**
   * Moves the order from the status it was read with, in one conditional update; answers null if
   * someone else changed it meanwhile (the caller re-reads and re-checks the machine). A cancellation
   * gives the stock back in the same transaction: the status and the stock change together or not at all.
   */
  private async applyTransition(
    order: OrderRecord,
    to: OrderStatus,
    /** Who moves it: staff or the account; none for a guest with the order's token. */
    actor: AuthUser | undefined,
    trackingNumber?: string,
  ): Promise<OrderView | null> {
    const set: Record<string, unknown> = { status: to };
    // a paid order's money is due back; an unpaid one (pay on delivery included) stays unpaid
    if (
      to === 'cancelled' &&
      canTransitionPayment(order.paymentStatus as PaymentStatus, 'refund_pending', order.paymentMethod)
    )
      set.paymentStatus = 'refund_pending';
    if (trackingNumber !== undefined) set.trackingNumber = trackingNumber;
    const updated = await orderTransaction(this.connection, this.changes, async (session, touched) => {
      touched.orders.add(String(order._id));
      const changed = (await this.orders
        .findOneAndUpdate(
          { _id: order._id, status: order.status, paymentStatus: order.paymentStatus },
          {
            $set: set,
            $push: {
              statusHistory: {
                status: to,
                by: actor ? new Types.ObjectId(actor.id) : undefined,
                at: new Date(),
              },
            },
          },
          { new: true, session },
        )
        .lean()
        .exec()) as OrderRecord | null;
      // Only the transaction whose conditional update won gives stock back, so it comes back exactly once.
      if (changed && to === 'cancelled') {
        for (const line of order.orderItems) touched.stock.add(String(line.product));
        await this.stock.releaseStock(order.orderItems, session, `cancel:${String(order._id)}`);
        // and its coupon's use (docs/decisions/0096-coupon-codes.md)
        await this.coupons.release(order, session);
      }
      if (changed) await this.notifications.enqueue(session, { type: 'order.status', order: changed });
      return changed;
    });
    if (!updated) return null;
    await this.audit.record(actor, {
      entity: 'order',
      entityId: String(order._id),
      action: 'order.status',
      from: order.status,
      to,
    });
    if (set.paymentStatus) {
      await this.audit.record(actor, {
        entity: 'order',
        entityId: String(order._id),
        action: 'order.paymentStatus',
        from: order.paymentStatus,
        to: set.paymentStatus,
      });
    }
    return toOrderView(updated);
  }
}
