import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { settle } from '../account/api.server';
import { redirectGuestWithIntent } from '../account/auth/auth.server';
import { isProductId, parseQuantity, safeRedirectPath } from '../account/auth/intent';
import { apiFor, cartCookieUpdate, tokenFromRequest } from '../session.server';
import { reply } from '../account/reply.server';
import { oncePerTap } from '../tap-keys.server';
import { FALLBACK, apiError, flashToUrl, type Said } from '../apiMessages';
import { VARIANT_ID } from '../variants';

/**
 * POST productId, variantId (a product's variant; left out: the API's default one), quantity, redirectTo. A guest adds to a guest cart in the API (its id kept in the
 * httpOnly `cart_id` cookie); an expired session is sent to sign in and the add carried out afterwards.
 * Fetcher requests get JSON `{ ok, said }` (an i18n key and parameters, worded by the page); plain form
 * posts are redirected back with `added=1` or `cartError=<code or key>` (see apiMessages.flashFromUrl).
 */
// A tap queued offline and sent again by the service worker is carried out once (app/tap-keys.server.ts).
export const action = (args: ActionFunctionArgs) => oncePerTap(args.request, () => addToCart(args));

// the contract's body (issue 30.3) until the regenerated client (libs/api-client) carries variantId
type AddBody = { productId: string; quantity: number; variantId?: string };

async function addToCart({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const productId = form.get('productId');
  const quantity = parseQuantity(form.get('quantity'));
  const variantField = form.get('variantId');
  const back = safeRedirectPath(form.get('redirectTo'), '/cart');
  const fetcher = form.get('mode') === 'json';
  const variantId = typeof variantField === 'string' && variantField !== '' ? variantField : undefined;
  if (!isProductId(productId) || (variantId !== undefined && !VARIANT_ID.test(variantId))) {
    return fetcher
      ? reply({ ok: false, said: { key: FALLBACK.addToCart } satisfies Said }, 400)
      : redirect(back);
  }
  const result = await settle(
    apiFor(request).POST('/api/cart/add', {
      body: { productId, quantity, ...(variantId ? { variantId } : {}) } as AddBody,
    }),
  );
  if (!result.ok && result.status === 401 && tokenFromRequest(request))
    return redirectGuestWithIntent(request, { type: 'cart', productId, quantity, variantId }, back);
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
