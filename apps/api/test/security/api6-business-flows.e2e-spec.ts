import request from 'supertest';
import { ADDRESS, expectErrorShape, placeOrder, startSecurityShop, type SecurityShop } from './support';

interface StoredProduct {
  stock: number;
}

/** OWASP API6:2023 Unrestricted Access to Sensitive Business Flows: checkout cannot be abused. */
describe('API6 sensitive business flows (checkout abuse)', () => {
  let shop: SecurityShop;

  beforeAll(async () => {
    shop = await startSecurityShop();
  });

  afterAll(() => shop.close());

  const stockOf = async (id: string) =>
    (await shop.model<StoredProduct>('Product').findById(id).lean())!.stock;
  const ordersOf = (userId: string) => shop.model('Order').countDocuments({ user: userId });

  it('makes one order for repeated requests with the same Idempotency-Key, and takes stock once', async () => {
    const customer = await shop.customer();
    const productId = await shop.product({ stock: 10 });
    const first = await placeOrder(shop, customer, productId, 2, 'checkout-key-1');
    expect(first.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      const retry = await request(shop.t.http)
        .post('/api/orders')
        .set(shop.auth(customer.token))
        .set('Idempotency-Key', 'checkout-key-1')
        .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' });
      expect(retry.status).toBe(200);
      expect(retry.body.order._id).toBe(first.body.order._id);
    }
    expect(await ordersOf(customer.id)).toBe(1);
    expect(await stockOf(productId)).toBe(8);
  });

  it('makes one order when the same key is sent several times at once', async () => {
    const customer = await shop.customer();
    const productId = await shop.product({ stock: 10 });
    await request(shop.t.http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .send({ productId, quantity: 1 })
      .expect(200);
    const send = () =>
      request(shop.t.http)
        .post('/api/orders')
        .set(shop.auth(customer.token))
        .set('Idempotency-Key', 'concurrent-key')
        .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' });
    const answers = await Promise.all([send(), send(), send(), send()]);
    for (const a of answers) expect(a.status).toBeLessThan(500);
    const ids = new Set(answers.filter((a) => a.status < 300).map((a) => a.body.order._id));
    expect(ids.size).toBe(1);
    expect(await ordersOf(customer.id)).toBe(1);
    expect(await stockOf(productId)).toBe(9);
  });

  it('refuses to sell more than the stock, whole, and changes nothing', async () => {
    const customer = await shop.customer();
    const productId = await shop.product({ stock: 3 });
    const tooMany = await request(shop.t.http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .send({ productId, quantity: 4 });
    expect([400, 409]).toContain(tooMany.status);
    expectErrorShape(tooMany.body, tooMany.status);
    await request(shop.t.http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .send({ productId, quantity: 3 })
      .expect(200);
    // Someone else buys one first: the remaining cart line is now short.
    const rival = await shop.customer();
    expect((await placeOrder(shop, rival, productId, 1)).status).toBe(201);
    const late = await request(shop.t.http)
      .post('/api/orders')
      .set(shop.auth(customer.token))
      .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' });
    expect(late.status).toBe(409);
    expectErrorShape(late.body, 409);
    expect(await ordersOf(customer.id)).toBe(0);
    expect(await stockOf(productId)).toBe(2);
  });

  it('sells the last unit once when two customers race for it', async () => {
    const productId = await shop.product({ stock: 1 });
    const [a, b] = [await shop.customer(), await shop.customer()];
    for (const c of [a, b])
      await request(shop.t.http)
        .post('/api/cart/add')
        .set(shop.auth(c.token))
        .send({ productId, quantity: 1 })
        .expect(200);
    const order = (token: string) =>
      request(shop.t.http)
        .post('/api/orders')
        .set(shop.auth(token))
        .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' });
    const answers = await Promise.all([order(a.token), order(b.token)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await stockOf(productId)).toBe(0);
  });

  it('refuses zero, negative, fractional, huge and non-numeric quantities without a 500', async () => {
    const customer = await shop.customer();
    const productId = await shop.product({ stock: 1000 });
    for (const quantity of [0, -1, -1000, 1.5, 1e9, Number.MAX_SAFE_INTEGER, 'ten', null, { $gt: 0 }, [1]]) {
      const res = await request(shop.t.http)
        .post('/api/cart/add')
        .set(shop.auth(customer.token))
        .send({ productId, quantity });
      expect({ quantity, status: res.status }).toEqual({ quantity, status: 400 });
      expectErrorShape(res.body, 400);
    }
    await request(shop.t.http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .send({ productId, quantity: 1 })
      .expect(200);
    for (const quantity of [0, -3, 1e9, 2.5]) {
      const res = await request(shop.t.http)
        .patch(`/api/cart/update/${productId}`)
        .set(shop.auth(customer.token))
        .send({ quantity });
      expect({ quantity, status: res.status }).toEqual({ quantity, status: 400 });
    }
    const cart = await request(shop.t.http).get('/api/cart').set(shop.auth(customer.token)).expect(200);
    expect(cart.body.products[0].quantity).toBe(1);
  });

  it('restores stock once however often an order is cancelled', async () => {
    const customer = await shop.customer();
    const productId = await shop.product({ stock: 5 });
    const placed = await placeOrder(shop, customer, productId, 2);
    const id = placed.body.order._id;
    expect(await stockOf(productId)).toBe(3);
    const cancels = await Promise.all(
      [1, 2, 3].map(() =>
        request(shop.t.http).patch(`/api/orders/${id}/cancel`).set(shop.auth(customer.token)),
      ),
    );
    expect(cancels.filter((c) => c.status === 200)).toHaveLength(1);
    for (const c of cancels) expect([200, 409]).toContain(c.status);
    expect(await stockOf(productId)).toBe(5);
  });

  it('refuses an empty cart checkout and a malformed Idempotency-Key', async () => {
    const customer = await shop.customer();
    const empty = await request(shop.t.http)
      .post('/api/orders')
      .set(shop.auth(customer.token))
      .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' })
      .expect(400);
    expect(empty.body.message).toBe('Your cart is empty');
    const productId = await shop.product({ stock: 5 });
    const bad = await placeOrder(shop, customer, productId, 1, 'k'.repeat(300));
    expect(bad.status).toBe(400);
    expect(await ordersOf(customer.id)).toBe(0);
  });
});
