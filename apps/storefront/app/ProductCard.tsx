import { discountPercent, formatMoney } from '@shop/shared';
import type { Product } from '@shop/api-client';
import { useShop } from './root';

export function ProductCard({ product }: { product: Product }) {
  const { lang, t, apiOrigin } = useShop();
  const name = lang === 'am' && product.nameAm ? product.nameAm : product.name;
  const discount = discountPercent(product.price, product.originalPrice);
  return (
    <article className="card">
      <div className="card-image">
        <img src={`${apiOrigin}${product.images[0]}`} alt={name} loading="lazy" width={300} height={300} />
        {discount > 0 && <span className="badge">{t('product.off', { percent: discount })}</span>}
        {product.stock === 0 && <span className="overlay">{t('product.outOfStock')}</span>}
      </div>
      <p className="brand">{product.brand}</p>
      <h3>{name}</h3>
      <p className="rating" aria-label={`${product.rating} / 5`}>
        {'★'.repeat(Math.round(product.rating))}{'☆'.repeat(5 - Math.round(product.rating))}{' '}
        <small>{t('product.reviews', { count: product.reviewCount })}</small>
      </p>
      <p className="price">
        <strong>{formatMoney(product.price, 'ETB', lang)}</strong>
        {product.originalPrice ? <s>{formatMoney(product.originalPrice, 'ETB', lang)}</s> : null}
      </p>
    </article>
  );
}
