import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { settle } from '../account/api.server';
import { redirectGuestWithIntent } from '../account/auth/auth.server';
import { isProductId, safeRedirectPath } from '../account/auth/intent';
import { apiFor, tokenFromRequest } from '../session.server';
import { reply } from '../account/reply.server';
import { oncePerTap } from '../tap-keys.server';
import { FALLBACK, apiError, type Said } from '../apiMessages';

/**
 * POST productId, redirectTo: adds the product to the wishlist, or removes it when it is already there.
 * Fetcher requests get `{ ok, inWishlist, said }` with an i18n key, never an English text.
 */
// A tap queued offline and sent again by the service worker is carried out once (app/tap-keys.server.ts).
export const action = (args: ActionFunctionArgs) => oncePerTap(args.request, () => toggleWishlist(args));

async function toggleWishlist({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const productId = form.get('productId');
  const back = safeRedirectPath(form.get('redirectTo'), '/wishlist');
  const fetcher = new URL(request.url).searchParams.has('_data') || form.get('mode') === 'json';
  if (!isProductId(productId)) {
    return fetcher
      ? reply({ ok: false, said: { key: FALLBACK.wishlist } satisfies Said }, 400)
      : redirect(back);
  }
  if (!tokenFromRequest(request))
    return redirectGuestWithIntent(request, { type: 'wishlist', productId }, back);
  const current = await settle(apiFor(request).GET('/api/wishlist'));
  if (!current.ok && current.status === 401)
    return redirectGuestWithIntent(request, { type: 'wishlist', productId }, back);
  const present = current.ok && current.data.products.some((line) => line.product?._id === productId);
  const result = present
    ? await settle(
        apiFor(request).DELETE('/api/wishlist/remove/{productId}', { params: { path: { productId } } }),
      )
    : await settle(
        apiFor(request).POST('/api/wishlist/add/{productId}', { params: { path: { productId } }, body: {} }),
      );
  const answer = result.ok
    ? {
        ok: true,
        inWishlist: !present,
        said: { key: present ? 'wishlist.removed' : 'wishlist.added' } satisfies Said,
      }
    : {
        ok: false,
        inWishlist: present,
        said: apiError(result, present ? 'wishlist.removeFromFailed' : 'wishlist.addFailed'),
      };
  if (fetcher) return reply(answer, result.ok ? 200 : result.status);
  return redirect(back);
}

export const loader = () => redirect('/wishlist');
