import {
  canCollectPayment,
  canFulfil,
  canRefund,
  canTransitionPayment,
  nextStatuses,
  refundableAmount,
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

describe('fulfilment follows payment (docs/decisions/0080-fulfilment-refunds-notes.md)', () => {
  it('fulfils a paid or partly refunded online order and any pay-on-delivery order not refunded', () => {
    expect(canFulfil({ paymentMethod: 'chapa', paymentStatus: 'paid' })).toBe(true);
    expect(canFulfil({ paymentMethod: 'chapa', paymentStatus: 'partially_refunded' })).toBe(true);
    expect(canFulfil({ paymentMethod: 'chapa', paymentStatus: 'unpaid' })).toBe(false);
    expect(canFulfil({ paymentMethod: 'chapa', paymentStatus: 'failed' })).toBe(false);
    expect(canFulfil({ paymentMethod: 'chapa', paymentStatus: 'refunded' })).toBe(false);
    expect(canFulfil({ paymentMethod: 'cash_on_delivery', paymentStatus: 'unpaid' })).toBe(true);
    expect(canFulfil({ paymentMethod: 'cash_on_delivery', paymentStatus: 'refunded' })).toBe(false);
  });

  it('offers only the moves the API accepts', () => {
    expect(nextStatuses({ status: 'pending', paymentMethod: 'chapa', paymentStatus: 'failed' })).toEqual([
      'cancelled',
    ]);
    expect(nextStatuses({ status: 'pending', paymentMethod: 'chapa', paymentStatus: 'paid' })).toEqual([
      'processing',
      'cancelled',
    ]);
    expect(
      nextStatuses({ status: 'processing', paymentMethod: 'cash_on_delivery', paymentStatus: 'unpaid' }),
    ).toEqual(['shipped', 'cancelled']);
    expect(nextStatuses({ status: 'shipped', paymentMethod: 'chapa', paymentStatus: 'unpaid' })).toEqual([
      'delivered',
    ]);
  });
});

describe('refunds', () => {
  it('moves paid | refund_pending | partially_refunded to refunded or partially_refunded, never back', () => {
    for (const from of ['paid', 'refund_pending', 'partially_refunded'] as const) {
      expect(canTransitionPayment(from, 'refunded')).toBe(true);
      expect(canTransitionPayment(from, 'partially_refunded')).toBe(true);
      expect(canTransitionPayment(from, 'refunded', 'cash_on_delivery')).toBe(true);
    }
    expect(canTransitionPayment('refunded', 'partially_refunded')).toBe(false);
    expect(canTransitionPayment('unpaid', 'refunded')).toBe(false);
    expect(canTransitionPayment('failed', 'partially_refunded')).toBe(false);
  });

  it('refunds what is left of the paid total, only while money is held', () => {
    expect(refundableAmount({ totalAmount: 783, refunded: 100.5 })).toBe(682.5);
    expect(refundableAmount({ totalAmount: 10, refunded: 12 })).toBe(0);
    expect(canRefund({ paymentStatus: 'paid', totalAmount: 783 })).toBe(true);
    expect(canRefund({ paymentStatus: 'partially_refunded', totalAmount: 783, refunded: 783 })).toBe(false);
    expect(canRefund({ paymentStatus: 'unpaid', totalAmount: 783 })).toBe(false);
    expect(canRefund({ paymentStatus: 'refunded', totalAmount: 783, refunded: 783 })).toBe(false);
  });
});
