/** Dates in the active language; Amharic uses the Ethiopian calendar (one helper, shared with the back office). */
export { formatDate, formatDateTime, formatGregorianDate } from '@shop/shared';
