import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@shop/i18n';
import { languageOfPath, localePath, withoutLanguage } from '@shop/shared';

export { languageOfPath, localePath, withoutLanguage };

/**
 * The page's language comes from its address: `/am/…` is Amharic, anything else English
 * (docs/decisions/0092-language-in-the-address.md). The cookie only remembers the visitor's choice.
 */
export function pageLanguage(request: Request): Language {
  return languageOfPath(new URL(request.url).pathname);
}

/** The same page in the other language: the address of `path` (with its query) in `lang`. */
export function twinPath(lang: Language, path: string): string {
  return localePath(lang, path);
}

/** Reads the `language` cookie (mirrored from localStorage for server rendering); default en. */
export function languageFromCookie(header: string | null): Language {
  const match = /(?:^|;\s*)language=([^;]*)/.exec(header ?? '');
  const value = match ? decodeURIComponent(match[1]) : undefined;
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

export function languageCookie(lang: Language): string {
  return `language=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/**
 * The language switch's name of Amharic, the one Ethiopic word on English pages: they get its glyphs
 * from a tiny font cut for it (app/fonts/english-pages.css, made by scripts/fonts.mjs),
 * not the whole Ethiopic font. Changing it means running that script again (a test checks).
 */
export const AMHARIC_LANGUAGE_NAME = 'አማርኛ';

/** Query parameters that never belong to a page's canonical address (campaigns, one visitor's messages). */
const NOT_CANONICAL =
  /^(utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|igshid|mc_cid|mc_eid|_ga|_gl|_data|index|added|cartError|available|inCart|reviewError|review|redirectTo|view)$/i;

export interface LanguageAddresses {
  /** this page's own address in its language (rel=canonical, og:url) */
  canonical: string;
  /** the page in each language, and x-default (English) */
  alternates: { hreflang: 'en' | 'am' | 'x-default'; href: string }[];
}

/** The canonical address of a page and its twins in both languages (hreflang), absolute on `origin`. */
export function languageAddresses(origin: string, pathname: string, search: string): LanguageAddresses {
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const [name, value] of params) if (!NOT_CANONICAL.test(name)) kept.append(name, value);
  const query = kept.size ? `?${kept}` : '';
  const base = origin.replace(/\/+$/, '');
  const en = `${base}${localePath('en', pathname)}${query}`;
  const am = `${base}${localePath('am', pathname)}${query}`;
  return {
    canonical: languageOfPath(pathname) === 'am' ? am : en,
    alternates: [
      { hreflang: 'en', href: en },
      { hreflang: 'am', href: am },
      { hreflang: 'x-default', href: en },
    ],
  };
}
