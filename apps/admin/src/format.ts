import { formatMoney, formatShopDate, formatShopDateTime, type Currency } from '@shop/shared';
import { useLocaleState } from 'react-admin';
import { useShopTimeZone } from './shopClock';

export type Lang = 'en' | 'am';

/** A date with its time on the shop clock: 24-hour in English, Ethiopian hours in Amharic (libs/shared). */
export function shopDateTime(
  value: string | number | Date | null | undefined,
  lang: Lang,
  zone: string,
): string {
  return value ? formatShopDateTime(value, lang, zone) : '';
}

/** A date on the shop clock, on the Ethiopian calendar in Amharic. */
export function shopDate(value: string | number | Date | null | undefined, lang: Lang, zone: string): string {
  return value ? formatShopDate(value, lang, zone) : '';
}

/**
 * The one way the back office writes money and dates in the chosen language: `ETB 1,250.00` /
 * `1,250.00 ብር` (libs/shared formatMoney) and dates on the shop clock (the settings' time zone,
 * docs/decisions/0081-replies-shop-clock-reports.md): the Ethiopian calendar and Ethiopian hours in
 * Amharic, as the storefront.
 */
export function useFormat() {
  const [locale] = useLocaleState();
  const zone = useShopTimeZone();
  const lang: Lang = locale === 'am' ? 'am' : 'en';
  return {
    lang,
    zone,
    money: (amount: number | undefined, currency: Currency = 'ETB') =>
      formatMoney(Number(amount ?? 0), currency, lang),
    date: (value?: string | number | Date | null) => shopDate(value, lang, zone),
    dateTime: (value?: string | number | Date | null) => shopDateTime(value, lang, zone),
  };
}
