import { translate } from '@shop/i18n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { action, loader } from '../../routes/order-confirmation.$orderId';

/**
 * Paying again from the confirmation page: a refused payment start is worded by the API's code (in
 * en and am), not by the generic text, and never by the API's English message.
 */
describe('the confirmation page when the payment cannot start', () => {
  const url = 'http://shop.test/order-confirmation/o1';
  const request = (method = 'POST', at = url) =>
    new Request(at, { method, headers: { Cookie: 'token=abc' } });

  function answer(initialize: [number, unknown]) {
    vi.stubGlobal('fetch', async (input: Request) => {
      const key = `${input.method} ${new URL(input.url).pathname}`;
      const [status, body] =
        key === 'GET /api/auth/me'
          ? [200, { user: { _id: 'u1', name: 'Hanna', email: 'h@example.et', role: 'customer' } }]
          : key === 'POST /api/payments/initialize'
            ? initialize
            : [404, { message: 'Not found' }];
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
  }

  afterEach(() => vi.unstubAllGlobals());

  async function errorOf(initialize: [number, unknown]) {
    answer(initialize);
    const res = (await action({ request: request(), params: { orderId: 'o1' }, context: {} })) as Response;
    return { status: res.status, error: ((await res.json()) as { error: string | null }).error };
  }

  it('shows the code of the refusal in both languages', async () => {
    const { status, error } = await errorOf([
      503,
      {
        success: false,
        statusCode: 503,
        message: 'Payment provider unavailable',
        code: 'PAYMENT_PROVIDER_UNAVAILABLE',
      },
    ]);
    expect(status).toBe(503);
    expect(error).toBe('errors.PAYMENT_PROVIDER_UNAVAILABLE');
    for (const lang of ['en', 'am'] as const) {
      expect(translate(lang, error as string)).not.toBe(translate(lang, 'payment.initFailed'));
      expect(translate(lang, error as string)).not.toContain('Payment provider unavailable');
    }
    expect(translate('am', error as string)).toMatch(/[\u1200-\u137F]/);

    const paid = await errorOf([
      409,
      { success: false, statusCode: 409, message: 'already paid', code: 'ORDER_ALREADY_PAID' },
    ]);
    expect(paid.error).toBe('errors.ORDER_ALREADY_PAID');
  });

  it('keeps the generic text for a refusal without a known code', async () => {
    expect((await errorOf([500, { success: false, message: 'Internal server error' }])).error).toBe(
      'payment.initFailed',
    );
    expect((await errorOf([400, { success: false, message: 'x', code: 'NOT_A_CODE' }])).error).toBe(
      'payment.initFailed',
    );
  });

  it("words the checkout's failed start by the code carried in the URL, a made-up one by nothing more", async () => {
    vi.stubGlobal('fetch', async (input: Request) => {
      const path = new URL(input.url).pathname;
      const body =
        path === '/api/auth/me'
          ? { user: { _id: 'u1', name: 'Hanna', email: 'h@example.et', role: 'customer' } }
          : { _id: 'o1', status: 'pending', paymentStatus: 'unpaid' };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    const load = async (query: string) =>
      loader({ request: request('GET', `${url}?${query}`), params: { orderId: 'o1' }, context: {} });
    await expect(load('payment=failed&code=PAYMENT_PROVIDER_REFUSED')).resolves.toMatchObject({
      paymentFailed: true,
      reason: 'errors.PAYMENT_PROVIDER_REFUSED',
    });
    await expect(load('payment=failed&code=toString')).resolves.toMatchObject({ reason: null });
    await expect(load('payment=failed&code=<b>hi</b>')).resolves.toMatchObject({ reason: null });
    await expect(load('code=PAYMENT_PROVIDER_REFUSED')).resolves.toMatchObject({ reason: null });
  });
});
