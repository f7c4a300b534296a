import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Changes } from '../../common/changes';
import { Order } from './schemas/order.schema';

/**
 * A guest's orders join the account that proves their phone (docs/decisions/0064-phone-sign-in.md):
 * when a phone is verified (phone sign-in, or a signed-in customer's phone check), the orders placed
 * as a guest with that number (no `user`, `customer.phone` the same E.164 number) get the account as
 * their `user`, so they appear in its order history.
 */
@Injectable()
export class GuestOrders {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly changes: Changes,
  ) {}

  /** Attaches the guest orders of `phone` (E.164) to the account; answers how many it attached. */
  async attachToAccount(userId: string, phone: string): Promise<number> {
    const user = new Types.ObjectId(userId);
    const guestOrders = await this.orders
      .find({ user: { $exists: false }, 'customer.phone': phone }, { _id: 1 })
      .lean()
      .exec();
    if (!guestOrders.length) return 0;
    const ids = guestOrders.map((o) => o._id);
    // conditional: an order attached meanwhile (another verification) keeps its account
    const result = await this.orders
      .updateMany({ _id: { $in: ids }, user: { $exists: false } }, { $set: { user } })
      .exec();
    if (result.modifiedCount) this.changes.publish({ kind: 'order', ids: ids.map(String) });
    return result.modifiedCount;
  }
}
