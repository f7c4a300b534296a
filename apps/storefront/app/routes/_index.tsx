import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { FEATURED_PRODUCTS } from '@shop/shared';
import { HeroSlider } from '../components/HeroSlider';
import { ProductCard } from '../components/ProductCard';
import { Testimonials } from '../components/Testimonials';
import { listProducts, recentReviews } from '../products.server';
import { langOf, titleMeta, useShop } from '../shop-context';
import { createTranslator } from '@shop/i18n';

export const meta: MetaFunction = ({ matches }) => [
  titleMeta(matches, 'nav.home'),
  { name: 'description', content: createTranslator(langOf(matches))('home.metaDescription') },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [featured, reviews] = await Promise.all([
    listProducts(request, { limit: FEATURED_PRODUCTS, sort: 'featured' }),
    recentReviews(request),
  ]);
  return { ...featured, reviews };
}

export default function Home() {
  const { data, failed, reviews } = useLoaderData<typeof loader>();
  const { t } = useShop();
  return (
    <>
      <HeroSlider />
      <section className="featured" aria-labelledby="featured-title">
        <div className="section-head">
          <h2 id="featured-title">{t('home.featured')}</h2>
          <Link to="/products">{t('home.viewAll')}</Link>
        </div>
        {failed || !data ? (
          <p className="notice" role="alert">
            {t('errors.loadingProducts')}{' '}
            <Link to="/" reloadDocument>
              {t('common.retry')}
            </Link>
          </p>
        ) : (
          <div className="grid">
            {data.products.map((p) => (
              <ProductCard key={p._id} product={p} />
            ))}
          </div>
        )}
      </section>
      <Testimonials reviews={reviews} />
      <section className="cta-band" aria-labelledby="cta-title">
        <h2 id="cta-title">{t('home.ctaTitle')}</h2>
        <p>{t('home.ctaText')}</p>
        <p className="actions">
          <Link to="/products" className="button light">
            {t('home.ctaButton')}
          </Link>
          <Link to="/contact" className="button outline">
            {t('home.ctaContact')}
          </Link>
        </p>
      </section>
    </>
  );
}
