import { dictionaries, reactAdminAm } from '@shop/i18n';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { resolveBrowserLocale, type TranslationMessages } from 'react-admin';
import { loadFonts } from './fonts';

/** Polyglot interpolates %{name}; the shared dictionaries use {name}. */
function toPolyglot<T>(node: T): T {
  if (typeof node === 'string') return node.replace(/\{(\w+)\}/g, '%{$1}') as T;
  return Object.fromEntries(Object.entries(node as object).map(([k, v]) => [k, toPolyglot(v)])) as T;
}

type Tree = { [key: string]: string | Tree };

/** `over` laid on `base`, key by key: a missing Amharic text falls back to the English one (docs/product.md §1). */
function withFallback(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = base[k];
    out[k] = typeof v === 'object' && typeof b === 'object' ? withFallback(b, v) : v;
  }
  return out;
}

const en = { ...englishMessages, shop: toPolyglot(dictionaries.en) } as unknown as Tree;
export const messages = {
  en,
  am: withFallback(en, { ...reactAdminAm, shop: toPolyglot(dictionaries.am) } as unknown as Tree),
};

/** The language chosen last (shared key `language`, as the storefront), else the browser's, else English. */
export function initialLocale(): 'en' | 'am' {
  const saved = localStorage.getItem('language');
  if (saved === 'am' || saved === 'en') return saved;
  return resolveBrowserLocale('en') === 'am' ? 'am' : 'en';
}

const polyglot = polyglotI18nProvider(
  (locale) => (locale === 'am' ? messages.am : messages.en) as TranslationMessages,
  initialLocale(),
  [
    { locale: 'en', name: 'English' },
    { locale: 'am', name: 'አማርኛ' },
  ],
  // an unknown key shows the key itself
  { allowMissing: true },
);

export const i18nProvider = {
  ...polyglot,
  changeLocale: async (locale: string) => {
    localStorage.setItem('language', locale);
    // the new language's faces arrive before its text is drawn
    await loadFonts(locale === 'am' ? 'am' : 'en');
    document.documentElement.lang = locale;
    return polyglot.changeLocale(locale);
  },
};
document.documentElement.lang = polyglot.getLocale();
