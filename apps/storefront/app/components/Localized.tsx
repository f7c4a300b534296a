import {
  Form as RemixForm,
  Link as RemixLink,
  NavLink as RemixNavLink,
  type FormProps,
  type LinkProps,
  type NavLinkProps,
} from '@remix-run/react';
import { forwardRef, useCallback } from 'react';
import { localePath } from '../language';
import { useShop } from '../shop-context';

/**
 * Links and forms that keep the page's language (docs/decisions/0092-language-in-the-address.md): an
 * absolute path (`/cart`) on an Amharic page becomes `/am/cart`. Objects and relative paths are left as
 * they are.
 */
export function useLocalePath(): (path: string) => string {
  const { lang } = useShop();
  return useCallback((path: string) => localize(lang, path), [lang]);
}

function localize(lang: string, path: string): string {
  return path.startsWith('/') && !path.startsWith('//') ? localePath(lang, path) : path;
}

function localizeTo<T>(lang: string, to: T): T {
  return (typeof to === 'string' ? localize(lang, to) : to) as T;
}

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ to, ...rest }, ref) {
  const { lang } = useShop();
  return <RemixLink ref={ref} to={localizeTo(lang, to)} {...rest} />;
});

export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink({ to, ...rest }, ref) {
  const { lang } = useShop();
  return <RemixNavLink ref={ref} to={localizeTo(lang, to)} {...rest} />;
});

export const Form = forwardRef<HTMLFormElement, FormProps>(function Form({ action, ...rest }, ref) {
  const { lang } = useShop();
  return <RemixForm ref={ref} action={action === undefined ? action : localize(lang, action)} {...rest} />;
});
