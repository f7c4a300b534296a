import { LOW_STOCK_THRESHOLD } from '@shop/shared';

/** The list with the item at `from` moved to `to` (out-of-range moves change nothing). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= items.length || to < 0 || to >= items.length || from === to) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** A list field (ingredients, benefits) edited as text, one entry a line. */
export const linesToText = (value: unknown): string => (Array.isArray(value) ? value.join('\n') : '');
export const textToLines = (text: unknown): string[] => (typeof text === 'string' ? text.split('\n') : []);
/** What is saved: trimmed lines, empty ones dropped. */
export const cleanLines = (value: unknown): string[] =>
  (Array.isArray(value) ? value : textToLines(value)).map((l) => String(l).trim()).filter(Boolean);

export type StockState = 'out' | 'low' | 'in';

/** out: none left; low: 1 to the low-stock threshold (as the API's stockState filter and dashboard); in: more. */
export function stockState(stock: number | undefined | null): StockState {
  const n = Number(stock ?? 0);
  if (n <= 0) return 'out';
  if (n <= LOW_STOCK_THRESHOLD) return 'low';
  return 'in';
}
