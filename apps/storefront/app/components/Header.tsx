import { useLocation } from '@remix-run/react';
import { Form, Link, NavLink } from './Localized';
import { isLanguage } from '@shop/i18n';
import { useEffect, useRef, useState } from 'react';
import { accountInitial, accountName, badgeCount } from '../catalogue';
import { Personal, personalText, TOKEN } from '../personal-slots';
import { AMHARIC_LANGUAGE_NAME, languageCookie, localePath } from '../language';
import { useShop } from '../shop-context';
import { CartIcon, HeartIcon, MenuIcon } from './Icons';
import { SearchBox } from './SearchBox';
import { useFocusTrap } from './useFocusTrap';

/** The language selector: localStorage `language` mirrored to a cookie so the server renders it. */
function LanguageSelect() {
  const { lang, t, langCookie } = useShop();
  const location = useLocation();

  // The cookie is the remembered choice; when it is missing (cleared), localStorage restores it, and an
  // English address opens its Amharic twin when that was the choice (docs/decisions/0092).
  useEffect(() => {
    const stored = window.localStorage.getItem('language');
    const cookie = /(?:^|;\s*)language=(en|am)(?:;|$)/.exec(document.cookie)?.[1];
    if (!langCookie && !cookie && isLanguage(stored)) {
      document.cookie = languageCookie(stored);
      if (stored === 'am' && lang !== 'am')
        window.location.replace(localePath('am', location.pathname + location.search + location.hash));
    } else if (cookie && stored !== cookie) {
      window.localStorage.setItem('language', cookie);
    }
    // once per page load
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deliberately once per page load, with the values it was loaded with
  }, []);

  return (
    <Form method="post" action="/language" className="language">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label>
        <span className="sr-only">{t('common.language')}</span>
        <select
          name="lang"
          value={lang}
          onChange={(e) => {
            window.localStorage.setItem('language', e.currentTarget.value);
            e.currentTarget.form?.requestSubmit();
          }}
        >
          <option value="en" lang="en">
            English
          </option>
          <option value="am" lang="am">
            {AMHARIC_LANGUAGE_NAME}
          </option>
        </select>
      </label>
      <noscript>
        <button type="submit">{t('header.changeLanguage')}</button>
      </noscript>
    </Form>
  );
}

/** The account's place in the header: the guest's links, else the account menu (a template holds all three: docs/decisions/0107). */
function UserMenu() {
  const { user, template } = useShop();
  if (import.meta.env.SSR && template)
    return (
      <Personal
        name="user"
        forms={[
          <GuestLinks />,
          <AccountMenu name={TOKEN.name} initial={TOKEN.initial} admin={false} />,
          <AccountMenu name={TOKEN.name} initial={TOKEN.initial} admin />,
        ]}
      />
    );
  if (!user) return <GuestLinks />;
  // an account made by phone sign-in may have no name yet: its number stands in
  const name = accountName(user);
  return <AccountMenu name={name} initial={accountInitial(name)} admin={user.role === 'admin'} />;
}

function GuestLinks() {
  const { t } = useShop();
  const location = useLocation();
  return (
    <div className="guest-links">
      <Link to={`/signin?redirectTo=${encodeURIComponent(location.pathname + location.search)}`}>
        {t('nav.signIn')}
      </Link>
      <Link to="/signup" className="button small">
        {t('nav.signUp')}
      </Link>
    </div>
  );
}

function AccountMenu({ name, initial, admin }: { name: string; initial: string; admin: boolean }) {
  const { t, adminUrl } = useShop();
  return (
    <details className="user-menu">
      <summary aria-label={t('header.accountMenu', { name })}>
        <span aria-hidden="true" className="avatar">
          {initial}
        </span>
        <span className="user-name">{name}</span>
      </summary>
      <ul>
        <li>
          <Link to="/profile">{t('header.profile')}</Link>
        </li>
        {admin && (
          <li>
            <a href={`${adminUrl}/dashboard`}>{t('header.adminPanel')}</a>
          </li>
        )}
        <li>
          <Form method="post" action="/logout">
            <button type="submit" className="link-button">
              {t('header.logout')}
            </button>
          </Form>
        </li>
      </ul>
    </details>
  );
}

/** A count in the header: its label, and its badge when above 0 (a template holds both forms, the count a token). */
function useCount(name: 'wishlist' | 'cart', count: number, labelKey: string) {
  const { t, template } = useShop();
  const testId = `${name}-badge`;
  const className = name === 'cart' ? 'count cart-badge' : 'count';
  const badge = (text: string) => (
    <span className={className} aria-hidden="true" data-testid={testId}>
      {text}
    </span>
  );
  if (import.meta.env.SSR && template)
    return {
      label: personalText(`${name}-label`, t(labelKey, { count: TOKEN.count })),
      badge: <Personal name={`${name}-badge`} forms={[null, badge(TOKEN.count)]} />,
    };
  return { label: t(labelKey, { count }), badge: count > 0 ? badge(badgeCount(count)) : null };
}

export function Header() {
  const { t, cartCount, wishlistCount } = useShop();
  const wishlist = useCount('wishlist', wishlistCount, 'header.wishlistCount');
  const cart = useCount('cart', cartCount, 'header.cartCount');
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const panelRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);
  // the open menu keeps the focus (its links and its toggle); Escape closes it, focus back on the toggle
  useFocusTrap(menuOpen, [panelRef, toggleRef], () => setMenuOpen(false), toggleRef);

  // Phones: one row with the logo, the cart (with its count) and the menu button, and the search field on
  // a second row; the menu holds the pages, the wishlist, the language and the account.
  return (
    <header className="header">
      <a href="#main" className="skip-link">
        {t('header.skipToContent')}
      </a>
      <div className="header-bar">
        <Link to="/" className="logo">
          <span aria-hidden="true" className="logo-mark">
            ✿
          </span>{' '}
          {t('common.shopName')}
        </Link>
        <SearchBox />
        <div id="site-menu" ref={panelRef} className={`header-panel ${menuOpen ? 'open' : ''}`}>
          <nav aria-label={t('header.mainNav')} className="main-nav">
            <NavLink to="/" end>
              {t('nav.home')}
            </NavLink>
            <NavLink to="/products">{t('nav.products')}</NavLink>
          </nav>
          <div className="header-icons">
            <Link to="/wishlist" className="icon-link" aria-label={wishlist.label}>
              <HeartIcon />
              <span className="menu-label" aria-hidden="true">
                {t('ui.wishlist')}
              </span>
              {wishlist.badge}
            </Link>
          </div>
          <LanguageSelect />
          <UserMenu />
        </div>
        <Link to="/cart" className="icon-link cart-link" aria-label={cart.label}>
          <CartIcon />
          {cart.badge}
        </Link>
        <button
          ref={toggleRef}
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          aria-label={menuOpen ? t('ui.closeMenu') : t('header.menu')}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <MenuIcon open={menuOpen} />
        </button>
        {menuOpen && (
          <button
            type="button"
            className="menu-backdrop"
            tabIndex={-1}
            aria-hidden="true"
            onClick={() => setMenuOpen(false)}
          />
        )}
      </div>
    </header>
  );
}
