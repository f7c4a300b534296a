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
