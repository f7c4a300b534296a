import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { CATALOGUE_PAGE_SIZE } from '@shop/shared';
import { ProductCard } from '../ProductCard';
import { listProducts } from '../products.server';
import { useShop } from '../root';

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  const search = url.searchParams.get('search')?.slice(0, 100) || undefined;
  return { page, ...(await listProducts({ page, limit: CATALOGUE_PAGE_SIZE, search })) };
}

export default function Catalogue() {
  const { data, failed, page } = useLoaderData<typeof loader>();
  const { t } = useShop();
  if (failed || !data) {
    return <p className="notice" role="alert">{t('errors.loadingProducts')} <Link to=".">{t('common.retry')}</Link></p>;
  }
  const from = data.totalProducts ? (page - 1) * CATALOGUE_PAGE_SIZE + 1 : 0;
  const to = Math.min(page * CATALOGUE_PAGE_SIZE, data.totalProducts);
  return (
    <section>
      <h1>{t('catalogue.title')}</h1>
      <p>{t('catalogue.showing', { from, to, total: data.totalProducts })}</p>
      {data.products.length === 0 ? <p>{t('catalogue.empty')}</p> : (
        <div className="grid">{data.products.map((p) => <ProductCard key={p._id} product={p} />)}</div>
      )}
      <nav className="pages">
        {Array.from({ length: data.totalPages }, (_, i) => i + 1).map((n) => (
          <Link key={n} to={`?page=${n}`} aria-current={n === page ? 'page' : undefined}>{n}</Link>
        ))}
      </nav>
    </section>
  );
}
