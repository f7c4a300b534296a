import { useRouteLoaderData } from '@remix-run/react';
import { translatorOver, type Dictionary, type Language } from '@shop/i18n';
import type { loader } from './root';
import { TEMPLATE_KEY } from './personal-slots';
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
  t: Translate;
  user: SessionUser | null;
  cartCount: number;
  wishlistCount: number;
  cartQuantities: Record<string, number>;
  wishlistIds: string[];
  publicSettings: PublicSettings;
  adminUrl: string;
  maintenance: boolean;
  /** the current year in the page's calendar (Ethiopian in Amharic), for the footer */
  year: string;
  /** the request carried `Save-Data: on`: small photos, no auto-advancing slider */
  saveData: boolean;
  /** the page is the template of a kept page's personal forms (personal-slots.tsx, docs/decisions/0107) */
  template: boolean;
}

export type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * The dictionary of the page's language (docs/decisions/0104-texts-out-of-the-page.md). Pages do not
 * carry it: the server renders with its own copy (`provideServerTexts`, entry.server.tsx), and the
 * browser fetches it once per language from the root loader's `texts` address (immutable, versioned)
 * before it hydrates the page (entry.client.tsx), and again after a change of language (root
 * `clientLoader`). The storefront's JavaScript holds no dictionary at all.
 */
let kept: { lang: Language; dictionary: Dictionary } | null = null;
let serverTexts: ((lang: Language) => Dictionary) | undefined;

/** On the server: where the texts of a page come from (entry.server.tsx; never in the browser's bundle). */
export function provideServerTexts(source: (lang: Language) => Dictionary): void {
  serverTexts = source;
}

/** Remembers the page's dictionary in the browser (never on the server: requests share its modules). */
export function keepDictionary(lang: Language, dictionary: Dictionary): void {
  if (typeof document !== 'undefined') kept = { lang, dictionary };
}

/** The dictionary of `lang`: the server's, else the one kept in the browser. */
export function dictionaryOf(lang: Language): Dictionary | undefined {
  if (typeof document === 'undefined') return serverTexts?.(lang);
  return kept?.lang === lang ? kept.dictionary : undefined;
}

/** In the browser, the dictionary of a language (`address`: the root loader's versioned `texts`). */
export async function fetchDictionary(lang: Language, address = `/i18n/${lang}`): Promise<Dictionary> {
  if (kept?.lang === lang) return kept.dictionary;
  const res = await fetch(address);
  if (!res.ok) throw new Response('The texts of the page could not be loaded', { status: res.status });
  const dictionary = (await res.json()) as Dictionary;
  keepDictionary(lang, dictionary);
  return dictionary;
}

type RootData = { lang?: Language; maintenance?: boolean };

function translatorFrom(data: RootData | undefined): Translate {
  const dictionary = dictionaryOf(data?.lang ?? 'en');
  return translatorOver(dictionary ?? {});
}

/** What every page knows: language and translator, the shopper, their cart and wishlist counts, settings. */
export function useShop(): ShopContext {
  const data = useRouteLoaderData<typeof loader>('root');
  const lang: Language = data?.lang ?? 'en';
  return {
    lang,
    langCookie: data?.langCookie ?? false,
    backPath: data?.backPath ?? null,
    t: translatorFrom(data as RootData | undefined),
    user: data?.user ?? null,
    cartCount: data?.cartCount ?? 0,
    wishlistCount: data?.wishlistCount ?? 0,
    cartQuantities: data?.cartQuantities ?? {},
    wishlistIds: data?.wishlistIds ?? [],
    publicSettings: data?.publicSettings ?? DEFAULT_PUBLIC_SETTINGS,
    adminUrl: data?.adminUrl ?? '',
    maintenance: data?.maintenance ?? false,
    year: data?.year ?? '',
    saveData: data?.saveData ?? false,
    template: (data as Record<string, unknown> | undefined)?.[TEMPLATE_KEY] === 1,
  };
}

type Matches = readonly { id: string; data?: unknown }[];
const rootOf = (matches: Matches) => matches.find((m) => m.id === 'root')?.data as RootData | undefined;

/** The language of the page, for a route's `meta` function (from the root loader's data). */
export function langOf(matches: Matches): Language {
  return rootOf(matches)?.lang ?? 'en';
}

/** The page's translator, for a route's `meta` function. */
export function translatorOf(matches: Matches): Translate {
  return translatorFrom(rootOf(matches));
}

/** A route's title entry ('<page> · <shop>', the page's name translated from `key` unless given as `text`); the maintenance title while the shop is closed. */
export function titleMeta(matches: Matches, key: string, text?: string): { title: string } {
  const t = translatorOf(matches);
  return rootOf(matches)?.maintenance
    ? { title: t('errors.maintenanceTitle') }
    : { title: `${text ?? t(key)} · ${t('common.shopName')}` };
}
