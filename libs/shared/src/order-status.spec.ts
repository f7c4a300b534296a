import {
  canCollectPayment,
  canTransitionPayment,
  PAY_ON_DELIVERY_PAYMENT_TRANSITIONS,
  PAYMENT_STATUSES,
  PAYMENT_TRANSITIONS,
} from './order-status';

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

  it('pay on delivery: unpaid → paid (collected), never failed; a paid one may still be refunded', () => {
    const cod = 'cash_on_delivery';
    expect(canTransitionPayment('unpaid', 'paid', cod)).toBe(true);
    expect(canTransitionPayment('unpaid', 'failed', cod)).toBe(false);
    expect(canTransitionPayment('failed', 'paid', cod)).toBe(false);
    expect(canTransitionPayment('unpaid', 'refund_pending', cod)).toBe(false);
    expect(canTransitionPayment('paid', 'refund_pending', cod)).toBe(true);
    expect(canTransitionPayment('refund_pending', 'refunded', cod)).toBe(true);
    // Chapa's machine is unchanged by the method argument
    expect(canTransitionPayment('unpaid', 'failed', 'chapa')).toBe(true);
    expect(Object.keys(PAY_ON_DELIVERY_PAYMENT_TRANSITIONS).sort()).toEqual([...PAYMENT_STATUSES].sort());
  });

  it('lets staff collect only an unpaid, not cancelled pay-on-delivery order', () => {
    const order = { paymentMethod: 'cash_on_delivery', paymentStatus: 'unpaid', status: 'pending' };
    expect(canCollectPayment(order)).toBe(true);
    expect(canCollectPayment({ ...order, status: 'delivered' })).toBe(true);
    expect(canCollectPayment({ ...order, paymentStatus: 'paid' })).toBe(false);
    expect(canCollectPayment({ ...order, status: 'cancelled' })).toBe(false);
    expect(canCollectPayment({ ...order, paymentMethod: 'chapa' })).toBe(false);
  });
});
