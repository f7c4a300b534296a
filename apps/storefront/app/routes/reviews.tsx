import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { api, id } from '../account/api.server';
import { isProductId, signInPath } from '../account/intent';
import { tokenFromRequest } from '../session.server';

/**
 * POST intent=create|update|delete, productId, reviewId, rating, comment: writes the customer's own
 * review and goes back to the product page (with `reviewError` when the API refused).
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const productId = form.get('productId');
  if (!isProductId(productId)) return redirect('/products');
  const back = `/product/${encodeURIComponent(productId)}`;
  if (!tokenFromRequest(request)) return redirect(signInPath(`${back}#write-review`));
  const intent = form.get('intent');
  const reviewId = String(form.get('reviewId') ?? '');
  const rating = Number(form.get('rating'));
  const comment = String(form.get('comment') ?? '').trim();
  const body = { rating, comment };
  let result;
  if (intent === 'create') result = await api(request, 'POST', `/api/reviews/product/${id(productId)}`, { body });
  else if ((intent === 'update' || intent === 'delete') && isProductId(reviewId)) {
    result = intent === 'update'
      ? await api(request, 'PATCH', `/api/reviews/${id(reviewId)}`, { body })
      : await api(request, 'DELETE', `/api/reviews/${id(reviewId)}`);
  } else return redirect(`${back}?reviewError=${encodeURIComponent('reviews.invalid')}#write-review`);
  if (!result.ok && result.status === 401) return redirect(signInPath(`${back}#write-review`));
  if (!result.ok) return redirect(`${back}?reviewError=${encodeURIComponent(result.message || 'reviews.failed')}#write-review`);
  return redirect(`${back}?review=${intent === 'delete' ? 'deleted' : 'saved'}#reviews`);
}

export const loader = () => redirect('/products');
