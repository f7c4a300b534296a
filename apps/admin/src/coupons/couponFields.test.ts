import { describe, expect, it } from 'vitest';
import { couponPayload, couponValueText } from './couponFields';

describe('coupon form payload (docs/decisions/0096-coupon-codes.md)', () => {
  it('sends only the fields the API accepts, numbers as numbers, emptied limits and dates as null', () => {
    const record = {
      id: 'c1',
      _id: 'c1',
      uses: 3,
      code: ' buna10 ',
      kind: 'percent',
      value: '10',
      minSubtotal: '',
      startsAt: '',
      endsAt: '2026-12-31T21:00:00.000Z',
      usageLimit: '',
      perCustomerLimit: '1',
      active: true,
    };
    expect(couponPayload(record)).toEqual({
      code: 'BUNA10',
      kind: 'percent',
      value: 10,
      minSubtotal: 0,
      startsAt: null,
      endsAt: '2026-12-31T21:00:00.000Z',
      usageLimit: null,
      perCustomerLimit: 1,
      active: true,
    });
  });

  it('sends no value for free delivery and reads each kind for the list', () => {
    expect(couponPayload({ code: 'SHIP', kind: 'freeShipping', value: 5 })).toEqual({
      code: 'SHIP',
      kind: 'freeShipping',
    });
    const money = (n: number) => `ETB ${n}`;
    expect(couponValueText({ kind: 'percent', value: 15 }, 'Free delivery', money)).toBe('15%');
    expect(couponValueText({ kind: 'fixed', value: 50 }, 'Free delivery', money)).toBe('ETB 50');
    expect(couponValueText({ kind: 'freeShipping', value: 0 }, 'Free delivery', money)).toBe('Free delivery');
  });
});
