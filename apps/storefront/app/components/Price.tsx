import { discountPercent, formatMoney } from '@shop/shared';
import { useShop } from '../shop-context';

/** Price in ETB in the active language, with the struck original price and the discount badge. */
export function Price({
  price,
  originalPrice,
  badge = true,
}: {
  price: number;
  originalPrice?: number;
  badge?: boolean;
}) {
  const { lang, t } = useShop();
  const discount = discountPercent(price, originalPrice);
  return (
    <p className="price">
      <strong>{formatMoney(price, 'ETB', lang)}</strong>
      {discount > 0 && originalPrice ? (
        <>
          {' '}
          <s>
            <span className="sr-only">{t('product.originalPrice')} </span>
            {formatMoney(originalPrice, 'ETB', lang)}
          </s>
          {badge && <span className="discount">{t('product.off', { percent: discount })}</span>}
        </>
      ) : null}
    </p>
  );
}
