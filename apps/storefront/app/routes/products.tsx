import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useLocation, useNavigation, useSubmit } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { CATEGORIES, PRICE_RANGES, PRODUCT_SORTS, SUB_CATEGORIES } from '@shop/shared';
import { useEffect, useRef, useState } from 'react';
import { RATING_FILTERS, SEARCH_MAX_LENGTH, productQuery, readFilters, showingRange } from '../catalogue';
import { Deferred } from '../components/Deferred';
import { FilterIcon } from '../components/Icons';
import { BrandFacet, categoryLabel } from '../components/CatalogueFacets';
import { Pagination } from '../components/Pagination';
import { ProductCard, ProductGridSkeleton } from '../components/ProductCard';
import { useFocusTrap } from '../components/useFocusTrap';
import { listCards } from '../products.server';
import { langOf, titleMeta, translatorOf, useShop } from '../shop-context';

export const FILTER_DEBOUNCE_MS = 500;
/** The counts the catalogue asks the API for. */
export const FACETS = 'category,brand';

// The shop's description (search engines show it under the catalogue's link; Lighthouse SEO wants one)
/** The catalogue's name: the chosen sub-category's or category's (a page of the sitemap), else 'All products'. */
function catalogueName(search: string, lang: 'en' | 'am'): string | undefined {
  const params = new URLSearchParams(search);
  const chosen =
    SUB_CATEGORIES.find((c) => c.slug === params.get('subCategory')) ??
    CATEGORIES.find((c) => c.slug === params.get('category'));
  return chosen?.name[lang];
}

export const meta: MetaFunction = ({ matches, location }) => [
  titleMeta(matches, 'catalogue.title', catalogueName(location.search, langOf(matches))),
  { name: 'description', content: translatorOf(matches)('home.metaDescription') },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const filters = readFilters(new URL(request.url).searchParams);
  // with the drawer's counts per category and brand (docs/decisions/0091-catalogue-facets.md)
  return { filters, ...(await listCards(request, { ...productQuery(filters), facets: FACETS })) };
}

/** Puts the URL's filter values back into the form after back/forward (but not under the typing user). */
function useFormMirrorsUrl(form: React.RefObject<HTMLFormElement>, search: string) {
  useEffect(() => {
    const el = form.current;
    if (!el) return;
    const params = new URLSearchParams(search);
    for (const field of Array.from(el.elements) as HTMLInputElement[]) {
      if (!field.name || (field === document.activeElement && field.type === 'search')) continue;
      if (field.type === 'checkbox')
        field.checked =
          field.name === 'brand'
            ? params.getAll('brand').some((b) => b.toLowerCase() === field.value.toLowerCase())
            : params.get(field.name) === 'true';
      else if (field.type !== 'submit') field.value = params.get(field.name) ?? '';
    }
  }, [form, search]);
}

/** The catalogue's parameters other than the sort and the page (a new sort starts at page 1). */
export function keptFilters(search: string): [string, string][] {
  return Array.from(new URLSearchParams(search).entries()).filter(
    ([name, value]) => name !== 'sort' && name !== 'page' && value !== '',
  );
}

export default function Catalogue() {
  const { data, failed, filters } = useLoaderData<typeof loader>();
  const { t, lang } = useShop();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useFormMirrorsUrl(formRef, location.search);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Filters apply 500 ms after the last change, replacing the URL (the single source of truth).
  function scheduleSubmit(form: HTMLFormElement) {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const data = new FormData(form);
      for (const [key, value] of Array.from(data.entries())) if (value === '') data.delete(key);
      submit(data, { method: 'get', action: location.pathname, preventScrollReset: true });
    }, FILTER_DEBOUNCE_MS);
  }

  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeRef = useRef<HTMLAnchorElement>(null);
  const toggleRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (drawerOpen) closeRef.current?.focus();
  }, [drawerOpen]);
  // the open drawer keeps the focus; Escape closes it and the focus goes back to 'Filters'
  useFocusTrap(drawerOpen, [formRef], () => setDrawerOpen(false), toggleRef);
  const activeCount = [
    filters.priceRange,
    filters.category,
    filters.subCategory,
    filters.minRating !== '',
    filters.inStock,
    filters.brands.length > 0,
  ].filter(Boolean).length;

  const loading = navigation.state === 'loading' && navigation.location?.pathname === location.pathname;
  const subCategories = SUB_CATEGORIES.filter((s) => !filters.category || s.category === filters.category);
  const hasFilters = Boolean(
    filters.search ||
    filters.priceRange ||
    filters.category ||
    filters.subCategory ||
    filters.sort ||
    filters.minRating !== '' ||
    filters.inStock ||
    filters.brands.length > 0,
  );

  return (
    <section className="catalogue" aria-labelledby="catalogue-title">
      <h1 id="catalogue-title">
        {filters.search
          ? t('catalogue.resultsFor', { search: filters.search })
          : (catalogueName(location.search, lang) ?? t('catalogue.title'))}
      </h1>
      {/* Phones: the filters are a drawer behind this button. Without JavaScript it is a link to #filters
          (the drawer shows while it is the URL's target); with JavaScript a toggle. Desktop: always shown. */}
      <div className="catalogue-bar">
        <a
          href="#filters"
          ref={toggleRef}
          role="button"
          className="button secondary filters-toggle"
          aria-controls="filters"
          aria-expanded={drawerOpen}
          onClick={(e) => {
            e.preventDefault();
            setDrawerOpen(true);
          }}
        >
          <FilterIcon /> {activeCount > 0 ? t('ui.filtersActive', { count: activeCount }) : t('ui.filters')}
        </a>
        {/* Phones: the sort beside 'Filters', a form of its own that keeps the other filters (hidden
            fields); it applies on change, or with its button without JavaScript. The drawer's own sort
            (desktop) is hidden on phones. */}
        <Form
          method="get"
          className="sort-bar"
          key={location.search}
          onChange={(e) => submit(e.currentTarget, { preventScrollReset: true })}
        >
          {keptFilters(location.search).map(([name, value], i) => (
            <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
          ))}
          <label>
            <span className="sr-only">{t('catalogue.sort')}</span>
            <select name="sort" defaultValue={filters.sort} data-testid="phone-sort">
              <option value="">{t('catalogue.sorts.featured')}</option>
              {PRODUCT_SORTS.filter((s) => s !== 'featured').map((s) => (
                <option key={s} value={s}>
                  {t(`catalogue.sorts.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <noscript>
            <button type="submit" className="button small secondary">
              {t('catalogue.apply')}
            </button>
          </noscript>
        </Form>
      </div>
      <Form
        ref={formRef}
        id="filters"
        method="get"
        className={`filters ${drawerOpen ? 'open' : ''}`}
        aria-label={t('catalogue.filters')}
        // 'input' as well as 'change': preact/compat (the browser's runtime) maps a form's onChange to the
        // native change event, which a search field fires only when it loses the focus
        onChange={(e) => scheduleSubmit(e.currentTarget)}
        onInput={(e) => scheduleSubmit(e.currentTarget)}
        onSubmit={() => {
          clearTimeout(timer.current);
          setDrawerOpen(false);
        }}
      >
        <div className="drawer-head">
          <h2>{t('ui.filters')}</h2>
          <a
            href="#catalogue-title"
            className="drawer-close"
            ref={closeRef}
            aria-label={t('ui.closeFilters')}
            onClick={(e) => {
              e.preventDefault();
              setDrawerOpen(false);
            }}
          >
            ×
          </a>
        </div>
        <label className="filter search">
          <span>{t('catalogue.search')}</span>
          <input
            type="search"
            name="search"
            defaultValue={filters.search}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder={t('header.searchPlaceholder')}
          />
        </label>
        <label className="filter">
          <span>{t('catalogue.priceRange')}</span>
          <select name="priceRange" defaultValue={filters.priceRange}>
            {PRICE_RANGES.map((r) => (
              <option key={r.key} value={r.key === 'all' ? '' : r.key}>
                {t(`catalogue.priceRanges.${r.key}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>{t('catalogue.category')}</span>
          <select name="category" defaultValue={filters.category}>
            <option value="">{t('catalogue.allCategories')}</option>
            {CATEGORIES.map((c) => (
              <option key={c.slug} value={c.slug}>
                {categoryLabel(t, c.name[lang], c.slug, data?.facets?.category)}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>{t('catalogue.subCategory')}</span>
          <select name="subCategory" defaultValue={filters.subCategory}>
            <option value="">{t('catalogue.allSubCategories')}</option>
            {subCategories.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name[lang]}
              </option>
            ))}
          </select>
        </label>
        <label className="filter sort-filter">
          <span>{t('catalogue.sort')}</span>
          <select name="sort" defaultValue={filters.sort}>
            {/* No sort in the URL is the API's default order, 'featured'; it is not listed twice. */}
            <option value="">{t('catalogue.sorts.featured')}</option>
            {PRODUCT_SORTS.filter((s) => s !== 'featured').map((s) => (
              <option key={s} value={s}>
                {t(`catalogue.sorts.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>{t('catalogue.rating')}</span>
          <select name="minRating" defaultValue={String(filters.minRating)}>
            <option value="">{t('catalogue.anyRating')}</option>
            {RATING_FILTERS.map((r) => (
              <option key={r} value={r}>
                {t(r === 1 ? 'catalogue.starAndUp' : 'catalogue.starsAndUp', { stars: r })}
              </option>
            ))}
          </select>
        </label>
        <BrandFacet brands={data?.facets?.brand} chosen={filters.brands} />
        <label className="filter checkbox">
          <input type="checkbox" name="inStock" value="true" defaultChecked={filters.inStock} />
          <span>{t('catalogue.inStockOnly')}</span>
        </label>
        <div className="filter-actions">
          <button type="submit" className="button small">
            <span className="apply-wide">{t('catalogue.apply')}</span>
            <span className="apply-phone">{t('ui.showResults')}</span>
          </button>
          {hasFilters && (
            <Link to={location.pathname} className="clear-all">
              {t('catalogue.clearAll')}
            </Link>
          )}
        </div>
      </Form>
      <a
        href="#catalogue-title"
        className="drawer-backdrop"
        tabIndex={-1}
        aria-hidden="true"
        onClick={(e) => {
          e.preventDefault();
          setDrawerOpen(false);
        }}
      >
        <span className="sr-only">{t('ui.closeFilters')}</span>
      </a>

      {failed || !data ? (
        <div className="notice error-state" role="alert">
          <p>{t('errors.loadingProducts')}</p>
          <a href={location.pathname + location.search} className="button small">
            {t('common.retry')}
          </a>
        </div>
      ) : (
        <>
          <p className="showing" aria-live="polite">
            {t('catalogue.showing', showingRange(filters.page, data.totalProducts))}
          </p>
          {loading ? (
            <ProductGridSkeleton count={Math.max(4, Math.min(8, data.products.length))} />
          ) : data.products.length === 0 ? (
            <div className="notice empty-state">
              <p>{t('catalogue.empty')}</p>
              {hasFilters && <Link to={location.pathname}>{t('catalogue.clearAll')}</Link>}
            </div>
          ) : (
            <>
              {/* the cards' titles are h3: with the filters drawer folded away (phones) this h2 keeps the
                  outline sequential */}
              <h2 className="sr-only">{t('nav.products')}</h2>
              <div className="grid">
                {data.products.map((p, i) => (
                  <Deferred key={p._id}>
                    <ProductCard product={p} priority={i === 0} />
                  </Deferred>
                ))}
              </div>
            </>
          )}
          {/* Deferred's child must be one element: Pagination is nothing for a single page */}
          {data.totalPages > 1 && (
            <Deferred>
              <Pagination filters={filters} totalPages={data.totalPages} />
            </Deferred>
          )}
        </>
      )}
    </section>
  );
}
