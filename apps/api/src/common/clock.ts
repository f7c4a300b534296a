import { Global, Module } from '@nestjs/common';

/**
 * The API's "now" for what depends on the calendar (scheduled sales, docs/decisions/0095): the
 * machine's time, or in tests a time they set, so a sale starts and ends without sleeping. One
 * instance per process (`shopClock`), also what Nest injects as `Clock`.
 */
export class Clock {
  private fixed?: number;

  /** Milliseconds since the epoch, now. */
  nowMs(): number {
    return this.fixed ?? Date.now();
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Tests: stop the clock at `at` (undefined: the machine's time again). */
  set(at: Date | string | number | undefined): void {
    this.fixed = at === undefined ? undefined : new Date(at).getTime();
  }
}

export const shopClock = new Clock();

@Global()
@Module({ providers: [{ provide: Clock, useValue: shopClock }], exports: [Clock] })
export class ClockModule {}
