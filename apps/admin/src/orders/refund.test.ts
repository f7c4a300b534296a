import { nextStatuses } from '@shop/shared';
import { describe, expect, it } from 'vitest';
import { refundFacts } from './payment';

describe('refund dialog facts', () => {
  it('offers what is left of a paid Chapa order, through Chapa', () => {
    expect(
      refundFacts({
        paymentMethod: 'chapa',
        paymentStatus: 'partially_refunded',
        paymentReference: 'bs-1',
        totalAmount: 495,
        refunded: 100,
      }),
    ).toEqual({ left: 395, allowed: true, chapa: true });
  });

  it('offers nothing for an unpaid or fully refunded order, and no Chapa refund of a pay-on-delivery order', () => {
    expect(refundFacts({ paymentStatus: 'unpaid', totalAmount: 495 }).allowed).toBe(false);
    expect(refundFacts({ paymentStatus: 'refunded', totalAmount: 495, refunded: 495 }).allowed).toBe(false);
    const cod = refundFacts({
      paymentMethod: 'cash_on_delivery',
      paymentStatus: 'paid',
      paymentReference: 'cash',
      totalAmount: 840,
    });
    expect(cod).toEqual({ left: 840, allowed: true, chapa: false });
  });
});

describe('next steps the status select offers', () => {
  it('withholds processing from a failed Chapa payment but not from pay on delivery', () => {
    expect(nextStatuses({ status: 'pending', paymentMethod: 'chapa', paymentStatus: 'failed' })).toEqual([
      'cancelled',
    ]);
    expect(
      nextStatuses({ status: 'pending', paymentMethod: 'cash_on_delivery', paymentStatus: 'unpaid' }),
    ).toEqual(['processing', 'cancelled']);
  });
});
