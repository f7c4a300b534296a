import polyglotI18nProvider from 'ra-i18n-polyglot';
import { resolveBrowserLocale, type TranslationMessages } from 'react-admin';
import { loadFonts } from './fonts';
import { english } from './i18n/english';
import type { Tree } from './i18n/tree';

let amharic: Tree | undefined;

/** The Amharic texts: their own chunk, fetched once, the first time Amharic is shown (docs/quality.md). */
export async function loadAmharic(): Promise<Tree> {
  amharic ??= (await import('./i18n/amharic')).amharic;
  return amharic;
}

/** The language chosen last (shared key `language`, as the storefront), else the browser's, else English. */
export function initialLocale(): 'en' | 'am' {
  const saved = localStorage.getItem('language');
  if (saved === 'am' || saved === 'en') return saved;
  return resolveBrowserLocale('en') === 'am' ? 'am' : 'en';
}

// English is in the first bundle; Amharic arrives with prepareFirstScreen (a returning Amharic user) or
// changeLocale, each before any Amharic text is drawn
const polyglot = polyglotI18nProvider(
  (locale) => (locale === 'am' ? (amharic ?? loadAmharic()) : english) as TranslationMessages,
  'en',
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
    // the new language's faces and texts arrive before its text is drawn
    await Promise.all([
      loadFonts(locale === 'am' ? 'am' : 'en'),
      locale === 'am' ? loadAmharic() : undefined,
    ]);
    document.documentElement.lang = locale;
    return polyglot.changeLocale(locale);
  },
};
document.documentElement.lang = polyglot.getLocale();

/**
 * Before the first screen: the chosen language's fonts (Ethiopic ones in Amharic, at most FONT_WAIT_MS)
 * and, in Amharic, its texts, so a returning Amharic user never sees English first. Should the Amharic
 * chunk not arrive, the screen is drawn in English rather than not at all.
 */
export async function prepareFirstScreen(): Promise<void> {
  const lang = initialLocale();
  await Promise.all([
    loadFonts(lang),
    lang === 'am' ? polyglot.changeLocale('am').catch(() => undefined) : undefined,
  ]);
  document.documentElement.lang = polyglot.getLocale();
}
