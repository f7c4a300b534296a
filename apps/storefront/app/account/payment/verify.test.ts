import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyPayment } from './verify.server';

/** The payment success page empties the cart; a failure to do so is only logged (docs/product.md §8). */
describe('verifyPayment', () => {
  const request = new Request('http://shop.test/payment/return?tx_ref=bs-1', {
    headers: { Cookie: 'token=abc' },
  });
  const calls: string[] = [];

  function answer(routes: Record<string, [number, unknown]>) {
    vi.stubGlobal('fetch', async (input: Request) => {
      const key = `${input.method} ${new URL(input.url).pathname}`;
      calls.push(key);
      expect(input.headers.get('Authorization')).toBe('Bearer abc');
      const [status, body] = routes[key] ?? [404, { message: 'Not found' }];
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    calls.length = 0;
  });

  it('reports success and empties the cart', async () => {
    answer({
      'GET /api/payments/verify/bs-1': [
        200,
        { success: true, status: 'paid', message: 'Payment Successful!', order: { _id: 'o1' } },
      ],
      'DELETE /api/cart/clear': [200, { success: true, products: [] }],
    });
    await expect(verifyPayment(request, 'bs-1')).resolves.toEqual({
      state: 'paid',
      message: 'payment.success',
      orderId: 'o1',
    });
    expect(calls).toEqual(['GET /api/payments/verify/bs-1', 'DELETE /api/cart/clear']);
  });

  it('still reports success when the cart cannot be emptied, and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answer({
      'GET /api/payments/verify/bs-1': [200, { success: true, status: 'paid', order: { _id: 'o1' } }],
      'DELETE /api/cart/clear': [
        500,
        { success: false, statusCode: 500, message: 'boom', code: 'INTERNAL_ERROR' },
      ],
    });
    await expect(verifyPayment(request, 'bs-1')).resolves.toMatchObject({ state: 'paid' });
    expect(log).toHaveBeenCalledWith('Failed to clear cart after payment', 500, 'INTERNAL_ERROR');
  });

  it('gives the spec messages for a declined payment, an unknown reference and a failing verification', async () => {
    answer({
      'GET /api/payments/verify/bs-1': [
        200,
        { success: false, status: 'failed', message: 'Payment was not successful' },
      ],
    });
    await expect(verifyPayment(request, 'bs-1')).resolves.toMatchObject({
      state: 'failed',
      message: 'payment.notSuccessful',
    });
    expect(calls).not.toContain('DELETE /api/cart/clear');

    answer({});
    await expect(verifyPayment(request, 'bs-1')).resolves.toMatchObject({
      state: 'failed',
      message: 'payment.notFound',
    });
    await expect(verifyPayment(request, null)).resolves.toMatchObject({
      state: 'failed',
      message: 'payment.notFound',
    });

    answer({
      'GET /api/payments/verify/bs-1': [502, { success: false, statusCode: 502, message: 'Bad gateway' }],
    });
    await expect(verifyPayment(request, 'bs-1')).resolves.toMatchObject({
      state: 'failed',
      message: 'payment.verificationError',
    });

    answer({
      'GET /api/payments/verify/bs-1': [
        200,
        { success: false, status: 'pending', message: 'Payment is still being processed' },
      ],
    });
    await expect(verifyPayment(request, 'bs-1')).resolves.toMatchObject({
      state: 'pending',
      message: 'payment.pending',
    });
  });
});
