import { discountPercent, formatMoney } from '@shop/shared';
import { vatWordKey } from '../price-words';
import { useShop } from '../shop-context';

/**
 * Price in ETB in the active language with the VAT words of the shop's setting ('+ VAT' or 'incl. VAT'),
 * the struck original price and the discount badge. Each amount keeps to one line (`.price` nowrap parts).
 */
export function Price({
  price,
  originalPrice,
  badge = true,
}: {
  price: number;
  originalPrice?: number;
  badge?: boolean;
}) {
  const { lang, t, publicSettings } = useShop();
  const discount = discountPercent(price, originalPrice);
  return (
    <p className="price">
      <span className="price-now">
        <strong>{formatMoney(price, 'ETB', lang)}</strong>{' '}
        <small className="vat" data-testid="vat-words">
          {t(vatWordKey(publicSettings.pricesIncludeTax))}
        </small>
      </span>
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
