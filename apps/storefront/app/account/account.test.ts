import type { PaymentInit } from '@shop/api-client';
import { describe, expect, it } from 'vitest';
import { dictionaries, keysOf } from '@shop/i18n';
import {
  decodeIntent,
  encodeIntent,
  intentCookie,
  intentFromCookieHeader,
  parseQuantity,
  safeRedirectPath,
  signInPath,
} from './auth/intent';
import { paymentDestination, txRefFrom } from './payment/payment.server';
import { shippingRatesFrom } from './checkout/settings.server';
import { validateAddress } from './addresses/validation';
import { serverFieldErrors } from './forms';
import { validateSignIn, validateSignUp } from './auth/validation';
import { validateProfile } from './profile/validation';
import { paymentMessageKey } from './payment/verify.server';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

describe('pending intent', () => {
  it('round-trips an add to cart through its cookie', () => {
    const cookie = intentCookie({ type: 'cart', productId: '665f1c2e9b1d8c0012345678', quantity: 3 });
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Max-Age=600/);
    const value = cookie.split(';')[0];
    expect(intentFromCookieHeader(`language=am; ${value}`)).toEqual({
      type: 'cart',
      productId: '665f1c2e9b1d8c0012345678',
      quantity: 3,
    });
  });

  it('ignores a tampered or foreign intent', () => {
    expect(decodeIntent('not-base64-json')).toBeNull();
    expect(
      decodeIntent(
        Buffer.from(JSON.stringify({ type: 'cart', productId: '{"$gt":""}' })).toString('base64url'),
      ),
    ).toBeNull();
    expect(
      decodeIntent(
        Buffer.from(JSON.stringify({ type: 'delete-account', productId: 'abc' })).toString('base64url'),
      ),
    ).toBeNull();
    expect(decodeIntent(encodeIntent({ type: 'wishlist', productId: 'abc123' }))).toEqual({
      type: 'wishlist',
      productId: 'abc123',
    });
  });

  it('never redirects to another site', () => {
    expect(safeRedirectPath('/cart')).toBe('/cart');
    expect(safeRedirectPath('//evil.example')).toBe('/');
    expect(safeRedirectPath('https://evil.example')).toBe('/');
    expect(safeRedirectPath('/\\evil.example')).toBe('/');
    expect(signInPath('/product/1?x=2')).toBe('/signin?redirectTo=%2Fproduct%2F1%3Fx%3D2');
  });

  it('reads quantities as positive whole numbers', () => {
    expect(parseQuantity('2')).toBe(2);
    expect(parseQuantity('0')).toBe(1);
    expect(parseQuantity('-3')).toBe(1);
    expect(parseQuantity('1.5')).toBe(1);
    expect(parseQuantity('abc', 0)).toBe(0);
  });
});

describe('form rules of docs/product.md §5', () => {
  it('sign in needs email and password; the role is customer unless admin is chosen', () => {
    expect(validateSignIn(form({})).errors).toEqual({
      email: 'auth.emailRequired',
      password: 'auth.passwordRequired',
    });
    expect(validateSignIn(form({ email: 'a@b.et', password: 'x', role: 'admin' })).input.role).toBe('admin');
    expect(validateSignIn(form({ email: 'a@b.et', password: 'x', role: 'root' })).input.role).toBe(
      'customer',
    );
  });

  it('sign up refuses mismatched and weak passwords for customers', () => {
    expect(
      validateSignUp(form({ name: 'A', email: 'a@b.et', password: 'Abcdef1!', confirmPassword: 'Abcdef1?' }))
        .errors,
    ).toEqual({
      confirmPassword: 'auth.passwordsMismatch',
    });
    expect(
      validateSignUp(form({ name: 'A', email: 'a@b.et', password: 'abcdefgh', confirmPassword: 'abcdefgh' }))
        .errors,
    ).toEqual({
      password: 'auth.weakPassword',
    });
    // Score 3 (length, lower, digit) is enough.
    expect(
      validateSignUp(form({ name: 'A', email: 'a@b.et', password: 'abcdefg1', confirmPassword: 'abcdefg1' }))
        .errors,
    ).toEqual({});
  });

  it('admin registration needs the secret key and skips the client password checks', () => {
    const base = { name: 'A', email: 'a@b.et', password: 'weak', accountType: 'admin' };
    expect(validateSignUp(form(base)).errors).toEqual({ adminSecretKey: 'auth.adminSecretRequired' });
    expect(validateSignUp(form({ ...base, adminSecretKey: 'k' })).errors).toEqual({});
  });

  it('checkout needs phone, region, city and street; postal code and landmark are optional', () => {
    const { errors } = validateAddress(form({ street: ' ', city: 'Addis Ababa' }));
    expect(errors).toEqual({
      phone: 'checkout.phoneRequired',
      street: 'checkout.streetRequired',
      state: 'checkout.stateRequired',
      country: 'checkout.countryRequired',
    });
    const full = { street: 'Bole Road', city: 'Addis Ababa', state: 'Addis Ababa', phone: '0911 22 33 44' };
    expect(validateAddress(form({ ...full, country: 'Kenya' })).errors).toEqual({
      country: 'checkout.countryEthiopiaOnly',
    });
    expect(validateAddress(form({ ...full, country: 'ethiopia' }))).toEqual({
      input: { ...full, phone: '+251911223344', country: 'Ethiopia' },
      errors: {},
    });
    // Amharic region names and codes are stored by the English name; a landmark and postal code are kept.
    expect(
      validateAddress(
        form({ ...full, state: 'ኦሮሚያ', landmark: 'near Edna Mall', zipCode: '1000', country: 'Ethiopia' }),
      ).input,
    ).toMatchObject({ state: 'Oromia', landmark: 'near Edna Mall', zipCode: '1000' });
    expect(
      validateAddress(form({ ...full, state: 'Nairobi', phone: '0111234567', country: 'Ethiopia' })).errors,
    ).toEqual({
      state: 'checkout.stateInvalid',
      phone: 'checkout.phoneInvalid',
    });
  });

  it('profile needs name and email; phone is optional', () => {
    expect(validateProfile(form({ name: '', email: '' })).errors).toEqual({
      name: 'auth.nameRequired',
      email: 'auth.emailRequired',
    });
    expect(validateProfile(form({ name: 'A', email: 'a@b.et' })).errors).toEqual({});
  });

  it('profile of an account made by phone (no email): the email may stay empty, and must be valid if given', () => {
    expect(validateProfile(form({ name: 'A', email: '', emailOptional: '1' })).errors).toEqual({});
    expect(validateProfile(form({ name: 'A', email: 'nope', emailOptional: '1' })).errors).toEqual({
      email: 'auth.emailInvalid',
    });
  });
});

describe('payments', () => {
  it('sends test payments to our test page and Chapa payments to the checkout URL', () => {
    expect(
      paymentDestination(
        { provider: 'test', txRef: 'bs-1', checkoutUrl: 'http://api/api/payments/test/bs-1' },
        'o1',
      ),
    ).toEqual({
      redirect: '/payment/test/bs-1?orderId=o1',
    });
    expect(
      paymentDestination(
        { provider: 'chapa', txRef: 'bs-1', checkoutUrl: 'https://checkout.chapa.co/x' },
        'o1',
      ),
    ).toEqual({
      redirect: 'https://checkout.chapa.co/x',
    });
    const hostedForm = {
      action: 'https://api.chapa.co/v1/hosted/pay',
      fields: { tx_ref: 'bs-1' },
    } as unknown as PaymentInit['hostedForm'];
    expect(paymentDestination({ provider: 'chapa', txRef: 'bs-1', hostedForm }, 'o1')).toEqual({
      hostedForm,
    });
    expect(
      paymentDestination({ provider: 'chapa', txRef: 'bs-1', checkoutUrl: 'javascript:alert(1)' }, 'o1'),
    ).toBeNull();
  });

  it('reads the reference Chapa appends and refuses odd ones', () => {
    expect(txRefFrom(new URL('http://s/payment/return?tx_ref=bs-1'))).toBe('bs-1');
    expect(txRefFrom(new URL('http://s/payment/return?trx_ref=bs-2'))).toBe('bs-2');
    expect(txRefFrom(new URL('http://s/payment/return?tx_ref=../../x'))).toBeNull();
    expect(txRefFrom(new URL('http://s/payment/return'))).toBeNull();
  });

  it('maps the payment codes of the API to the page’s translations (docs/product.md §8 texts)', () => {
    expect(paymentMessageKey('PAYMENT_FAILED', 'x')).toBe('payment.notSuccessful');
    expect(paymentMessageKey('PAYMENT_VERIFICATION_FAILED', 'x')).toBe('payment.verificationFailed');
    expect(paymentMessageKey('SOMETHING_ELSE', 'payment.verificationError')).toBe(
      'payment.verificationError',
    );
    expect(paymentMessageKey('PAYMENT_NOT_FOUND', 'x')).toBe('payment.notFound');
    expect(paymentMessageKey('PAYMENT_VERIFICATION_ERROR', 'x')).toBe('payment.verificationError');
    expect(paymentMessageKey('PAYMENT_SUCCESS', 'x')).toBe('payment.success');
    expect(paymentMessageKey('PAYMENT_PENDING', 'x')).toBe('payment.pending');
    expect(paymentMessageKey('PAYMENT_REFUND_PENDING', 'x')).toBe('payment.refundPending');
    // the English text is not read back any more
    expect(paymentMessageKey('Payment was not successful', 'x')).toBe('x');
    expect(paymentMessageKey(undefined, 'payment.initFailed')).toBe('payment.initFailed');
  });
});

describe('shipping rates from the public settings', () => {
  it('reads the options in ETB as santim, with defaults for what is missing', () => {
    const rates = shippingRatesFrom({
      settings: {
        shipping: [
          { method: 'standard', price: 150, freeOver: 1000 },
          { method: 'express', price: 320.5 },
        ],
        freeShippingThreshold: 1000,
      },
    });
    expect(rates).toEqual({ standard: 15_000, express: 32_050, pickup: 0, freeStandardOver: 100_000 });
    expect(shippingRatesFrom(undefined)).toEqual({
      standard: 15_000,
      express: 30_000,
      pickup: 0,
      freeStandardOver: 100_000,
    });
  });
});

describe('account dictionaries', () => {
  const own = [
    'auth',
    'cart',
    'wishlist',
    'checkout',
    'orders',
    'profile',
    'payment',
    'reviews',
    'otp',
    'lookup',
  ];
  it("Amharic covers every English key of the account namespaces, in Ge'ez script", () => {
    const en = keysOf(dictionaries.en).filter((k) => own.includes(k.split('.')[0]));
    const am = new Set(keysOf(dictionaries.am));
    expect(en.filter((k) => !am.has(k))).toEqual([]);
    const text = (lang: 'en' | 'am', key: string) =>
      key
        .split('.')
        .reduce<unknown>(
          (node, part) => (node as Record<string, unknown>)[part],
          dictionaries[lang],
        ) as string;
    const latinOnly = en.filter(
      (k) =>
        !/[\u1200-\u137F]/.test(text('am', k)) &&
        !/^orders\.paymentMethods/.test(k) &&
        !/^(cart\.tax)$/.test(k),
    );
    expect(latinOnly).toEqual([]);
  });
});

describe("the API's field errors on the form", () => {
  it('become the texts of their codes, under the nested and the form field names, never the English message', () => {
    expect(
      serverFieldErrors([
        {
          field: 'shippingAddress.phone',
          message: 'phone must be an Ethiopian mobile number',
          code: 'INVALID_PHONE',
        },
        { field: 'shippingAddress.state', message: 'state must be one of…', code: 'INVALID_REGION' },
        { field: 'street', message: 'street is required', code: 'VALIDATION_FAILED' },
        { field: 'city', message: 'city is weird', code: 'NOT_A_CODE_WE_KNOW' },
        { field: 'landmark', message: 'no code at all' },
      ]),
    ).toEqual({
      'shippingAddress.phone': 'errors.INVALID_PHONE',
      phone: 'errors.INVALID_PHONE',
      'shippingAddress.state': 'errors.INVALID_REGION',
      state: 'errors.INVALID_REGION',
      street: 'errors.VALIDATION_FAILED',
      city: 'errors.VALIDATION_FAILED',
      landmark: 'errors.VALIDATION_FAILED',
    });
    expect(serverFieldErrors(undefined)).toEqual({});
  });

  it('have texts in both languages', () => {
    for (const code of ['INVALID_PHONE', 'INVALID_REGION'])
      for (const lang of ['en', 'am'] as const)
        expect(keysOf(dictionaries[lang])).toContain(`errors.${code}`);
  });
});

describe("an API message's values in the page's language", () => {
  it("says a refused cancellation's order status in Amharic, not the API's English word", async () => {
    const { message } = await import('./components');
    const { translate } = await import('@shop/i18n');
    const t = (key: string, params?: Record<string, string | number>) => translate('am', key, params);
    const said = message(t, 'errors.CANNOT_CANCEL', { status: 'shipped' });
    expect(said).toContain(translate('am', 'orders.statuses.shipped'));
    expect(said).not.toContain('shipped');
    // a value that is no status stays as it is
    expect(message(t, 'errors.CANNOT_CANCEL', { status: 'odd' })).toContain('odd');
  });
});
