import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { settle } from '../account/api.server';
import { redirectGuestWithIntent } from '../account/auth.server';
import { isProductId, parseQuantity, safeRedirectPath } from '../account/intent';
import type { CartAnswer } from '../account/types';
import { apiFor, tokenFromRequest } from '../session.server';
import { reply } from '../account/reply.server';

/**
 * POST productId, quantity, redirectTo. A guest goes to sign in and the add is carried out afterwards.
 * Fetcher requests get JSON `{ ok, message }`; plain form posts are redirected back.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const productId = form.get('productId');
  const quantity = parseQuantity(form.get('quantity'));
  const back = safeRedirectPath(form.get('redirectTo'), '/cart');
  const fetcher = new URL(request.url).searchParams.has('_data') || form.get('mode') === 'json';
  if (!isProductId(productId)) {
    return fetcher ? reply({ ok: false, message: 'Failed to add item to cart' }, 400) : redirect(back);
  }
  if (!tokenFromRequest(request)) return redirectGuestWithIntent(request, { type: 'cart', productId, quantity }, back);
  const result = await settle<CartAnswer>(apiFor(request).POST('/api/cart/add', { body: { productId, quantity } }));
  if (!result.ok && result.status === 401) return redirectGuestWithIntent(request, { type: 'cart', productId, quantity }, back);
  const answer = result.ok
    ? { ok: true, message: 'Added to Cart!', itemCount: result.data.itemCount }
    : { ok: false, message: result.message || 'Failed to add item to cart' };
  if (fetcher) return reply(answer, result.ok ? 200 : result.status);
  const target = new URL(back, 'http://shop.local');
  target.searchParams.set(result.ok ? 'added' : 'cartError', result.ok ? '1' : answer.message);
  return redirect(target.pathname + target.search + target.hash);
}

export const loader = () => redirect('/cart');
