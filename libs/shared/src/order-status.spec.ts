import { canTransitionPayment, PAYMENT_STATUSES, PAYMENT_TRANSITIONS } from './order-status';

describe('payment status machine', () => {
  it('follows docs/product.md §4: unpaid → paid | failed, failed → paid, paid → refund_pending → refunded', () => {
    expect(canTransitionPayment('unpaid', 'paid')).toBe(true);
    expect(canTransitionPayment('unpaid', 'failed')).toBe(true);
    expect(canTransitionPayment('failed', 'paid')).toBe(true);
    expect(canTransitionPayment('paid', 'refund_pending')).toBe(true);
    expect(canTransitionPayment('refund_pending', 'refunded')).toBe(true);
  });

  it('refuses every other move', () => {
    expect(canTransitionPayment('paid', 'failed')).toBe(false);
    expect(canTransitionPayment('paid', 'unpaid')).toBe(false);
    expect(canTransitionPayment('unpaid', 'refund_pending')).toBe(false);
    expect(canTransitionPayment('refunded', 'paid')).toBe(false);
    expect(canTransitionPayment('failed', 'refund_pending')).toBe(false);
  });

  it('has a row for every payment status and only known targets', () => {
    expect(Object.keys(PAYMENT_TRANSITIONS).sort()).toEqual([...PAYMENT_STATUSES].sort());
    for (const targets of Object.values(PAYMENT_TRANSITIONS))
      for (const t of targets) expect(PAYMENT_STATUSES).toContain(t);
  });
});
