import { discountPercent, formatMoney, formatShopDateTime } from '@shop/shared';
import { vatWordKey } from '../price-words';
import { useShop } from '../shop-context';

/** The scheduled sale a price comes from (docs/decisions/0095). */
export interface PriceSale {
  name: { en: string; am: string };
  endsAt: string;
}

/** "Timket week, until 22 Jan 2027, 23:59" (Amharic: the Ethiopian calendar and hours), or '' without a sale. */
export function saleWords(
  sale: PriceSale | undefined,
  lang: 'en' | 'am',
  t: (key: string, params?: Record<string, string | number>) => string,
): string {
  if (!sale) return '';
  const name = (lang === 'am' ? sale.name.am : sale.name.en) || sale.name.en;
  return t('product.saleUntil', { name, date: formatShopDateTime(sale.endsAt, lang) });
}

/**
 * Price in ETB in the active language with the VAT words of the shop's setting ('+ VAT' or 'incl. VAT'),
 * the struck original price and the discount badge; during a sale its name and end. Each amount keeps to one line (`.price` nowrap parts).
 */
export function Price({
  price,
  originalPrice,
  badge = true,
  sale,
}: {
  price: number;
  originalPrice?: number;
  badge?: boolean;
  sale?: PriceSale;
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
      {sale ? (
        <>
          {' '}
          <small className="sale-until" data-testid="sale-until">
            {saleWords(sale, lang, t)}
          </small>
        </>
      ) : null}
    </p>
  );
}
