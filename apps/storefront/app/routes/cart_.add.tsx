import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { settle } from '../account/api.server';
import { redirectGuestWithIntent } from '../account/auth/auth.server';
import { isProductId, parseQuantity, safeRedirectPath } from '../account/auth/intent';
import { apiFor, cartCookieUpdate, tokenFromRequest } from '../session.server';
import { reply } from '../account/reply.server';
import { oncePerTap } from '../tap-keys.server';
import { FALLBACK, apiError, flashToUrl, type Said } from '../apiMessages';

/**
 * POST productId, quantity, redirectTo. A guest adds to a guest cart in the API (its id kept in the
 * httpOnly `cart_id` cookie); an expired session is sent to sign in and the add carried out afterwards.
 * Fetcher requests get JSON `{ ok, said }` (an i18n key and parameters, worded by the page); plain form
 * posts are redirected back with `added=1` or `cartError=<code or key>` (see apiMessages.flashFromUrl).
 */
// A tap queued offline and sent again by the service worker is carried out once (app/tap-keys.server.ts).
export const action = (args: ActionFunctionArgs) => oncePerTap(args.request, () => addToCart(args));

async function addToCart({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const productId = form.get('productId');
  const quantity = parseQuantity(form.get('quantity'));
  const back = safeRedirectPath(form.get('redirectTo'), '/cart');
  const fetcher = form.get('mode') === 'json';
  if (!isProductId(productId)) {
    return fetcher
      ? reply({ ok: false, said: { key: FALLBACK.addToCart } satisfies Said }, 400)
      : redirect(back);
  }
  const result = await settle(apiFor(request).POST('/api/cart/add', { body: { productId, quantity } }));
  if (!result.ok && result.status === 401 && tokenFromRequest(request))
    return redirectGuestWithIntent(request, { type: 'cart', productId, quantity }, back);
  const keep = result.ok ? cartCookieUpdate(request, result.data) : undefined;
  const headers: HeadersInit = keep ? { 'Set-Cookie': keep } : {};
  const said: Said = result.ok ? { key: 'product.addedToCart' } : apiError(result, FALLBACK.addToCart);
  if (fetcher)
    return reply(
      { ok: result.ok, said, itemCount: result.ok ? result.data.itemCount : undefined },
      result.ok ? 200 : result.status,
      headers,
    );
  const target = new URL(back, 'http://shop.local');
  for (const name of ['added', 'cartError', 'available', 'inCart']) target.searchParams.delete(name);
  if (result.ok) target.searchParams.set('added', '1');
  else flashToUrl(target, 'cartError', said);
  return redirect(target.pathname + target.search + target.hash, { headers });
}

export const loader = () => redirect('/cart');
