import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { Changes } from '../../common/changes';
import { NotFoundError } from '../../common/errors/domain-error';
import { parseObjectId } from '../../common/mongo';
import { AuditService } from '../audit/audit.service';
import { ORDER_NOT_FOUND } from './order-queries.service';
import { orderTransaction } from './order-transaction';
import { toAdminOrderView, type AdminOrderView, type OrderRecord } from './order.view';
import { Order } from './schemas/order.schema';

/**
 * Staff's internal notes on an order (docs/decisions/0080-fulfilment-refunds-notes.md): the author's
 * name and the time kept with the text, audited; shown to staff only (AdminOrderView), never in a
 * customer's answer.
 */
@Injectable()
export class OrderNotes {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly audit: AuditService,
    private readonly changes: Changes,
  ) {}

  /** Adds a note (404 for an unknown order); the note and its audit entry are written together. */
  async add(orderId: string, actor: AuthUser, text: string): Promise<AdminOrderView> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    const note = {
      _id: new Types.ObjectId(),
      text,
      by: new Types.ObjectId(actor.id),
      ...(actor.name ? { byName: actor.name } : {}),
      at: new Date(),
    };
    const updated = await orderTransaction(this.connection, this.changes, async (session, touched) => {
      touched.orders.add(String(id));
      const changed = (await this.orders
        .findOneAndUpdate({ _id: id }, { $push: { notes: note } }, { new: true, session })
        .lean()
        .exec()) as OrderRecord | null;
      if (!changed) return null;
      await this.audit.record(
        actor,
        { entity: 'order', entityId: String(id), action: 'order.note', to: { text } },
        session,
      );
      return changed;
    });
    if (!updated) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    return toAdminOrderView(updated);
  }
}
