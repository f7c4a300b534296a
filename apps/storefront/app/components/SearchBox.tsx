import { useFetcher, useNavigate, useSearchParams } from '@remix-run/react';
import { Form, Link, useLocalePath } from './Localized';
import { useEffect, useRef, useState } from 'react';
import type { Suggestions } from '../search-suggestions';
import { useShop } from '../shop-context';
import { SearchIcon } from './Icons';
import { MIN_SUGGESTION_CHARS, countText, highlightParts, optionUrls } from './suggestion-list';

export const SUGGESTION_DEBOUNCE_MS = 300;

// A fixed id rather than useId(): the page has one search box, and the server (React) and the browser
// (preact/compat) would make different ids for the same element.
const listId = 'site-search';
const optionId = (i: number) => `${listId}-opt-${i}`;

/**
 * Product search: a GET form to /products (works without JavaScript). With JavaScript, 300 ms after the
 * shopper stops typing (2 characters at least) the predictive search shows products (image, name with
 * the matched part marked, price), then matching categories and brands, and 'view all results'. The
 * focus stays in the field (a combobox with aria-activedescendant): arrow keys move through every
 * option, Enter opens the active one or searches, Escape closes; a polite status says how many
 * suggestions there are. The list lies over the page (no layout shift). docs/decisions/0086-predictive-search-box.md
 */
export function SearchBox() {
  const { t, lang } = useShop();
  const [params] = useSearchParams();
  const fetcher = useFetcher<Suggestions>();
  const navigate = useNavigate();
  const localize = useLocalePath();
  const [query, setQuery] = useState(params.get('search') ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const data = fetcher.data;

  useEffect(() => () => clearTimeout(timer.current), []);
  // follow the catalogue's search when the URL changes (links, back button)
  const urlSearch = params.get('search') ?? '';
  useEffect(() => setQuery(urlSearch), [urlSearch]);

  function onType(value: string) {
    setQuery(value);
    setActive(-1);
    clearTimeout(timer.current);
    const q = value.trim();
    if (q.length < MIN_SUGGESTION_CHARS) {
      setOpen(false);
      return;
    }
    timer.current = setTimeout(() => {
      // a newer load aborts the one still under way (useFetcher): no stale answer, no wasted data
      fetcher.load(`/search/suggestions?q=${encodeURIComponent(q)}&lang=${lang}`);
      setOpen(true);
    }, SUGGESTION_DEBOUNCE_MS);
  }

  const viewAll = `/products?search=${encodeURIComponent(query.trim())}`;
  const showList = open && query.trim().length >= MIN_SUGGESTION_CHARS && data !== undefined;
  const urls = data ? optionUrls(data, viewAll) : [viewAll];
  const count = data ? data.products.length + data.categories.length + data.brands.length : 0;

  // the active option stays in view when the list scrolls (a short phone screen)
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    // an input method (Ethiopic keyboards) uses Enter and the arrows while it composes a character
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'ArrowDown' && !showList && data && query.trim().length >= MIN_SUGGESTION_CHARS) {
      e.preventDefault();
      setOpen(true);
      return;
    }
    if (!showList) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((i) => Math.min(urls.length - 1, i + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(-1, i - 1));
    } else if (e.key === 'Escape') {
      // only closes the list: a search field's own Escape would also clear the text
      e.preventDefault();
      close();
    } else if (e.key === 'Enter' && active >= 0 && urls[active]) {
      e.preventDefault();
      close();
      navigate(localize(urls[active]));
    }
  }

  let index = 0;
  const option = (url: string, className: string, children: React.ReactNode, key: string) => {
    const i = index++;
    return (
      <Link
        key={key}
        to={url}
        id={optionId(i)}
        role="option"
        aria-selected={i === active}
        tabIndex={-1}
        className={`suggestion ${className}`}
        // a press keeps the focus in the field (the list stays open until the link opens)
        onMouseDown={(e) => e.preventDefault()}
        onClick={close}
      >
        {children}
      </Link>
    );
  };
  const group = (label: string, children: React.ReactNode[]) =>
    children.length > 0 && (
      <div role="group" aria-label={label} className="suggestion-group">
        <p aria-hidden="true" className="suggestion-title">
          {label}
        </p>
        {children}
      </div>
    );

  return (
    <Form method="get" action="/products" role="search" className="search-box" onSubmit={close}>
      <label htmlFor={`${listId}-input`} className="sr-only">
        {t('header.searchLabel')}
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        name="search"
        value={query}
        placeholder={t('header.searchPlaceholder')}
        autoComplete="off"
        maxLength={100}
        role="combobox"
        aria-expanded={showList}
        aria-controls={`${listId}-list`}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        onChange={(e) => onType(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(close, 150)}
      />
      <button type="submit" className="search-submit">
        <SearchIcon />
        <span className="sr-only">{t('header.search')}</span>
      </button>
      <p role="status" className="sr-only">
        {showList && fetcher.state === 'idle' ? countText(count, t) : ''}
      </p>
      <div className="suggestions" hidden={!showList}>
        {count === 0 && <p className="no-suggestions">{t('header.noSuggestions')}</p>}
        <div id={`${listId}-list`} role="listbox" aria-label={t('header.suggestions')}>
          {data &&
            group(
              t('header.suggestionProducts'),
              data.products.map((p) =>
                option(
                  p.url,
                  'product',
                  <>
                    {p.image ? (
                      <img src={p.image} alt="" width={44} height={44} loading="lazy" decoding="async" />
                    ) : (
                      <span className="no-image" />
                    )}
                    <span className="suggestion-text">
                      <span className="suggestion-name">
                        {highlightParts(p.name, p.highlight).map((part, i) =>
                          part.match ? <mark key={i}>{part.text}</mark> : part.text,
                        )}
                      </span>
                      <small className="suggestion-price">{p.price}</small>
                    </span>
                  </>,
                  p.id,
                ),
              ),
            )}
          {data &&
            group(
              t('header.suggestionCategories'),
              data.categories.map((c) =>
                option(
                  c.url,
                  'link',
                  <>
                    {c.name} <small>{c.count}</small>
                  </>,
                  c.url,
                ),
              ),
            )}
          {data &&
            group(
              t('header.suggestionBrands'),
              data.brands.map((b) =>
                option(
                  b.url,
                  'link',
                  <>
                    {b.name} <small>{b.count}</small>
                  </>,
                  b.url,
                ),
              ),
            )}
          {option(viewAll, 'view-all', t('header.viewAllResults'), 'view-all')}
        </div>
      </div>
    </Form>
  );
}
