/**
 * Short human order numbers, sequential per shop: `AN-10001`, `AN-10002`... The number is taken from a
 * counter document with one atomic `$inc`, so concurrent orders never share one.
 */
export const ORDER_NUMBER_PREFIX = 'AN';
/** The first order of a shop gets this number; the counter starts one below. */
export const ORDER_NUMBER_START = 10001;
export const ORDER_NUMBER_PATTERN = /^[A-Z]{2}-\d{5,}$/;

export function formatOrderNumber(sequence: number, prefix: string = ORDER_NUMBER_PREFIX): string {
  return `${prefix}-${sequence}`;
}

/** A search box value that looks like an order number (`an-10042`, `#AN-10042`, `10042`), normalised. */
export function parseOrderNumber(input: string, prefix: string = ORDER_NUMBER_PREFIX): string | undefined {
  const value = input.trim().replace(/^#/, '').toUpperCase();
  if (ORDER_NUMBER_PATTERN.test(value)) return value;
  if (/^\d{5,}$/.test(value)) return `${prefix}-${value}`;
  return undefined;
}
