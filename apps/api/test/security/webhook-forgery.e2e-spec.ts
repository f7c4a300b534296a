import { createHmac } from 'node:crypto';
import request from 'supertest';
import { placeOrder, startSecurityShop, type SecurityShop } from './support';

const WEBHOOK_SECRET = 'webhook-secret-for-security-tests';
const sign = (body: string, secret = WEBHOOK_SECRET) =>
  createHmac('sha256', secret).update(body).digest('hex');

interface StoredOrder {
  paymentStatus: string;
  status: string;
}

/** Payment webhooks: a forged or tampered delivery is 401 and changes nothing. */
describe('webhook forgery', () => {
  let shop: SecurityShop;
  let orderId: string;
  let txRef: string;

  beforeAll(async () => {
    shop = await startSecurityShop({ CHAPA_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const customer = await shop.customer();
    const productId = await shop.product({ price: 800, stock: 5 });
    orderId = (await placeOrder(shop, customer, productId, 1)).body.order._id;
    const init = await request(shop.t.http)
      .post('/api/payments/initialize')
      .set(shop.auth(customer.token))
      .send({ orderId })
      .expect(201);
    txRef = init.body.txRef;
  });

  afterAll(() => shop.close());

  const deliver = (body: string, headers: Record<string, string> = {}) =>
    request(shop.t.http)
      .post('/api/payments/webhook')
      .set({ 'Content-Type': 'application/json', ...headers })
      .send(body);
  const order = async () => (await shop.model<StoredOrder>('Order').findById(orderId).lean())!;

  it('refuses missing, wrong, foreign-secret and tampered signatures with 401, leaving the order unpaid', async () => {
    const body = JSON.stringify({
      event: 'charge.success',
      tx_ref: txRef,
      status: 'success',
      amount: '920.00',
      currency: 'ETB',
    });
    const forged: Array<Record<string, string>> = [
      {},
      { 'x-chapa-signature': '' },
      { 'x-chapa-signature': 'deadbeef' },
      { 'x-chapa-signature': sign(body, 'guessed-secret') },
      { 'chapa-signature': sign(body, 'guessed-secret') },
      { 'x-chapa-signature': sign(body).toUpperCase().replace(/./, 'Z') },
      { 'x-chapa-signature': sign(JSON.stringify({ tx_ref: txRef, status: 'failed' })) },
      { 'chapa-signature': sign('guessed-secret', 'guessed-secret') },
    ];
    for (const headers of forged) {
      const res = await deliver(body, headers);
      expect({ headers, status: res.status }).toEqual({ headers, status: 401 });
      expect(res.body).toEqual({
        success: false,
        statusCode: 401,
        message: 'Invalid webhook signature',
        code: 'INVALID_WEBHOOK_SIGNATURE',
        params: {},
      });
    }
    // A genuine signature over one body does not cover another (amount changed after signing).
    const genuine = sign(body);
    const tampered = body.replace('920.00', '1.00');
    await deliver(tampered, { 'x-chapa-signature': genuine }).expect(401);
    expect(await order()).toMatchObject({ paymentStatus: 'unpaid', status: 'pending' });
  });

  it('does not mark an order paid on a correctly signed webhook that the provider has not confirmed', async () => {
    const body = JSON.stringify({ event: 'charge.success', tx_ref: txRef, status: 'success' });
    const res = await deliver(body, { 'x-chapa-signature': sign(body) });
    expect(res.status).toBe(200);
    expect(await order()).toMatchObject({ paymentStatus: 'unpaid' });
  });

  it('refuses every webhook when no webhook secret is configured', async () => {
    const bare = await startSecurityShop();
    try {
      const body = JSON.stringify({ tx_ref: 'anything', status: 'success' });
      await request(bare.t.http)
        .post('/api/payments/webhook')
        .set('Content-Type', 'application/json')
        .set('x-chapa-signature', sign(body, ''))
        .send(body)
        .expect(401);
    } finally {
      await bare.close();
    }
  });
});
