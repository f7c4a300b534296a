import { useShop } from '../shop-context';

/**
 * A star rating, read out as "Rated 4.5 out of 5"; with a review count of 0, 'No reviews yet' instead of
 * five empty stars and '0.0 (0 reviews)'.
 */
export function Stars({ rating, count }: { rating: number; count?: number }) {
  const { t } = useShop();
  if (count === 0) return <span className="stars no-reviews">{t('ui.noReviewsYet')}</span>;
  const full = Math.round(rating);
  return (
    <span className="stars">
      <span aria-hidden="true">
        {'★'.repeat(full)}
        {'☆'.repeat(5 - full)}
      </span>
      <span className="sr-only">{t('product.ratingLabel', { rating: rating.toFixed(1) })}</span>
      {count !== undefined && (
        <small> {t(count === 1 ? 'product.reviewsOne' : 'product.reviews', { count })}</small>
      )}
    </span>
  );
}
