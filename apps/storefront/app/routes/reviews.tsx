import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { settle } from '../account/api.server';
import { isProductId, signInPath } from '../account/auth/intent';
import { apiFor, tokenFromRequest } from '../session.server';
import { apiError } from '../apiMessages';

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
  if (intent === 'create')
    result = await settle(
      apiFor(request).POST('/api/reviews/product/{id}', { params: { path: { id: productId } }, body }),
    );
  else if ((intent === 'update' || intent === 'delete') && isProductId(reviewId)) {
    result =
      intent === 'update'
        ? await settle(
            apiFor(request).PATCH('/api/reviews/{id}', { params: { path: { id: reviewId } }, body }),
          )
        : await settle(apiFor(request).DELETE('/api/reviews/{id}', { params: { path: { id: reviewId } } }));
  } else return redirect(`${back}?reviewError=${encodeURIComponent('reviews.invalid')}#write-review`);
  if (!result.ok && result.status === 401) return redirect(signInPath(`${back}#write-review`));
  if (!result.ok)
    return redirect(
      `${back}?reviewError=${encodeURIComponent(apiError(result, 'reviews.failed').key)}#write-review`,
    );
  return redirect(`${back}?review=${intent === 'delete' ? 'deleted' : 'saved'}#reviews`);
}

export const loader = () => redirect('/products');
