import type { AccountsService } from '../users/accounts.service';

/** An order's customer as the spec's admin screens read it (docs/product.md §7: `order.user.name`, `.email`). */
export interface OrderUser {
  _id: string;
  name: string;
  email: string;
}

interface OrderLike {
  /** Absent on a guest's order. */
  user?: unknown;
  customer?: { name?: string; email?: string };
}

/**
 * The accounts behind a page of orders, in one query. An order whose account was deleted, and a
 * guest's order, show the name and email it was placed under (its `customer` snapshot).
 */
export async function orderUsers(
  users: Pick<AccountsService, 'namesByIds'>,
  orders: readonly OrderLike[],
): Promise<OrderUser[]> {
  const ids = orders.filter((o) => o.user).map((o) => String(o.user));
  const accounts = await users.namesByIds([...new Set(ids)]);
  return orders.map((o) => {
    // a guest's order has no account: its `_id` is empty, the name and email those it was placed under
    const account = o.user ? accounts.get(String(o.user)) : undefined;
    return {
      _id: o.user ? String(o.user) : '',
      name: account?.name ?? o.customer?.name ?? '',
      email: account?.email ?? o.customer?.email ?? '',
    };
  });
}

/** Order rows with `user` populated as `{ _id, name, email }`. */
export async function withOrderUsers<O extends OrderLike>(
  users: Pick<AccountsService, 'namesByIds'>,
  orders: readonly O[],
) {
  const populated = await orderUsers(users, orders);
  return orders.map((order, i) => ({ ...order, user: populated[i] }));
}
