import { zonedParts } from '@shop/shared';

/**
 * CSV for spreadsheets (docs/decisions/0081-replies-shop-clock-reports.md): UTF-8 with a byte-order
 * mark (Excel then reads Amharic as Amharic), CRLF rows, every cell quoted when it needs to be, and a
 * cell that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return)
 * prefixed with `'` so that it shows as text.
 */
export const CSV_BOM = '\uFEFF';

export type CsvValue = string | number | boolean | null | undefined;

/** One cell, neutralised and quoted. Numbers are written as they are (a negative amount stays a number). */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  if (typeof value !== 'number' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: BOM, header row, data rows. */
export function toCsv(header: readonly string[], rows: readonly CsvValue[][]): string {
  return CSV_BOM + [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Birr with 2 decimals, as text a spreadsheet reads as a number (`1250.00`). */
export function birrCell(birr: number | undefined): string {
  return (Math.round(Number(birr ?? 0) * 100) / 100).toFixed(2);
}

/** An instant as `YYYY-MM-DD HH:mm` on the shop clock (the settings' time zone); '' when absent. */
export function shopTimeCell(value: Date | string | undefined | null, timeZone: string): string {
  if (!value) return '';
  const p = zonedParts(value, timeZone);
  return p ? `${p.year}-${p.month}-${p.day} ${String(p.hour).padStart(2, '0')}:${p.minute}` : '';
}

/** `orders-2026-11-27.csv`: the shop's day of the export. */
export function csvFileName(resource: string, now: Date, timeZone: string): string {
  const p = zonedParts(now, timeZone);
  return `${resource}-${p ? `${p.year}-${p.month}-${p.day}` : 'export'}.csv`;
}
