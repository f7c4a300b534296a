import { codeParams } from '../../apiMessages';
import { apiFor } from '../../session.server';
import { settle } from '../api.server';
import type { ApiClient, Order } from '@shop/api-client';

export async function loadMyOrders(request: Request): Promise<Order[] | null> {
  const result = await settle(apiFor(request).GET('/api/orders/my-orders'));
  if (!result.ok) return null;
  return result.data.orders;
}

/**
 * Cancels one of the customer's orders, through `api`: the signed-in customer's, or a guest's holding the
 * order's token (docs/decisions/0102-guest-cancel.md). The server decides whether it still may (and
 * restores stock).
 */
export async function cancelOrder(
  api: ApiClient,
  orderId: string,
): Promise<{ ok: boolean; message?: string; params?: Record<string, string | number> }> {
  if (!/^[A-Za-z0-9]{1,64}$/.test(orderId)) return { ok: false, message: 'orders.cancelFailed' };
  const result = await settle(api.PATCH('/api/orders/{id}/cancel', { params: { path: { id: orderId } } }));
  return result.ok
    ? { ok: true }
    : { ok: false, message: result.key || 'orders.cancelFailed', params: codeParams(result.params) };
}
