import { useLocation, useSearchParams } from '@remix-run/react';
import { Form, Link } from './Localized';
import type { ReviewView } from '../shop-data';
import { flashFromUrl, say } from '../apiMessages';
import { Personal } from '../personal-slots';
import { useShop } from '../shop-context';
import { DateText } from '../account/components';
import { Stars } from './Stars';
import { FormErrors } from './FormErrors';

function RatingSelect({ defaultValue, id }: { defaultValue?: number; id: string }) {
  const { t } = useShop();
  return (
    <label htmlFor={id}>
      <span>{t('product.yourRating')}</span>
      <select id={id} name="rating" defaultValue={defaultValue ?? 5} required>
        {[5, 4, 3, 2, 1].map((n) => (
          <option key={n} value={n}>
            {t(n === 1 ? 'product.starN' : 'product.starsN', { n })}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Reviews on the product page: the rating summary, the list, and for signed-in customers a form
 * posting to /reviews (create, or edit and delete of their own review).
 */
export function ReviewSection({
  productId,
  rating,
  reviewCount,
  reviews,
}: {
  productId: string;
  rating: number;
  reviewCount: number;
  reviews: ReviewView[] | null;
}) {
  const { t, user, template } = useShop();
  const location = useLocation();
  const [params] = useSearchParams();
  const saved = params.get('review');
  // Only review keys are accepted from the URL; anything else is the generic failure.
  const failure = flashFromUrl(params, 'reviewError', 'reviews.failed', ['reviews'], t);
  const list = reviews ?? [];
  const own = user ? list.find((r) => r.user._id === user._id) : undefined;
  const count = Math.max(reviewCount, list.length);
  const distribution = [5, 4, 3, 2, 1].map((stars) => ({
    stars,
    count: list.filter((r) => Math.round(r.rating) === stars).length,
  }));

  const guestForm = (
    <p>
      <Link to={`/signin?redirectTo=${encodeURIComponent(location.pathname + '#write-review')}`}>
        {t('product.signInToReview')}
      </Link>
    </p>
  );
  const ownForm = (mine: ReviewView) => (
    <div className="review-forms">
      <h3>{t('product.editReview')}</h3>
      <Form method="post" action="/reviews" className="review-form">
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="productId" value={productId} />
        <input type="hidden" name="reviewId" value={mine._id} />
        <RatingSelect id="edit-rating" defaultValue={mine.rating} />
        <label htmlFor="edit-comment">
          <span>{t('product.yourReview')}</span>
        </label>
        <textarea
          id="edit-comment"
          name="comment"
          defaultValue={mine.comment}
          required
          maxLength={2000}
          rows={4}
        />
        <button type="submit" className="button small">
          {t('product.saveReview')}
        </button>
      </Form>
      <Form method="post" action="/reviews" className="review-delete">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="productId" value={productId} />
        <input type="hidden" name="reviewId" value={mine._id} />
        <button type="submit" className="button small secondary">
          {t('product.deleteReview')}
        </button>
      </Form>
    </div>
  );
  const newForm = (
    <div className="review-forms">
      <h3>{t('product.writeReview')}</h3>
      <Form method="post" action="/reviews" className="review-form">
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="productId" value={productId} />
        <RatingSelect id="new-rating" />
        <label htmlFor="new-comment">
          <span>{t('product.yourReview')}</span>
        </label>
        <textarea id="new-comment" name="comment" required maxLength={2000} rows={4} />
        <button type="submit" className="button small">
          {t('product.submitReview')}
        </button>
      </Form>
    </div>
  );

  return (
    <section id="reviews" className="reviews" aria-labelledby="reviews-title">
      <h2 id="reviews-title">{t('product.customerReviews')}</h2>
      <div className="review-summary">
        {/* no reviews: no '0.0 / 5' summary; the list below says 'No reviews yet. Be the first…' */}
        {count === 0 ? null : (
          <>
            <p className="average">
              <strong>{rating.toFixed(1)}</strong> / 5
            </p>
            <Stars rating={rating} />
            <p>{t(count === 1 ? 'product.basedOnOne' : 'product.basedOn', { count })}</p>
          </>
        )}
        {list.length > 0 && (
          <ul className="distribution" aria-label={t('product.ratingBreakdown')}>
            {distribution.map((d) => (
              <li key={d.stars}>
                <span>{t(d.stars === 1 ? 'product.starN' : 'product.starsN', { n: d.stars })}</span>
                <span className="bar" aria-hidden="true">
                  <span style={{ width: `${(d.count / list.length) * 100}%` }} />
                </span>
                <span>{d.count}</span>
              </li>
            ))}
          </ul>
        )}
      </div>

      {reviews === null && (
        <p className="notice" role="alert">
          {t('product.reviewsFailed')}
        </p>
      )}
      {reviews !== null && list.length === 0 && <p>{t('product.noReviews')}</p>}
      <ul className="review-list">
        {list.map((r) => (
          <li key={r._id} className="review">
            <p className="review-head">
              <Stars rating={r.rating} /> <strong data-user-content>{r.user.name}</strong>
              {r.verified && <span className="verified">{t('product.verified')}</span>}
              <DateText iso={r.createdAt} texts={r.dateTexts} />
            </p>
            {r.title && (
              <p className="review-title" data-user-content>
                {r.title}
              </p>
            )}
            <p data-user-content>{r.comment}</p>
          </li>
        ))}
      </ul>

      <div id="write-review" role="status" aria-live="polite">
        {saved === 'saved' && <p className="success">{t('reviews.saved')}</p>}
        {saved === 'deleted' && <p className="success">{t('reviews.deleted')}</p>}
      </div>
      {/* a refused review: the summary is focused and scrolled to (the redirect's #write-review without JavaScript) */}
      <FormErrors formText={failure ? say(t, failure, 'reviews.failed') : null} answer={failure} />
      {import.meta.env.SSR && template ? (
        // a guest's, a new review's, and each listed review's edit forms: the shopper's own is theirs
        // (docs/decisions/0107; the region's name lists the reviews' authors in order)
        <Personal
          name={`review:${list.map((r) => r.user._id).join(',')}`}
          forms={[guestForm, newForm, ...list.map(ownForm)]}
        />
      ) : !user ? (
        guestForm
      ) : own ? (
        ownForm(own)
      ) : (
        newForm
      )}
    </section>
  );
}
