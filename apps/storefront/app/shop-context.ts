import { useRouteLoaderData } from '@remix-run/react';
import { createTranslator, type Language } from '@shop/i18n';
import type { loader } from './root';
import { DEFAULT_PUBLIC_SETTINGS, type PublicSettings } from './shop-data';
import type { SessionUser } from './session.server';

// What every page reads from the root loader. Kept out of root.tsx so that components never import
// the root route (which imports the header and footer components: an import cycle); the loader is
// referenced as a type only.

export interface ShopContext {
  /** the shop page the shopper came from, if any */
  backPath: string | null;
  lang: Language;
  /** whether the request carried a valid language cookie */
  langCookie: boolean;
  t: ReturnType<typeof createTranslator>;
  user: SessionUser | null;
  cartCount: number;
  wishlistCount: number;
  cartQuantities: Record<string, number>;
  wishlistIds: string[];
  publicSettings: PublicSettings;
  adminUrl: string;
  maintenance: boolean;
}

/** What every page knows: language and translator, the shopper, their cart and wishlist counts, settings. */
export function useShop(): ShopContext {
  const data = useRouteLoaderData<typeof loader>('root');
  const lang: Language = data?.lang ?? 'en';
  return {
    lang,
    langCookie: data?.langCookie ?? false,
    backPath: data?.backPath ?? null,
    t: createTranslator(lang),
    user: data?.user ?? null,
    cartCount: data?.cartCount ?? 0,
    wishlistCount: data?.wishlistCount ?? 0,
    cartQuantities: data?.cartQuantities ?? {},
    wishlistIds: data?.wishlistIds ?? [],
    publicSettings: data?.publicSettings ?? DEFAULT_PUBLIC_SETTINGS,
    adminUrl: data?.adminUrl ?? '',
    maintenance: data?.maintenance ?? false,
  };
}

/** The language of the page, for a route's `meta` function (from the root loader's data). */
export function langOf(matches: readonly { id: string; data?: unknown }[]): Language {
  const root = matches.find((m) => m.id === 'root')?.data as { lang?: Language } | undefined;
  return root?.lang ?? 'en';
}

/** A route's title entry; the maintenance title while the shop is closed. */
export function titleMeta(
  matches: readonly { id: string; data?: unknown }[],
  key: string,
): { title: string } {
  const root = matches.find((m) => m.id === 'root')?.data as { maintenance?: boolean } | undefined;
  const lang = langOf(matches);
  return root?.maintenance
    ? { title: createTranslator(lang)('errors.maintenanceTitle') }
    : pageTitle(lang, key);
}

/** Page titles: '<page> · <shop>' from a route's `meta`, the shop's name otherwise. */
export function pageTitle(lang: Language | undefined, key: string): { title: string } {
  const t = createTranslator(lang ?? 'en');
  return { title: `${t(key)} · ${t('common.shopName')}` };
}
