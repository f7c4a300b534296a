import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Link } from '../components/Localized';
import { FEATURED_PRODUCTS } from '@shop/shared';
import { Deferred } from '../components/Deferred';
import { HeroSlider } from '../components/HeroSlider';
import { ShopJsonLd } from '../components/LanguageLinks';
import { ProductCard } from '../components/ProductCard';
import { Testimonials } from '../components/Testimonials';
import { listCards, recentReviews } from '../products.server';
import { titleMeta, translatorOf, useShop } from '../shop-context';
import type { CardProduct } from '../product-card';

export const meta: MetaFunction = ({ matches }) => {
  const t = translatorOf(matches);
  const origin =
    (matches.find((m) => m.id === 'root')?.data as { origin?: string } | undefined)?.origin ?? '';
  // Open Graph in the page's language (og:url and og:locale are the root's, docs/decisions/0092)
  return [
    titleMeta(matches, 'nav.home'),
    { name: 'description', content: t('home.metaDescription') },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: t('common.shopName') },
    { property: 'og:title', content: t('common.shopName') },
    { property: 'og:description', content: t('home.metaDescription') },
    { property: 'og:image', content: `${origin.replace(/\/+$/, '')}/icons/icon-512.png` },
  ];
};

/** Products on each of the home page's shelves (new arrivals, best sellers): one row on a desktop. */
export const HOME_SHELF = 4;

export async function loader({ request }: LoaderFunctionArgs) {
  // New arrivals are the newest products; best sellers are ranked by number of reviews (the API's
  // 'reviews' sort: it has no sales count; see docs/decisions/0035-storefront-browsing.md).
  const [featured, newest, best, reviews] = await Promise.all([
    listCards(request, { limit: FEATURED_PRODUCTS, sort: 'featured' }),
    listCards(request, { limit: HOME_SHELF * 3, sort: 'newest' }),
    listCards(request, { limit: HOME_SHELF * 3, sort: 'reviews' }),
    recentReviews(request),
  ]);
  // each product shows once on the page: a shelf skips what the sections above it show
  const shown = new Set((featured.data?.products ?? []).map((p) => p._id));
  const shelf = (products: CardProduct[] = []) => {
    const picked = products.filter((p) => !shown.has(p._id)).slice(0, HOME_SHELF);
    for (const p of picked) shown.add(p._id);
    return picked;
  };
  const newArrivals = shelf(newest.data?.products);
  return { ...featured, newest: newArrivals, best: shelf(best.data?.products), reviews };
}

export default function Home() {
  const { data, failed, reviews, newest, best } = useLoaderData<typeof loader>();
  const { t } = useShop();
  return (
    <>
      <ShopJsonLd />
      <Deferred>
        <HeroSlider />
      </Deferred>
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
              <Deferred key={p._id}>
                <ProductCard product={p} />
              </Deferred>
            ))}
          </div>
        )}
      </section>
      <Shelf
        id="new-arrivals"
        title={t('ui.newArrivals')}
        link="/products?sort=newest"
        linkText={t('ui.seeNewest')}
        products={newest}
      />
      <Shelf
        id="best-sellers"
        title={t('ui.bestSellers')}
        link="/products?sort=reviews"
        linkText={t('ui.seeBestSellers')}
        products={best}
      />
      <Deferred>
        <Testimonials reviews={reviews} />
      </Deferred>
      <Deferred>
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
      </Deferred>
    </>
  );
}

/** A home page shelf: a titled row of products with a link to the catalogue in the same order. */
function Shelf({
  id,
  title,
  link,
  linkText,
  products,
}: {
  id: string;
  title: string;
  link: string;
  linkText: string;
  products: CardProduct[];
}) {
  if (products.length === 0) return null;
  return (
    <section className="shelf" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <Link to={link}>{linkText}</Link>
      </div>
      <div className="grid">
        {products.map((p) => (
          <Deferred key={p._id}>
            <ProductCard product={p} />
          </Deferred>
        ))}
      </div>
    </section>
  );
}
