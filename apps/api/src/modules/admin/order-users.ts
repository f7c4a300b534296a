import type { AccountsService } from '../users/accounts.service';

/** An order's customer as the spec's admin screens read it (docs/product.md §7: `order.user.name`, `.email`). */
export interface OrderUser {
  _id: string;
  name: string;
  email: string;
}

interface OrderLike {
  user: unknown;
  customer?: { name?: string; email?: string };
}

/**
 * The accounts behind a page of orders, in one query. An order whose account was deleted keeps
 * the name and email it was placed under (its `customer` snapshot).
 */
export async function orderUsers(
  users: Pick<AccountsService, 'namesByIds'>,
  orders: readonly OrderLike[],
): Promise<OrderUser[]> {
  const accounts = await users.namesByIds([...new Set(orders.map((o) => String(o.user)))]);
  return orders.map((o) => {
    const account = accounts.get(String(o.user));
    return {
      _id: String(o.user),
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
