/** The shop's clock: dates are counted in Addis Ababa whatever the machine's zone. */
export const SHOP_TIME_ZONE = 'Africa/Addis_Ababa';

/**
 * Amharic uses the Ethiopian calendar, English is written out, day first
 * (docs/decisions/0038-amharic-without-english.md).
 */
function localeOf(lang: string): string {
  return lang === 'am' ? 'am-ET-u-ca-ethiopic' : 'en-GB';
}

function parse(value: string | number | Date): Date | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A date in the active language, e.g. `23 November 2026` or `ኅዳር 14 2019 ዓ/ም`; '' for a broken date. */
export function formatDate(value: string | number | Date, lang: string): string {
  const date = parse(value);
  if (!date) return '';
  return new Intl.DateTimeFormat(localeOf(lang), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: SHOP_TIME_ZONE,
  }).format(date);
}

/** A date with its time (24-hour clock in English, the Amharic day periods in Amharic); '' for a broken date. */
export function formatDateTime(value: string | number | Date, lang: string): string {
  const date = parse(value);
  if (!date) return '';
  return new Intl.DateTimeFormat(localeOf(lang), {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: SHOP_TIME_ZONE,
  }).format(date);
}

/**
 * The Gregorian date beside an Amharic (Ethiopian-calendar) date: in Amharic it keeps the Gregorian
 * calendar but Amharic month names and the era mark `እ.ኤ.አ.`, e.g. `23 ኖቬምበር 2026 እ.ኤ.አ.`, so an Amharic
 * page shows no English; in English it is `formatDate`. '' for a broken date.
 */
export function formatGregorianDate(value: string | number | Date, lang: string): string {
  const date = parse(value);
  if (!date) return '';
  if (lang !== 'am') return formatDate(date, lang);
  const text = new Intl.DateTimeFormat('am-ET-u-ca-gregory', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: SHOP_TIME_ZONE,
  }).format(date);
  return `${text} እ.ኤ.አ.`;
}

/** The current year in the language's calendar (Ethiopian in Amharic, 7–8 years behind), e.g. for a copyright line. */
export function calendarYear(value: string | number | Date, lang: string): string {
  const date = parse(value);
  if (!date) return '';
  const parts = new Intl.DateTimeFormat(localeOf(lang), {
    year: 'numeric',
    timeZone: SHOP_TIME_ZONE,
  }).formatToParts(date);
  return parts.find((p) => p.type === 'year')?.value ?? String(date.getUTCFullYear());
}
