import { redirect } from '@remix-run/node';
import type { ApiClient } from '@shop/api-client';
import {
  apiFor,
  apiForGuestOrder,
  clearSessionCookie,
  getSessionUser,
  payingOrderFromRequest,
  tokenFromRequest,
} from '../../session.server';
import { signInPath } from '../auth/intent';

/**
 * Who may open or pay an order from this browser: the guest who placed it (its access token in the
 * `order_token_<orderId>` cookie, sent as X-Order-Token) or the signed-in customer. The token is used
 * first when the browser has one: it opens that one order whoever is signed in. Without either, the
 * visitor is sent to sign in and brought back (as before guest checkout).
 */
export async function orderApi(
  request: Request,
  orderId: string,
): Promise<{ api: ApiClient; guest: boolean }> {
  const guest = apiForGuestOrder(request, orderId);
  if (guest) return { api: guest, guest: true };
  const user = await getSessionUser(request);
  if (user) return { api: apiFor(request), guest: false };
  const url = new URL(request.url);
  const headers: HeadersInit = tokenFromRequest(request) ? { 'Set-Cookie': clearSessionCookie() } : {};
  throw redirect(signInPath(url.pathname + url.search), { headers });
}

/**
 * The payment pages (return, callback, the test provider's page): they know the transaction, not the
 * order. A signed-in customer verifies as themselves; a guest with the token of the order being paid
 * (the `paying_order` cookie set when the payment started) verifies with that token.
 */
export async function paymentApi(request: Request): Promise<{ api: ApiClient; guest: boolean }> {
  const user = await getSessionUser(request);
  const paying = payingOrderFromRequest(request);
  const guest = paying ? apiForGuestOrder(request, paying) : null;
  if (user) return { api: apiFor(request), guest: false };
  if (guest) return { api: guest, guest: true };
  const url = new URL(request.url);
  const headers: HeadersInit = tokenFromRequest(request) ? { 'Set-Cookie': clearSessionCookie() } : {};
  throw redirect(signInPath(url.pathname + url.search), { headers });
}
