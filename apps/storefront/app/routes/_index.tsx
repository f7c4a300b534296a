import { Link, useLoaderData } from '@remix-run/react';
import { FEATURED_PRODUCTS } from '@shop/shared';
import { ProductCard } from '../ProductCard';
import { listProducts } from '../products.server';
import { useShop } from '../root';

export async function loader() {
  return listProducts({ limit: FEATURED_PRODUCTS, sort: 'featured' });
}

export default function Home() {
  const { data, failed } = useLoaderData<typeof loader>();
  const { t } = useShop();
  return (
    <>
      <section className="hero">
        <h1>{t('home.heroTitle')}</h1>
        <p>{t('home.heroText')}</p>
        <Link to="/shop" className="button">{t('home.shopNow')}</Link>
      </section>
      <section>
        <h2>{t('home.featured')}</h2>
        {failed || !data ? (
          <p className="notice" role="alert">{t('errors.loadingProducts')} <Link to="/">{t('common.retry')}</Link></p>
        ) : (
          <div className="grid">{data.products.map((p) => <ProductCard key={p._id} product={p} />)}</div>
        )}
        <p><Link to="/products">{t('home.viewAll')}</Link></p>
      </section>
    </>
  );
}
