import { isLanguage, translate, type Language } from '@shop/i18n';
import type { SiteSettings as Settings } from '../settings/settings.service';

/** The words of one language: `tr('am')('mail.signature', { shop })`. */
export const tr = (lang: Language) => (key: string, params?: Record<string, string | number>) =>
  translate(lang, key, params);

/** The language a message is written in: the one chosen (the account's, the order's), else the shop's, else English. */
export function messageLanguage(chosen: unknown, settings: Pick<Settings, 'language'>): Language {
  if (isLanguage(chosen)) return chosen;
  return isLanguage(settings.language) ? settings.language : 'en';
}

/**
 * The shop's name as a message in `lang` signs it: the name the owner set in the settings, except
 * that the default English name is written in Amharic in an Amharic message, as the storefront and
 * the back office show it (docs/product.md, §3 "Settings").
 */
export function shopName(settings: Pick<Settings, 'siteName'>, lang: Language): string {
  const english = translate('en', 'common.shopName');
  return lang !== 'en' && settings.siteName === english
    ? translate(lang, 'common.shopName')
    : settings.siteName;
}
