/** Money is an integer count of santim (1/100 ETB) until it is shown. */
export type Santim = number;

export const SANTIM_PER_BIRR = 100;

/** Converts an ETB amount (a number with at most two decimals) to santim, rounding half away from zero. */
export function toSantim(etb: number): Santim {
  if (!Number.isFinite(etb)) throw new RangeError(`Not a finite amount: ${etb}`);
  return Math.sign(etb) * Math.round(Math.abs(etb) * SANTIM_PER_BIRR);
}

/** Converts santim to an ETB number with two decimals, as the API exposes money. */
export function toBirr(santim: Santim): number {
  return Math.round(santim) / SANTIM_PER_BIRR;
}

/** An amount in santim as ETB text with two decimals (`1250.50`), as payment providers take it. */
export function toBirrText(santim: Santim): string {
  return toBirr(santim).toFixed(2);
}

/** Percentage of an amount in santim, rounded to the nearest santim (half up). */
export function percentOf(santim: Santim, percent: number): Santim {
  return Math.round((santim * percent) / 100);
}

export const CURRENCIES = ['ETB', 'USD', 'EUR', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

/**
 * For the rare amount with more than two decimals (or not finite): made on first use, once. Building the
 * first Intl object of a page costs a browser 40-50 ms (it loads ICU's data), on a phone several times
 * that: the storefront's pages format their prices without it.
 */
let twoDecimals: Intl.NumberFormat | undefined;

/**
 * `1,250.50`: what `Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })`
 * writes, computed directly for the amounts money is (at most two decimals, below 2^53 santim).
 */
function twoDecimalDigits(amount: number): string {
  const santim = Math.round(Math.abs(amount) * SANTIM_PER_BIRR);
  if (!Number.isSafeInteger(santim) || Math.abs(Math.abs(amount) * SANTIM_PER_BIRR - santim) > 1e-6) {
    twoDecimals ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return twoDecimals.format(amount);
  }
  const whole = String(Math.floor(santim / SANTIM_PER_BIRR)).replace(/\B(?=(\d{3})+$)/g, ',');
  const cents = String(santim % SANTIM_PER_BIRR).padStart(2, '0');
  // Intl writes the sign of every negative amount, -0 and amounts that round to 0 included
  const negative = amount < 0 || Object.is(amount, -0);
  return `${negative ? '-' : ''}${whole}.${cents}`;
}

/** Formats an amount for display, e.g. `ETB 1,250.00` or `1,250.00 ብር` in Amharic. */
export function formatMoney(amount: number, currency: Currency = 'ETB', locale: 'en' | 'am' = 'en'): string {
  const digits = twoDecimalDigits(amount);
  if (currency === 'ETB') return locale === 'am' ? `${digits} ብር` : `ETB ${digits}`;
  const symbol = { USD: '$', EUR: '€', GBP: '£' }[currency];
  return `${symbol}${digits}`;
}

/**
 * Reads a client-sent ETB amount exactly once: the santim it stands for, or null when it is not a
 * finite number with at most two decimals, whatever its notation (`1e-7`, `5e-324` and `1e21` are
 * looked at as the decimals they denote, not as text), or when its santim are not a safe integer.
 */
export function parseAmount(value: unknown): Santim | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  // the shortest decimal that reads back as this double, split into digits and exponent
  const match = /^-?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) return null;
  const decimals = (match[2]?.length ?? 0) - Number(match[3] ?? 0);
  if (decimals > 2) return null;
  const santim = Math.round(value * SANTIM_PER_BIRR);
  return Number.isSafeInteger(santim) ? santim || 0 : null;
}
