import { formatDate, formatDateTime, formatMoney, type Currency } from '@shop/shared';
import { useLocaleState } from 'react-admin';

export type Lang = 'en' | 'am';

/**
 * The one way the back office writes money and dates in the chosen language: `ETB 1,250.00` /
 * `1,250.00 ብር` (libs/shared formatMoney) and dates in Addis Ababa time, on the Ethiopian calendar
 * in Amharic (libs/shared, as the storefront).
 */
export function useFormat() {
  const [locale] = useLocaleState();
  const lang: Lang = locale === 'am' ? 'am' : 'en';
  return {
    lang,
    money: (amount: number | undefined, currency: Currency = 'ETB') =>
      formatMoney(Number(amount ?? 0), currency, lang),
    date: (value?: string | number | Date | null) => (value ? formatDate(value, lang) : ''),
    dateTime: (value?: string | number | Date | null) => (value ? formatDateTime(value, lang) : ''),
  };
}
