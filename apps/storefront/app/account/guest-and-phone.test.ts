import { translate } from '@shop/i18n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { action as checkoutAction } from '../routes/checkout';
import { loader as confirmationLoader } from '../routes/order-confirmation.$orderId';
import { action as phoneAction } from '../routes/signin_.phone';
import { action as lookupAction } from '../routes/track-order';
import { apiForGuestOrder, orderTokenCookie, orderTokenFromRequest } from '../session.server';
import { cashOnDeliveryFrom, publicSettingsFrom } from '../shop-data';
import { validateOtpCode, validateOtpPhone } from './auth/otp.server';
import { checkoutPayment, validateGuest } from './checkout/guest';
import { lookupOrderFrom, validateLookup } from './orders/lookup.server';

/** Guest checkout, pay on delivery, order lookup and phone sign-in (issue 29), against a stubbed API. */

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

type Seen = { key: string; headers: Headers; body: unknown };

/** Stubs fetch with answers by `METHOD /path`; records what the storefront sent. */
function answer(routes: Record<string, [number, unknown]>): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (input: Request) => {
    const key = `${input.method} ${new URL(input.url).pathname}`;
    const text = await input.text();
    seen.push({ key, headers: input.headers, body: text ? JSON.parse(text) : undefined });
    const [status, body] = routes[key] ?? [404, { success: false, statusCode: 404, message: 'Not found' }];
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  return seen;
}

const CART = 'a'.repeat(32);
const TOKEN = 'g'.repeat(43);
const ADDRESS = {
  phone: '0911 23 45 67',
  state: 'Addis Ababa',
  city: 'Addis Ababa',
  street: 'Bole Road 12',
  country: 'Ethiopia',
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('checkout choices', () => {
  it('pays on delivery only when asked for by name', () => {
    expect(checkoutPayment('cash_on_delivery')).toBe('cash_on_delivery');
    expect(checkoutPayment('chapa')).toBe('chapa');
    expect(checkoutPayment('cash')).toBe('chapa');
    expect(checkoutPayment(null)).toBe('chapa');
  });

  it('asks a guest for a name, takes the address phone in +251 form and an optional valid email', () => {
    expect(validateGuest(form({ name: ' Almaz ', email: '' }), '0911 23 45 67')).toEqual({
      input: { name: 'Almaz', phone: '+251911234567' },
      errors: {},
    });
    expect(validateGuest(form({ name: '', email: 'nope' }), '0911234567').errors).toEqual({
      name: 'auth.nameRequired',
      email: 'auth.emailInvalid',
    });
    expect(validateGuest(form({ name: 'x'.repeat(101) }), '0911234567').errors.name).toBe(
      'checkout.nameTooLong',
    );
    expect(validateGuest(form({ name: 'A', email: 'a@b.et' }), '0911234567').input.email).toBe('a@b.et');
  });

  it('reads pay on delivery from the public settings strictly: off unless the API says where', () => {
    expect(publicSettingsFrom({ settings: {} }).cashOnDelivery.enabled).toBe(false);
    expect(cashOnDeliveryFrom(undefined)).toEqual({ enabled: false, regions: [], maxOrderTotal: 0 });
    expect(cashOnDeliveryFrom({ enabled: 'yes', regions: ['Addis Ababa'], maxOrderTotal: 5 }).enabled).toBe(
      false,
    );
    expect(
      cashOnDeliveryFrom({
        enabled: true,
        regions: ['addis ababa', 'Atlantis', 'Dire Dawa'],
        maxOrderTotal: 10000,
      }),
    ).toEqual({ enabled: true, regions: ['Addis Ababa', 'Dire Dawa'], maxOrderTotal: 10000 });
    expect(cashOnDeliveryFrom({ enabled: true, regions: ['Addis Ababa'], maxOrderTotal: -1 }).enabled).toBe(
      false,
    );
  });
});

describe('the guest order token', () => {
  it('is kept in an httpOnly cookie per order and read back only for that order', () => {
    const cookie = orderTokenCookie('o1', TOKEN)!;
    expect(cookie).toMatch(/^order_token_o1=g+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=7776000/);
    const request = new Request('http://shop.test/', { headers: { Cookie: `a=b; ${cookie.split(';')[0]}` } });
    expect(orderTokenFromRequest(request, 'o1')).toBe(TOKEN);
    expect(orderTokenFromRequest(request, 'o2')).toBeUndefined();
    expect(orderTokenCookie('../x', TOKEN)).toBeUndefined();
    expect(orderTokenCookie('o1', 'short')).toBeUndefined();
    expect(orderTokenCookie('o1', 'has spaces and ; semicolons')).toBeUndefined();
  });

  it('travels as X-Order-Token, with the guest cart and without any session token', async () => {
    const seen = answer({ 'GET /api/orders/o1': [200, { _id: 'o1' }] });
    const request = new Request('http://shop.test/', {
      headers: { Cookie: `token=; cart_id=${CART}; order_token_o1=${TOKEN}` },
    });
    await apiForGuestOrder(request, 'o1')!.GET('/api/orders/{id}', { params: { path: { id: 'o1' } } });
    expect(seen[0].headers.get('X-Order-Token')).toBe(TOKEN);
    expect(seen[0].headers.get('Authorization')).toBeNull();
    expect(apiForGuestOrder(request, 'o2')).toBeNull();
  });
});

describe('guest checkout', () => {
  const post = (fields: Record<string, string>, cookie = `cart_id=${CART}`) =>
    new Request('http://shop.test/checkout?guest=1', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
  const guestFields = {
    ...ADDRESS,
    name: 'Almaz Bekele',
    email: '',
    shippingMethod: 'standard',
    paymentMethod: 'cash_on_delivery',
    idempotencyKey: 'key-0123456789abcdef',
  };

  it('places a pay-on-delivery order from the guest cart, keeps its token and opens the confirmation', async () => {
    const seen = answer({
      'POST /api/orders': [201, { success: true, order: { _id: 'o1' }, guestAccessToken: TOKEN }],
    });
    const res = (await checkoutAction({ request: post(guestFields), params: {}, context: {} })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/order-confirmation/o1');
    expect(res.headers.get('Set-Cookie')).toMatch(/^order_token_o1=g+; Path=\/; HttpOnly/);
    // no session: the guest cart and the guest's details; never a payment start for pay on delivery
    expect(seen.map((s) => s.key)).toEqual(['POST /api/orders']);
    const placed = seen[0];
    expect(placed.headers.get('X-Cart-Id')).toBe(CART);
    expect(placed.headers.get('Authorization')).toBeNull();
    expect(placed.headers.get('Idempotency-Key')).toBe('key-0123456789abcdef');
    expect(placed.body).toMatchObject({
      paymentMethod: 'cash_on_delivery',
      guest: { name: 'Almaz Bekele', phone: '+251911234567' },
      shippingAddress: { phone: '+251911234567', state: 'Addis Ababa' },
    });
  });

  it('pays a guest Chapa order with the new token and remembers which order is being paid', async () => {
    const seen = answer({
      'POST /api/orders': [201, { success: true, order: { _id: 'o1' }, guestAccessToken: TOKEN }],
      'POST /api/payments/initialize': [200, { success: true, provider: 'test', txRef: 'bs-1' }],
    });
    const res = (await checkoutAction({
      request: post({ ...guestFields, paymentMethod: 'chapa' }),
      params: {},
      context: {},
    })) as Response;
    expect(res.headers.get('Location')).toBe('/payment/test/bs-1?orderId=o1');
    expect(res.headers.get('Set-Cookie')).toMatch(/order_token_o1=.*paying_order=o1/s);
    expect(seen[1].key).toBe('POST /api/payments/initialize');
    expect(seen[1].headers.get('X-Order-Token')).toBe(TOKEN);
  });

  it('words a refused pay on delivery in both languages and brings the form back on Chapa', async () => {
    answer({
      'POST /api/orders': [
        422,
        {
          success: false,
          statusCode: 422,
          code: 'COD_UNAVAILABLE',
          message: 'Pay on delivery is not available for this order',
        },
      ],
    });
    const res = (await checkoutAction({ request: post(guestFields), params: {}, context: {} })) as Response;
    expect(res.status).toBe(422);
    const body = (await res.json()) as { formError: { key: string }; values: Record<string, string> };
    expect(body.formError.key).toBe('errors.COD_UNAVAILABLE');
    expect(body.values.paymentMethod).toBe('chapa');
    for (const lang of ['en', 'am'] as const)
      expect(translate(lang, body.formError.key)).not.toBe(body.formError.key);
  });

  it('asks a guest for the name and refuses a bad phone before calling the API', async () => {
    const seen = answer({});
    const res = (await checkoutAction({
      request: post({ ...guestFields, name: '', phone: '12345' }),
      params: {},
      context: {},
    })) as Response;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fieldErrors: Record<string, string> }).fieldErrors).toMatchObject({
      name: 'auth.nameRequired',
      phone: 'checkout.phoneInvalid',
    });
    expect(seen.map((s) => s.key)).toEqual([]);
  });

  it('sends a visitor with neither a session nor a guest cart back to the cart', async () => {
    answer({});
    const thrown = await checkoutAction({ request: post(guestFields, ''), params: {}, context: {} }).catch(
      (e: unknown) => e,
    );
    expect((thrown as Response).headers.get('Location')).toBe('/cart');
  });
});

describe('the confirmation page of a guest', () => {
  it('opens the order with its token, and sends a visitor without one to sign in', async () => {
    const seen = answer({
      'GET /api/orders/o1': [200, { _id: 'o1', paymentMethod: 'cash_on_delivery', paymentStatus: 'unpaid' }],
    });
    const request = new Request('http://shop.test/order-confirmation/o1', {
      headers: { Cookie: `order_token_o1=${TOKEN}` },
    });
    const data = await confirmationLoader({ request, params: { orderId: 'o1' }, context: {} });
    expect(data).toMatchObject({ guest: true, order: { _id: 'o1' } });
    expect(seen[0].headers.get('X-Order-Token')).toBe(TOKEN);

    const stranger = new Request('http://shop.test/order-confirmation/o1');
    const thrown = await confirmationLoader({
      request: stranger,
      params: { orderId: 'o1' },
      context: {},
    }).catch((e: unknown) => e);
    expect((thrown as Response).headers.get('Location')).toBe(
      `/signin?redirectTo=${encodeURIComponent('/order-confirmation/o1')}`,
    );
  });
});

describe('order lookup', () => {
  it('checks the number and the phone before asking', () => {
    expect(validateLookup(form({ number: ' an-10042 ', phone: '0911 23 45 67' }))).toEqual({
      input: { number: 'AN-10042', phone: '+251911234567' },
      errors: {},
    });
    expect(validateLookup(form({ number: 'hello', phone: '' })).errors).toEqual({
      number: 'lookup.numberInvalid',
      phone: 'checkout.phoneRequired',
    });
  });

  it('keeps only what the page shows of the reduced order', () => {
    const order = lookupOrderFrom({
      orderNumber: 'AN-10042',
      status: 'pending',
      paymentStatus: 'unpaid',
      paymentMethod: 'cash_on_delivery',
      items: [{ name: 'Shea Butter', nameAm: 'የሺአ ቅቤ', quantity: 2 }],
      totalAmount: 1150,
      createdAt: '2026-11-26T10:00:00.000Z',
      shipping: { city: 'Addis Ababa', state: 'Addis Ababa', street: 'never shown' },
      statusHistory: [{ status: 'pending', timestamp: '2026-11-26T10:00:00.000Z' }],
    });
    expect(order).toMatchObject({
      orderNumber: 'AN-10042',
      items: [{ name: 'Shea Butter', quantity: 2 }],
      city: 'Addis Ababa',
      statusHistory: [{ status: 'pending', at: '2026-11-26T10:00:00.000Z' }],
    });
    expect(JSON.stringify(order)).not.toContain('never shown');
    expect(lookupOrderFrom({ status: 'pending' })).toBeNull();
  });

  const lookup = (fields: Record<string, string>) =>
    lookupAction({
      request: new Request('http://shop.test/track-order', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': '196.188.1.2' },
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: {},
    }) as Promise<Response>;

  it('words not found and too many tries by their codes, forwarding the shopper’s address', async () => {
    const seen = answer({
      'GET /api/orders/lookup': [
        404,
        { success: false, statusCode: 404, code: 'ORDER_NOT_FOUND', message: 'Order not found' },
      ],
    });
    const res = await lookup({ number: 'AN-10042', phone: '0911234567' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { formError: string }).formError).toBe('errors.ORDER_NOT_FOUND');
    expect(seen[0].headers.get('X-Forwarded-For')).toBe('196.188.1.2');
    answer({
      'GET /api/orders/lookup': [
        429,
        { success: false, statusCode: 429, code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts' },
      ],
    });
    const limited = await lookup({ number: 'AN-10042', phone: '0911234567' });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { formError: string }).formError).toBe('errors.TOO_MANY_ATTEMPTS');
  });
});

describe('phone sign-in', () => {
  it('takes an Ethiopian mobile and a six-digit code', () => {
    expect(validateOtpPhone('0911 23 45 67')).toEqual({ phone: '+251911234567', error: '' });
    expect(validateOtpPhone('').error).toBe('checkout.phoneRequired');
    expect(validateOtpPhone('12').error).toBe('checkout.phoneInvalid');
    expect(validateOtpCode('123 456')).toEqual({ code: '123456', error: '' });
    expect(validateOtpCode('12345').error).toBe('otp.codeFormat');
    expect(validateOtpCode('').error).toBe('otp.codeRequired');
  });

  const post = (fields: Record<string, string>) =>
    phoneAction({
      request: new Request('http://shop.test/signin/phone', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: {},
    }) as Promise<Response>;

  it('asks for a code, then signs in and asks a new account its name', async () => {
    const seen = answer({
      'POST /api/auth/otp/request': [202, { success: true, message: 'sent' }],
      'POST /api/auth/otp/verify': [
        200,
        {
          success: true,
          token: 'jwt-1',
          created: true,
          user: { _id: 'u1', name: '', role: 'customer', phone: '+251911234567' },
        },
      ],
    });
    const asked = await post({ phone: '0911234567', intent: 'request', redirectTo: '/checkout' });
    expect(await asked.json()).toMatchObject({ step: 'code', phone: '+251911234567', sent: true });
    expect(seen[0].body).toEqual({ phone: '+251911234567' });
    const res = await post({
      phone: '+251911234567',
      intent: 'verify',
      code: '123456',
      redirectTo: '/checkout',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`/welcome?redirectTo=${encodeURIComponent('/checkout')}`);
    expect(res.headers.get('Set-Cookie')).toMatch(/^token=jwt-1; Path=\/; HttpOnly/);
  });

  it('keeps the code step open with the refusal in words', async () => {
    answer({
      'POST /api/auth/otp/verify': [
        400,
        {
          success: false,
          statusCode: 400,
          code: 'OTP_INVALID',
          message: 'This code is invalid or has expired',
        },
      ],
      'POST /api/auth/otp/request': [
        429,
        { success: false, statusCode: 429, code: 'TOO_MANY_CODES', message: 'Too many codes' },
      ],
    });
    const wrong = await post({ phone: '+251911234567', intent: 'verify', code: '000000' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ step: 'code', formError: 'errors.OTP_INVALID' });
    const limited = await post({ phone: '+251911234567', intent: 'request' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ step: 'code', formError: 'errors.TOO_MANY_CODES' });
    // as the API answers it: the field `code` with no code of its own, OTP_INVALID on the answer
    answer({
      'POST /api/auth/otp/verify': [
        400,
        {
          success: false,
          statusCode: 400,
          code: 'OTP_INVALID',
          message: 'This code is invalid or has expired',
          errors: [
            { field: 'code', message: 'This code is invalid or has expired', code: 'VALIDATION_FAILED' },
          ],
        },
      ],
    });
    const onField = await post({ phone: '+251911234567', intent: 'verify', code: '000000' });
    expect(await onField.json()).toMatchObject({
      step: 'code',
      formError: null,
      fieldErrors: { code: 'errors.OTP_INVALID' },
    });
  });
});
