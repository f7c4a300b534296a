import polyglotI18nProvider from 'ra-i18n-polyglot';
import { resolveBrowserLocale, type I18nProvider, type TranslationMessages } from 'react-admin';
import { loadFonts } from './fonts';
import type { Tree } from './i18n/tree';

let english: Tree | undefined;
let amharic: Tree | undefined;

/**
 * Each language's texts are a chunk of their own, fetched once, the first time the language is shown: an
 * Amharic user never downloads the English ones (docs/decisions/0088-back-office-within-budget.md).
 */
export async function loadEnglish(): Promise<Tree> {
  english ??= (await import('./i18n/english')).english;
  return english;
}

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

const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'am', name: 'አማርኛ' },
];

/** Set up by prepareFirstScreen, before anything is drawn, over the first screen's language. */
let polyglot: I18nProvider | undefined;

function start(locale: 'en' | 'am', messages: Tree): I18nProvider {
  polyglot = polyglotI18nProvider(
    (l) =>
      (l === locale
        ? messages
        : l === 'am'
          ? (amharic ?? loadAmharic())
          : (english ?? loadEnglish())) as TranslationMessages,
    locale,
    LOCALES,
    // an unknown key shows the key itself
    { allowMissing: true },
  );
  return polyglot;
}

/** polyglot once prepared; before that (nothing is drawn then) an empty one, whose texts are their keys. */
const current = (): I18nProvider => polyglot ?? start('en', {});

export const i18nProvider: I18nProvider = {
  translate: (key, options) => current().translate(key, options),
  getLocale: () => current().getLocale(),
  getLocales: () => LOCALES,
  changeLocale: async (locale: string) => {
    localStorage.setItem('language', locale);
    // the new language's faces and texts arrive before its text is drawn
    await Promise.all([
      loadFonts(locale === 'am' ? 'am' : 'en'),
      locale === 'am' ? loadAmharic() : loadEnglish(),
    ]);
    document.documentElement.lang = locale;
    return current().changeLocale(locale);
  },
};

/**
 * Before the first screen: the chosen language's fonts (Ethiopic ones in Amharic, at most FONT_WAIT_MS)
 * and its texts, so a returning Amharic user never sees English first. Should the Amharic chunk not
 * arrive, the screen is drawn in English rather than not at all.
 */
export async function prepareFirstScreen(): Promise<void> {
  const lang = initialLocale();
  const [, texts] = await Promise.all([
    loadFonts(lang),
    (lang === 'am' ? loadAmharic().then((t) => ['am', t] as const) : Promise.reject(new Error('en'))).catch(
      () =>
        loadEnglish().then(
          (t) => ['en', t] as const,
          () => ['en', {}] as const,
        ),
    ),
  ]);
  start(texts[0], texts[1]);
  document.documentElement.lang = texts[0];
}
