import { Link } from './Localized';
import { filtersToSearch, paginationWindow, type CatalogueFilters } from '../catalogue';
import { useShop } from '../shop-context';

/** Numbered page links (window of 5, first and last, ellipses) that keep the current filters. */
export function Pagination({ filters, totalPages }: { filters: CatalogueFilters; totalPages: number }) {
  const { t } = useShop();
  if (totalPages <= 1) return null;
  const page = Math.min(filters.page, totalPages);
  const href = (n: number) => filtersToSearch({ ...filters, page: n }) || '?';
  return (
    <nav className="pages" aria-label={t('catalogue.pagination')}>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className="page-step">
          {t('catalogue.previous')}
        </Link>
      ) : (
        <span className="page-step disabled" aria-hidden="true">
          {t('catalogue.previous')}
        </span>
      )}
      <ul>
        {paginationWindow(page, totalPages).map((item) =>
          item.type === 'ellipsis' ? (
            <li key={item.key} className="ellipsis" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item.page}>
              <Link
                to={href(item.page)}
                aria-current={item.page === page ? 'page' : undefined}
                aria-label={t('catalogue.pageN', { page: item.page })}
              >
                {item.page}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < totalPages ? (
        <Link to={href(page + 1)} rel="next" className="page-step">
          {t('catalogue.next')}
        </Link>
      ) : (
        <span className="page-step disabled" aria-hidden="true">
          {t('catalogue.next')}
        </span>
      )}
    </nav>
  );
}
