import { Types, type Model } from 'mongoose';
import type { User } from '../users/schemas/user.schema';

/** An order's customer as SPEC section 7's admin screens read it (`order.user.name`, `.email`). */
export interface OrderUser {
  _id: string;
  name: string;
  email: string;
}

/**
 * The accounts behind a page of orders, in one query. An order whose account was deleted keeps
 * the name and email it was placed under (its `customer` snapshot).
 */
export async function orderUsers(
  users: Model<User>,
  orders: { user: unknown; customer?: { name?: string; email?: string } }[],
): Promise<OrderUser[]> {
  const ids = [...new Set(orders.map((o) => String(o.user)))].filter((id) => Types.ObjectId.isValid(id));
  const accounts = await users
    .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) } }, { name: 1, email: 1 })
    .lean()
    .exec();
  const byId = new Map(accounts.map((u) => [String(u._id), u]));
  return orders.map((o) => {
    const account = byId.get(String(o.user));
    return {
      _id: String(o.user),
      name: account?.name ?? o.customer?.name ?? '',
      email: account?.email ?? o.customer?.email ?? '',
    };
  });
}
