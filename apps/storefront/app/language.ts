import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@shop/i18n';

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
