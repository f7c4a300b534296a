/** Dates in the active language; Amharic uses the Ethiopian calendar (DECISIONS.md allows it). */
export function formatDate(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = lang === 'am' ? 'am-ET-u-ca-ethiopic' : 'en-GB';
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'Africa/Addis_Ababa',
  }).format(date);
}
