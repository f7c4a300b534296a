import { dictionaries } from '@shop/i18n';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';

/** react-admin's own messages in Amharic for the parts the back office shows; the rest falls back to English. */
const amharicRa = {
  ra: {
    ...englishMessages.ra,
    page: { ...englishMessages.ra.page, dashboard: 'ዳሽቦርድ', error: 'የሆነ ችግር ተፈጥሯል', loading: 'በመጫን ላይ', not_found: 'አልተገኘም' },
    action: { ...englishMessages.ra.action, refresh: 'አድስ', close: 'ዝጋ' },
    auth: { ...englishMessages.ra.auth, logout: 'ውጣ', user_menu: 'መገለጫ' },
  },
};

/** Polyglot interpolates %{name}; the shared dictionaries use {name}. */
function toPolyglot<T>(node: T): T {
  if (typeof node === 'string') return node.replace(/\{(\w+)\}/g, '%{$1}') as T;
  return Object.fromEntries(Object.entries(node as object).map(([k, v]) => [k, toPolyglot(v)])) as T;
}

export const messages = {
  en: { ...englishMessages, shop: toPolyglot(dictionaries.en) },
  am: { ...amharicRa, shop: toPolyglot(dictionaries.am) },
};

export const i18nProvider = polyglotI18nProvider(
  (locale) => (locale === 'am' ? messages.am : messages.en),
  (localStorage.getItem('language') === 'am' ? 'am' : 'en'),
  [
    { locale: 'en', name: 'English' },
    { locale: 'am', name: 'አማርኛ' },
  ],
  { allowMissing: true },
);
