import { formatDate, formatGregorianDate } from '@shop/shared';

/** Dates in the active language; Amharic uses the Ethiopian calendar (one helper, shared with the back office). */
export { formatDate, formatDateTime, formatGregorianDate } from '@shop/shared';

/** A date as DateText shows it: in the page's language, and in Amharic the Gregorian date beside it. */
export interface DateTexts {
  primary: string;
  /** '' in English */
  gregorian: string;
}

/**
 * Formatted by the server for the data a page hydrates with (the product page's reviews): the first Intl
 * date format in a browser costs tens of milliseconds (ICU's data), on a phone several times that.
 */
export function dateTexts(iso: string, lang: string): DateTexts {
  return { primary: formatDate(iso, lang), gregorian: lang === 'am' ? formatGregorianDate(iso, 'am') : '' };
}
