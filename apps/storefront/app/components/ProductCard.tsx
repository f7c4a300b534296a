import { Link } from './Localized';
import type { Product } from '@shop/api-client';
import type { CardProduct } from '../product-card';
import { Personal, TOKEN } from '../personal-slots';
import { useShop } from '../shop-context';
import { AddToCart, WishlistHeart } from './AddToCart';
import { ShopImage } from './ShopImage';
import { Price } from './Price';
import { Stars } from './Stars';

/** The product's name in the active language (Amharic when the product has one). */
export function productName(product: Pick<Product, 'name' | 'nameAm'>, lang: string): string {
  return lang === 'am' && product.nameAm ? product.nameAm : product.name;
}

export { HIGH_FETCH_PRIORITY } from './ShopImage';

/** `priority`: the card is likely the page's largest image at first paint (fetch it first, not lazily). */
export function ProductCard({ product, priority = false }: { product: CardProduct; priority?: boolean }) {
  const { lang, t, cartQuantities, template } = useShop();
  const name = productName(product, lang);
  const inCart = cartQuantities[product._id] ?? 0;
  const inCartBadge = (count: number | string) => (
    <span className="in-cart">{t('product.inCart', { count })}</span>
  );
  const href = `/product/${product._id}`;
  const image = product.images[0];
  return (
    <article className="card">
      <div className="card-image">
        <Link to={href} tabIndex={-1} aria-hidden="true">
          {image ? (
            <ShopImage src={image} alt="" width={300} height={300} place="card" priority={priority} lazy />
          ) : (
            <span className="no-image" />
          )}
        </Link>
        {product.discount > 0 && (
          <span className="badge">{t('product.off', { percent: product.discount })}</span>
        )}
        {import.meta.env.SSR && template ? (
          // both forms, the count a token (docs/decisions/0107)
          <Personal name={`in-cart:${product._id}`} forms={[null, inCartBadge(TOKEN.count)]} />
        ) : (
          inCart > 0 && inCartBadge(inCart)
        )}
        {product.stock <= 0 && <span className="overlay">{t('product.outOfStock')}</span>}
        <WishlistHeart productId={product._id} name={name} />
      </div>
      <p className="brand">{product.brand}</p>
      <h3>
        <Link to={href}>{name}</Link>
      </h3>
      <p className="rating">
        <Stars rating={product.rating} count={product.reviewCount} />
      </p>
      <Price
        price={product.price}
        originalPrice={product.originalPrice}
        badge={false}
        sale={product.promotion}
      />
      <AddToCart productId={product._id} stock={product.stock} control="stepper" name={name} />
    </article>
  );
}

/** Grey placeholders shown while the next page of products loads. */
export function ProductGridSkeleton({ count = 8 }: { count?: number }) {
  const { t } = useShop();
  return (
    <div className="grid" aria-busy="true">
      <p className="sr-only" role="status">
        {t('common.loading')}
      </p>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="card skeleton" aria-hidden="true">
          <div className="sk-img" />
          <div className="sk-line" />
          <div className="sk-line short" />
        </div>
      ))}
    </div>
  );
}
