import { Injectable } from '@nestjs/common';
import { toBirr, zonedParts } from '@shop/shared';
import { InvalidDataError } from '../../common/errors/domain-error';
import { OrderReportsService } from '../orders/order-reports.service';
import { SettingsService } from '../settings/settings.service';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The default period: the last 30 days on the shop clock, today included. */
export const DEFAULT_PERIOD_DAYS = 30;
/** The longest period one breakdown covers. */
export const MAX_PERIOD_DAYS = 366;

const badPeriod = (message: string) =>
  new InvalidDataError('Invalid report period', [{ field: 'period', message }], 'INVALID_REPORT_PERIOD', {
    field: 'period',
  });

/** The instant a shop day (`YYYY-MM-DD`) starts in a time zone. */
export function dayStart(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d);
  // the zone's offset at that moment, read back from its wall clock (twice: a change of offset that day)
  let start = guess;
  for (let i = 0; i < 2; i++) {
    const p = zonedParts(new Date(start), timeZone)!;
    const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), p.hour, Number(p.minute));
    start = guess - (wall - start);
  }
  return new Date(start);
}

/** `YYYY-MM-DD` of an instant on a zone's clock. */
export function dayOf(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone)!;
  return `${p.year}-${p.month}-${p.day}`;
}

function readDay(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ok =
    /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
  if (!ok) throw badPeriod(`${name} must be a day as YYYY-MM-DD`);
  return value;
}

/**
 * Sales by delivery region and by payment method over a chosen period of shop days (both ends
 * included), net of refunds as the dashboard's revenue (docs/decisions/0081-replies-shop-clock-reports.md).
 */
@Injectable()
export class SalesBreakdownService {
  constructor(
    private readonly orders: OrderReportsService,
    private readonly settings: SettingsService,
  ) {}

  async breakdown(input: { from?: string; to?: string }, now = new Date()) {
    const { timezone, currency } = await this.settings.get();
    const to = readDay(input.to, 'to') ?? dayOf(now, timezone);
    const from =
      readDay(input.from, 'from') ??
      new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
    if (from > to) throw badPeriod('from must not be after to');
    const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
    if (days > MAX_PERIOD_DAYS) throw badPeriod(`a period covers at most ${MAX_PERIOD_DAYS} days`);
    const start = dayStart(from, timezone);
    const nextDay = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    const end = dayStart(nextDay, timezone);
    const [regions, methods] = await Promise.all([
      this.orders.salesBy('region', start, end),
      this.orders.salesBy('paymentMethod', start, end),
    ]);
    const row = <K extends string>(key: K, r: { _id: string | null; totalSantim: number; orders: number }) =>
      ({ [key]: r._id ?? '', orders: r.orders, total: toBirr(r.totalSantim) }) as Record<K, string> & {
        orders: number;
        total: number;
      };
    return {
      from,
      to,
      timezone,
      currency,
      byRegion: regions.map((r) => row('region', r)),
      byPaymentMethod: methods.map((r) => row('paymentMethod', r)),
    };
  }
}
