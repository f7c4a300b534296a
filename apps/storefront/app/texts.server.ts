import { createHash } from 'node:crypto';
import { storefrontDictionary, type Dictionary, type Language } from '@shop/i18n';

/**
 * The storefront's texts of one language (docs/decisions/0104-texts-out-of-the-page.md): the server
 * renders with them, and the browser fetches them once from `/i18n/<lang>?v=<version>` (immutable,
 * the version is a digest of the texts) instead of receiving them inside every page.
 */
const texts = new Map<Language, { dictionary: Dictionary; version: string }>();

export function textsOf(lang: Language): { dictionary: Dictionary; version: string } {
  let kept = texts.get(lang);
  if (!kept) {
    const dictionary = storefrontDictionary(lang);
    const version = createHash('sha256').update(JSON.stringify(dictionary)).digest('hex').slice(0, 12);
    kept = { dictionary, version };
    texts.set(lang, kept);
  }
  return kept;
}

/** The address the browser fetches a language's texts from (kept a year: a new version is a new address). */
export function textsUrl(lang: Language): string {
  return `/i18n/${lang}?v=${textsOf(lang).version}`;
}
