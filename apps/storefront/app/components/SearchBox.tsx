import { Form, Link, useFetcher, useNavigate, useSearchParams } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { useShop } from '../shop-context';
import { SearchIcon } from './Icons';
import type { Suggestion } from '../routes/search.suggestions';

export const SUGGESTION_DEBOUNCE_MS = 300;

/**
 * Product search: a GET form to /products (works without JavaScript); with JavaScript, up to 5
 * suggestions appear after 300 ms of typing, with a 'view all results' link. Arrow keys move through
 * them, Enter opens one, Escape closes the list.
 */
export function SearchBox() {
  const { t } = useShop();
  const [params] = useSearchParams();
  const fetcher = useFetcher<{ suggestions: Suggestion[] }>();
  const navigate = useNavigate();
  const [query, setQuery] = useState(params.get('search') ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // A fixed id rather than useId(): the page has one search box, and the server (React) and the browser
  // (preact/compat) would make different ids for the same element.
  const listId = 'site-search';
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const suggestions = fetcher.data?.suggestions ?? [];

  useEffect(() => () => clearTimeout(timer.current), []);
  // follow the catalogue's search when the URL changes (links, back button)
  const urlSearch = params.get('search') ?? '';
  useEffect(() => setQuery(urlSearch), [urlSearch]);

  function onType(value: string) {
    setQuery(value);
    setActive(-1);
    clearTimeout(timer.current);
    if (value.trim().length < 2) {
      setOpen(false);
      return;
    }
    timer.current = setTimeout(() => {
      fetcher.load(`/search/suggestions?q=${encodeURIComponent(value.trim())}`);
      setOpen(true);
    }, SUGGESTION_DEBOUNCE_MS);
  }

  const viewAll = `/products?search=${encodeURIComponent(query.trim())}`;
  const showList = open && query.trim().length >= 2 && fetcher.data !== undefined;

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (!showList) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((i) => Math.min(suggestions.length - 1, i + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(-1, i - 1));
    } else if (e.key === 'Escape') {
      setOpen(false);
    } else if (e.key === 'Enter' && active >= 0 && suggestions[active]) {
      e.preventDefault();
      setOpen(false);
      navigate(`/product/${suggestions[active].id}`);
    }
  }

  return (
    <Form
      method="get"
      action="/products"
      role="search"
      className="search-box"
      onSubmit={() => setOpen(false)}
    >
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
        aria-activedescendant={active >= 0 ? `${listId}-opt-${active}` : undefined}
        onChange={(e) => onType(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      <button type="submit" className="search-submit">
        <SearchIcon />
        <span className="sr-only">{t('header.search')}</span>
      </button>
      <div className="suggestions" hidden={!showList}>
        <ul id={`${listId}-list`} role="listbox" aria-label={t('header.suggestions')}>
          {suggestions.map((s, i) => (
            <li key={s.id} id={`${listId}-opt-${i}`} role="option" aria-selected={i === active}>
              <Link to={`/product/${s.id}`} tabIndex={-1} onClick={() => setOpen(false)}>
                <span>{s.name}</span> <small>{s.brand}</small>{' '}
                <small className="suggestion-price">{s.price}</small>
              </Link>
            </li>
          ))}
        </ul>
        {showList && suggestions.length === 0 && <p className="no-suggestions">{t('catalogue.empty')}</p>}
        <Link to={viewAll} className="view-all" onClick={() => setOpen(false)}>
          {t('header.viewAllResults')}
        </Link>
      </div>
    </Form>
  );
}
