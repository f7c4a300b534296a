/** The shop's clock: dates are counted in Addis Ababa whatever the machine's zone. */
export const SHOP_TIME_ZONE = 'Africa/Addis_Ababa';

/**
 * Amharic uses the Ethiopian calendar, English is written out, day first
 * (docs/decisions/0038-amharic-without-english.md).
 */
function localeOf(lang: string): string {
  return lang === 'am' ? 'am-ET-u-ca-ethiopic' : 'en-GB';
}

/**
 * One formatter per locale and options, kept: building an `Intl.DateTimeFormat` costs far more than
 * formatting with it (a product card with a sale's end date builds one per card per page otherwise).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= 200) formatters.clear(); // zones come from settings: a handful, but never unbounded
    formatters.set(key, format);
  }
  return format;
}

function parse(value: string | number | Date): Date | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A date in the active language, e.g. `23 November 2026` or `ኅዳር 14 2019 ዓ/ም`; '' for a broken date. */
export function formatDate(value: string | number | Date, lang: string): string {
  const date = parse(value);
  if (!date) return '';
  return dateFormat(localeOf(lang), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: SHOP_TIME_ZONE,
  }).format(date);
}

/**
 * A date with its time in Addis Ababa: `formatShopDateTime` on the shop's default zone (English: a
 * 24-hour time; Amharic: the Ethiopian calendar and Ethiopian hours, as the back office writes them).
 */
export function formatDateTime(value: string | number | Date, lang: string): string {
  return formatShopDateTime(value, lang);
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
  const text = dateFormat('am-ET-u-ca-gregory', {
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
  const parts = dateFormat(localeOf(lang), {
    year: 'numeric',
    timeZone: SHOP_TIME_ZONE,
  }).formatToParts(date);
  return parts.find((p) => p.type === 'year')?.value ?? String(date.getUTCFullYear());
}

/** A zone Intl knows, else the shop's (a stored zone is validated, but an old or hand-edited one must not break a page). */
function knownZone(timeZone: string | undefined): string {
  if (!timeZone) return SHOP_TIME_ZONE;
  try {
    dateFormat('en-GB', { timeZone });
    return timeZone;
  } catch {
    return SHOP_TIME_ZONE;
  }
}

/** The wall-clock parts of an instant in a zone (24-hour), e.g. for CSV cells and Ethiopian hours. */
export function zonedParts(
  value: string | number | Date,
  timeZone?: string,
): { year: string; month: string; day: string; hour: number; minute: string } | undefined {
  const date = parse(value);
  if (!date) return undefined;
  const parts = dateFormat('en-GB', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: knownZone(timeZone),
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: Number(part('hour')) % 24,
    minute: part('minute'),
  };
}

/**
 * The Ethiopian hour convention (docs/decisions/0081-replies-shop-clock-reports.md): the day's hours
 * are counted from sunrise (06:00 is 12 o'clock, 07:00 is 1 o'clock) in four periods: ከሌሊቱ (night,
 * 00–06), ከጠዋቱ (morning, 06–12), ከሰዓት በኋላ (afternoon, 12–18), ከምሽቱ (evening, 18–24). E.g. 09:30 is
 * `ከጠዋቱ 3:30`, 21:30 is `ከምሽቱ 3:30`.
 */
export function ethiopianTime(hour24: number, minute: string | number): string {
  const hour = (((hour24 + 6) % 12) + 12) % 12 || 12;
  const period = hour24 < 6 ? 'ከሌሊቱ' : hour24 < 12 ? 'ከጠዋቱ' : hour24 < 18 ? 'ከሰዓት በኋላ' : 'ከምሽቱ';
  return `${period} ${hour}:${String(minute).padStart(2, '0')}`;
}

/** A date in the shop's chosen time zone (settings `timezone`; Addis Ababa when none). '' for a broken date. */
export function formatShopDate(value: string | number | Date, lang: string, timeZone?: string): string {
  const date = parse(value);
  if (!date) return '';
  return dateFormat(localeOf(lang), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: knownZone(timeZone),
  }).format(date);
}

/**
 * A date and time on the shop clock (settings `timezone`): in English day first with a 24-hour time
 * (`23 Nov 2026, 01:30`); in Amharic the Ethiopian calendar and Ethiopian hours (`ኅዳር 14 2019፣ ከሌሊቱ
 * 7:30`). '' for a broken date.
 */
export function formatShopDateTime(value: string | number | Date, lang: string, timeZone?: string): string {
  // the same moment is written on many cards of a page (a sale's end): each is formatted once
  const key = `${lang}|${timeZone ?? ''}|${value instanceof Date ? value.getTime() : value}`;
  let text = written.get(key);
  if (text === undefined) {
    if (written.size >= MAX_WRITTEN) written.clear();
    written.set(key, (text = writeShopDateTime(value, lang, timeZone)));
  }
  return text;
}

/** Moments written by formatShopDateTime, by language, zone and value (a bounded few). */
const written = new Map<string, string>();
const MAX_WRITTEN = 2_000;

function writeShopDateTime(value: string | number | Date, lang: string, timeZone?: string): string {
  const date = parse(value);
  if (!date) return '';
  const zone = knownZone(timeZone);
  if (lang !== 'am') {
    return dateFormat('en-GB', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: zone,
    }).format(date);
  }
  const day = dateFormat(localeOf('am'), {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: zone,
  }).format(date);
  const parts = zonedParts(date, zone)!;
  return `${day}፣ ${ethiopianTime(parts.hour, parts.minute)}`;
}
