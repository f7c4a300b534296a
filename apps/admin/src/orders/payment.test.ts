import { formatMoney } from '@shop/shared';
import { describe, expect, it } from 'vitest';
import { translator } from '../testTranslate';
import { customerOf, isGuestOrder, orderPhone, personLabel, type OrderRecord } from './orderFields';
import {
  canRecordCollection,
  collectErrorText,
  paymentMethodKey,
  slipPayment,
  slipPaymentText,
} from './payment';

const en = translator('en');
const am = translator('am');
const money = (lang: 'en' | 'am') => (amount: number) => formatMoney(amount, 'ETB', lang);

const cod = {
  paymentMethod: 'cash_on_delivery',
  paymentStatus: 'unpaid',
  status: 'pending',
  totalAmount: 1186.15,
};
const chapa = { ...cod, paymentMethod: 'chapa' };

describe('payment method label', () => {
  it("names pay on delivery and Chapa in both languages, never the raw 'cash_on_delivery'", () => {
    expect(en(paymentMethodKey('cash_on_delivery'))).toBe('Pay on delivery');
    expect(am(paymentMethodKey('cash_on_delivery'))).toBe('ሲደርስ የሚከፈል');
    expect(en(paymentMethodKey('chapa'))).toBe('Chapa');
    expect(am(paymentMethodKey('chapa'))).toBe('ቻፓ');
    expect(en(paymentMethodKey('telebirr'))).toBe('Chapa · telebirr');
  });

  it('names an order without a method, or with one it does not know, Chapa (the default method)', () => {
    expect(en(paymentMethodKey(undefined))).toBe('Chapa');
    expect(en(paymentMethodKey('bitcoin'))).toBe('Chapa');
  });
});

describe('packing slip payment line', () => {
  it('asks the rider to collect the total only for an unpaid pay-on-delivery order going out', () => {
    expect(slipPayment(cod)).toEqual({ kind: 'collect', amount: 1186.15 });
    expect(slipPaymentText(cod, en, money('en'))).toBe('Collect ETB 1,186.15 on delivery');
    expect(slipPaymentText(cod, am, money('am'))).toBe(`በማድረሻ ጊዜ ${formatMoney(1186.15, 'ETB', 'am')} ይሰብስቡ`);
    expect(slipPayment({ ...cod, status: 'processing' }).kind).toBe('collect');
  });

  it('says nothing to collect for an unpaid Chapa order (it used to say "Collect")', () => {
    expect(slipPayment(chapa)).toEqual({ kind: 'nothing' });
    expect(slipPaymentText(chapa, en, money('en'))).toBe('Nothing to collect');
    expect(slipPaymentText(chapa, am, money('am'))).toBe('የሚሰበሰብ ክፍያ የለም');
    expect(slipPaymentText({ ...chapa, paymentStatus: 'failed' }, en, money('en'))).not.toMatch(/Collect/);
  });

  it('says paid once the money is in, for either method', () => {
    expect(slipPaymentText({ ...cod, paymentStatus: 'paid' }, en, money('en'))).toBe('PAID: collect nothing');
    expect(slipPaymentText({ ...chapa, paymentStatus: 'paid' }, en, money('en'))).toBe(
      'PAID: collect nothing',
    );
  });

  it('has nothing to collect on a cancelled or refunded pay-on-delivery order', () => {
    expect(slipPayment({ ...cod, status: 'cancelled' }).kind).toBe('nothing');
    expect(slipPayment({ ...cod, paymentStatus: 'refund_pending', status: 'cancelled' }).kind).toBe(
      'nothing',
    );
  });
});

describe('record payment collected', () => {
  it('is offered only on an unpaid, not cancelled, pay-on-delivery order', () => {
    expect(canRecordCollection(cod)).toBe(true);
    expect(canRecordCollection({ ...cod, status: 'delivered' })).toBe(true);
    expect(canRecordCollection({ ...cod, paymentStatus: 'paid' })).toBe(false);
    expect(canRecordCollection({ ...cod, status: 'cancelled' })).toBe(false);
    expect(canRecordCollection(chapa)).toBe(false);
  });

  it("words the API's PAYMENT_NOT_COLLECTABLE refusal, in both languages", () => {
    const refusal = {
      body: { statusCode: 409, code: 'PAYMENT_NOT_COLLECTABLE', message: 'Payment cannot be collected' },
    };
    expect(collectErrorText(refusal, en)).toMatch(
      /^This payment cannot be recorded: only an unpaid pay-on-delivery order/,
    );
    expect(collectErrorText(refusal, am)).toMatch(/^ይህን ክፍያ መመዝገብ አይቻልም/);
    // the typed client's ApiError carries the code itself
    expect(collectErrorText({ code: 'PAYMENT_NOT_COLLECTABLE', message: 'x' }, en)).toMatch(
      /cannot be recorded/,
    );
  });

  it("falls back to the action's own failure for a refusal without a known code", () => {
    expect(collectErrorText(new Error('network'), en)).toBe(
      'Failed to record the payment. Please try again.',
    );
    expect(collectErrorText({ body: { code: 'SOMETHING_ELSE' } }, am)).toBe(
      'ክፍያውን መመዝገብ አልተቻለም። እባክዎ እንደገና ይሞክሩ።',
    );
  });
});

describe('guest and phone-only customers', () => {
  const base = { id: 'o1', orderItems: [], statusHistory: [], shippingAddress: {} } as unknown as OrderRecord;

  it('marks an order without an account as a guest order and names its customer', () => {
    const guest = {
      ...base,
      user: undefined,
      customer: { name: 'Almaz Bekele', phone: '+251911234567' },
    } as unknown as OrderRecord;
    expect(isGuestOrder(guest)).toBe(true);
    // a row of the admin list populates a guest's `user` with an empty id
    expect(
      isGuestOrder({ ...guest, user: { _id: '', name: 'Almaz Bekele', email: '' } } as OrderRecord),
    ).toBe(true);
    expect(
      isGuestOrder({ ...guest, user: { _id: 'u1', name: 'Almaz', email: 'a@b.et' } } as OrderRecord),
    ).toBe(false);
    expect(personLabel(customerOf(guest))).toBe('Almaz Bekele');
    expect(orderPhone(guest)).toBe('+251911234567');
  });

  it("prefers the delivery address's phone and falls back to the email, then the phone, for a nameless customer", () => {
    const account = {
      ...base,
      user: 'u1',
      customer: { name: '', email: 'a@b.et', phone: '+251911000000' },
      shippingAddress: { phone: '+251922000000' },
    } as unknown as OrderRecord;
    expect(isGuestOrder(account)).toBe(false);
    expect(orderPhone(account)).toBe('+251922000000');
    expect(personLabel(customerOf(account))).toBe('a@b.et');
    expect(personLabel({ name: ' ', phone: '+251911000000' })).toBe('+251911000000');
    expect(personLabel({})).toBe('');
  });

  it('does not crash on a row without user or customer', () => {
    const bare = { ...base, user: null } as unknown as OrderRecord;
    expect(customerOf(bare)).toEqual({});
    expect(orderPhone(bare)).toBeUndefined();
  });
});
