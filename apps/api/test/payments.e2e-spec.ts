import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import request from 'supertest';
import { AuditEntry } from '../src/modules/audit/schemas/audit-entry.schema';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { reverifyIntervalMs } from '../src/modules/payments/payments.module';
import { PaymentReverification } from '../src/modules/payments/payment-reverification.service';
import { Payment } from '../src/modules/payments/schemas/payment.schema';
import { startChapaStub, type ChapaStub } from './support/chapa-stub';
import { startTestApp, type TestApp } from './support/test-app';

const TOTAL_SANTIM = 130_000; // 1300.00 ETB: 1000 + 150 shipping + 150 tax

interface Customer {
  token: string;
  id: string;
  email: string;
}

let emailCounter = 0;

async function register(t: TestApp, name = 'Abebe Kebede'): Promise<Customer> {
  const email = `customer${++emailCounter}@example.et`;
  const res = await request(t.http)
    .post('/api/auth/register')
    .send({ name, email, password: 'Buna@2026x', confirmPassword: 'Buna@2026x' })
    .expect(201);
  return { token: res.body.token, id: res.body.user._id, email };
}

async function registerAdmin(t: TestApp): Promise<string> {
  const res = await request(t.http)
    .post('/api/auth/register-admin')
    .send({
      name: 'Selam Admin',
      email: `admin${++emailCounter}@beauty.et`,
      password: 'Admin@12345',
      adminSecretKey: t.config.adminSecretKey,
    })
    .expect(201);
  return res.body.token;
}

/** An order as POST /api/orders stores it: pending and unpaid, totals in santim. */
async function placeOrder(
  t: TestApp,
  customer: Customer,
  overrides: Partial<Record<string, unknown>> = {},
): Promise<string> {
  const orders = t.app.get<Model<Order>>(getModelToken(Order.name));
  const order = await orders.create({
    user: new Types.ObjectId(customer.id),
    customer: { name: 'Abebe Kebede', email: customer.email },
    orderItems: [
      {
        product: new Types.ObjectId(),
        name: 'Shea & Coffee Body Butter',
        quantity: 2,
        priceAtPurchaseSantim: 50_000,
      },
    ],
    shippingAddress: {
      street: 'Bole Road',
      city: 'Addis Ababa',
      state: 'Addis Ababa',
      zipCode: '1000',
      country: 'Ethiopia',
    },
    shippingMethod: 'standard',
    paymentMethod: 'chapa',
    subtotalSantim: 100_000,
    shippingCostSantim: 15_000,
    taxSantim: 15_000,
    totalAmountSantim: TOTAL_SANTIM,
    status: 'pending',
    paymentStatus: 'unpaid',
    ...overrides,
  });
  return String(order._id);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('payments with the offline test provider (no Chapa keys)', () => {
  let t: TestApp;
  let orders: Model<Order>;
  let payments: Model<Payment>;
  let alice: Customer;
  let bob: Customer;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_API_URL: 'https://api.shop.test', STOREFRONT_URL: 'https://shop.test' });
    orders = t.app.get(getModelToken(Order.name));
    payments = t.app.get(getModelToken(Payment.name));
    alice = await register(t);
    bob = await register(t, 'Bob Tadesse');
  });

  afterAll(async () => {
    await t.close();
  });

  it('initialises a test payment for the stored amount, tied to the order', async () => {
    const orderId = await placeOrder(t, alice);
    const res = await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId })
      .expect(201);
    const { txRef } = res.body;
    expect(txRef).toMatch(new RegExp(`^bs-${orderId}-[0-9a-f]{16}$`));
    expect(res.body).toMatchObject({
      success: true,
      provider: 'test',
      checkoutUrl: `https://api.shop.test/api/payments/test/${txRef}`,
      amount: 1300,
      currency: 'ETB',
      hostedForm: {
        action: `https://api.shop.test/api/payments/test/${txRef}`,
        fields: {
          tx_ref: txRef,
          amount: '1300.00',
          currency: 'ETB',
          email: alice.email,
          first_name: 'Abebe',
          last_name: 'Kebede',
          callback_url: 'https://api.shop.test/api/payments/callback',
          return_url: `https://shop.test/payment/return?tx_ref=${txRef}`,
        },
      },
    });
    expect((await orders.findById(orderId).lean())!.paymentReference).toBe(txRef);
    expect(await payments.findOne({ txRef }).lean()).toMatchObject({
      provider: 'test',
      amountSantim: TOTAL_SANTIM,
      currency: 'ETB',
      status: 'initialized',
    });

    const page = await request(t.http).get(`/api/payments/test/${txRef}`).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('TEST PAYMENT');
    expect(page.text).toContain('የሙከራ ክፍያ');
    expect(page.text).toContain('1300.00 ETB');
  });

  it('completes a test payment: the order is paid, and verifying again changes nothing', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = (
      await request(t.http)
        .post('/api/payments/initialize')
        .set(bearer(alice.token))
        .send({ orderId })
        .expect(201)
    ).body;
    const pending = await request(t.http)
      .get(`/api/payments/verify/${txRef}`)
      .set(bearer(alice.token))
      .expect(200);
    expect(pending.body).toMatchObject({ success: false, status: 'pending' });

    const done = await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set(bearer(alice.token))
      .send({ outcome: 'success' })
      .expect(200);
    expect(done.body).toMatchObject({
      success: true,
      status: 'paid',
      message: 'Payment Successful!',
      code: 'PAYMENT_SUCCESS',
      provider: 'test',
      returnUrl: `https://shop.test/payment/return?tx_ref=${txRef}`,
      order: { _id: orderId, paymentStatus: 'paid', totalAmount: 1300, paymentReference: txRef },
    });
    const paid = (await orders.findById(orderId).lean())!;
    expect(paid.paymentStatus).toBe('paid');
    expect(paid.paidAt).toBeInstanceOf(Date);

    const again = await request(t.http)
      .get(`/api/payments/verify/${txRef}`)
      .set(bearer(alice.token))
      .expect(200);
    expect(again.body).toMatchObject({ success: true, status: 'paid', message: 'Payment Successful!' });
    const after = (await orders.findById(orderId).lean())!;
    expect(after.paidAt!.getTime()).toBe(paid.paidAt!.getTime());
    expect(after.updatedAt.getTime()).toBe(paid.updatedAt.getTime());
    // A second choice on the test page cannot undo it.
    await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set(bearer(alice.token))
      .send({ outcome: 'failed' })
      .expect(200);
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('paid');

    const refused = await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId })
      .expect(409);
    expect(refused.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'This order has already been paid',
      code: 'ORDER_ALREADY_PAID',
      params: {},
    });
  });

  it('fails a test payment; the order stays payable with a new reference', async () => {
    const orderId = await placeOrder(t, alice);
    const first = (
      await request(t.http)
        .post('/api/payments/initialize')
        .set(bearer(alice.token))
        .send({ orderId })
        .expect(201)
    ).body.txRef;
    const failed = await request(t.http)
      .post(`/api/payments/test/${first}/complete`)
      .set(bearer(alice.token))
      .send({ outcome: 'failed' })
      .expect(200);
    expect(failed.body).toMatchObject({
      success: false,
      status: 'failed',
      message: 'Payment was not successful',
      order: { paymentStatus: 'failed' },
    });
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('failed');

    const second = (
      await request(t.http)
        .post('/api/payments/initialize')
        .set(bearer(alice.token))
        .send({ orderId })
        .expect(201)
    ).body.txRef;
    expect(second).not.toBe(first);
    // The test page's form post answers a page that returns to the shop.
    const html = await request(t.http)
      .post(`/api/payments/test/${second}/complete`)
      .set(bearer(alice.token))
      .type('form')
      .send({ outcome: 'success' })
      .expect(200);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.text).toContain('Payment Successful!');
    expect(html.text).toContain(`url=https://shop.test/payment/return?tx_ref=${second}`);
    expect((await orders.findById(orderId).lean())!).toMatchObject({
      paymentStatus: 'paid',
      paymentReference: second,
    });
  });

  it("keeps other customers and guests away from someone else's order and payment", async () => {
    const orderId = await placeOrder(t, alice);
    await request(t.http).post('/api/payments/initialize').send({ orderId }).expect(401);
    const other = await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(bob.token))
      .send({ orderId })
      .expect(404);
    expect(other.body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Order not found',
      code: 'ORDER_NOT_FOUND',
      params: {},
    });
    const { txRef } = (
      await request(t.http)
        .post('/api/payments/initialize')
        .set(bearer(alice.token))
        .send({ orderId })
        .expect(201)
    ).body;
    await request(t.http).get(`/api/payments/verify/${txRef}`).expect(401);
    const notYours = await request(t.http)
      .get(`/api/payments/verify/${txRef}`)
      .set(bearer(bob.token))
      .expect(404);
    expect(notYours.body.message).toBe('Payment reference not found');
    await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .send({ outcome: 'success' })
      .expect(401);
    await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set(bearer(bob.token))
      .send({ outcome: 'success' })
      .expect(404);
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');
    // An admin may verify any transaction.
    const admin = await registerAdmin(t);
    const byAdmin = await request(t.http).get(`/api/payments/verify/${txRef}`).set(bearer(admin)).expect(200);
    expect(byAdmin.body.status).toBe('pending');
  });

  it('refuses cancelled orders, unknown references and bad input', async () => {
    const cancelled = await placeOrder(t, alice, { status: 'cancelled' });
    const res = await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId: cancelled })
      .expect(409);
    expect(res.body.message).toBe('This order has been cancelled and cannot be paid');
    expect(await payments.countDocuments({ order: new Types.ObjectId(cancelled) })).toBe(0);

    for (const ref of ['bs-unknown-0000', 'no%20such%20ref']) {
      const unknown = await request(t.http)
        .get(`/api/payments/verify/${ref}`)
        .set(bearer(alice.token))
        .expect(404);
      expect(unknown.body).toEqual({
        success: false,
        statusCode: 404,
        message: 'Payment reference not found',
        code: 'PAYMENT_NOT_FOUND',
        params: {},
      });
    }
    await request(t.http).get('/api/payments/test/bs-unknown-0000').expect(404);

    await request(t.http).post('/api/payments/initialize').set(bearer(alice.token)).send({}).expect(400);
    await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId: 'nope' })
      .expect(400);
    await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId: { $ne: null } })
      .expect(400);
    await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId: cancelled, amount: 1 })
      .expect(400);
    await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId: new Types.ObjectId().toHexString() })
      .expect(404);
    const orderId = await placeOrder(t, alice);
    const { txRef } = (
      await request(t.http)
        .post('/api/payments/initialize')
        .set(bearer(alice.token))
        .send({ orderId })
        .expect(201)
    ).body;
    await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set(bearer(alice.token))
      .send({ outcome: 'maybe' })
      .expect(400);
    await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set(bearer(alice.token))
      .send({ outcome: { $ne: 'x' } })
      .expect(400);
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');
  });

  it('refuses webhooks when no webhook secret is configured', async () => {
    const res = await request(t.http)
      .post('/api/payments/webhook')
      .set('Content-Type', 'application/json')
      .send('{"tx_ref":"x"}')
      .expect(401);
    expect(res.body).toMatchObject({ success: false, statusCode: 401 });
  });
});

describe('payments through Chapa (local stub)', () => {
  const SECRET = 'CHASECK_TEST-stubsecretkey0123456789';
  const PUBLIC = 'CHAPUBK_TEST-stubpublickey0123456789';
  const WEBHOOK_SECRET = 'webhook-secret-hash-for-tests';
  let stub: ChapaStub;
  let t: TestApp;
  let orders: Model<Order>;
  let payments: Model<Payment>;
  let audit: Model<AuditEntry>;
  let alice: Customer;

  const initialize = async (orderId: string, customer = alice) =>
    (
      await request(t.http)
        .post('/api/payments/initialize')
        .set(bearer(customer.token))
        .send({ orderId })
        .expect(201)
    ).body;
  const verify = (txRef: string, customer = alice) =>
    request(t.http).get(`/api/payments/verify/${txRef}`).set(bearer(customer.token));
  const deliver = (hook: { body: string; headers: Record<string, string> }) =>
    request(t.http).post('/api/payments/webhook').set(hook.headers).send(hook.body);
  const verifyCalls = (txRef: string) =>
    stub.requests.filter((r) => r.path === `/v1/transaction/verify/${txRef}`).length;

  beforeAll(async () => {
    stub = await startChapaStub({ secretKey: SECRET, webhookSecret: WEBHOOK_SECRET });
    t = await startTestApp({
      CHAPA_SECRET_KEY: SECRET,
      CHAPA_PUBLIC_KEY: PUBLIC,
      CHAPA_WEBHOOK_SECRET: WEBHOOK_SECRET,
      CHAPA_BASE_URL: stub.url,
      PUBLIC_API_URL: 'https://api.shop.test',
      STOREFRONT_URL: 'https://shop.test',
    });
    orders = t.app.get(getModelToken(Order.name));
    payments = t.app.get(getModelToken(Payment.name));
    audit = t.app.get(getModelToken(AuditEntry.name));
    alice = await register(t);
  });

  afterEach(() => {
    stub.mode = 'ok';
  });

  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it("initialises the transaction with Chapa as documented and returns the hosted form's values", async () => {
    const orderId = await placeOrder(t, alice);
    const body = await initialize(orderId);
    const call = stub.requests.find(
      (r) => r.path === '/v1/transaction/initialize' && r.body?.tx_ref === body.txRef,
    )!;
    expect(call.method).toBe('POST');
    expect(call.authorization).toBe(`Bearer ${SECRET}`);
    expect(call.body).toMatchObject({
      amount: '1300.00',
      currency: 'ETB',
      email: alice.email,
      first_name: 'Abebe',
      last_name: 'Kebede',
      tx_ref: body.txRef,
      callback_url: 'https://api.shop.test/api/payments/callback',
      return_url: `https://shop.test/payment/return?tx_ref=${body.txRef}`,
    });
    expect((call.body!.customization as { title: string }).title.length).toBeLessThanOrEqual(16);
    expect(body.provider).toBe('chapa');
    expect(body.checkoutUrl).toMatch(new RegExp(`^${stub.url}/checkout/payment/`));
    expect(body.hostedForm.action).toBe('https://api.chapa.co/v1/hosted/pay');
    expect(body.hostedForm.fields).toMatchObject({
      public_key: PUBLIC,
      tx_ref: body.txRef,
      amount: '1300.00',
      currency: 'ETB',
    });
  });

  it('marks the order paid only after Chapa confirms success; verifying twice changes nothing', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    const before = await verify(txRef).expect(200);
    expect(before.body).toMatchObject({ success: false, status: 'pending' });
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');

    stub.settle(txRef, 'success');
    const paid = await verify(txRef).expect(200);
    expect(paid.body).toMatchObject({
      success: true,
      status: 'paid',
      message: 'Payment Successful!',
      provider: 'chapa',
      order: { _id: orderId, paymentStatus: 'paid' },
    });
    const order = (await orders.findById(orderId).lean())!;
    const calls = verifyCalls(txRef);

    const again = await verify(txRef).expect(200);
    expect(again.body).toMatchObject({ success: true, status: 'paid', message: 'Payment Successful!' });
    const after = (await orders.findById(orderId).lean())!;
    expect(after.updatedAt.getTime()).toBe(order.updatedAt.getTime());
    expect(verifyCalls(txRef)).toBe(calls);
    expect(await audit.countDocuments({ entityId: orderId, action: 'order.paymentStatus', to: 'paid' })).toBe(
      1,
    );
    // the audit log says what marked it paid: the check when the customer came back
    expect(
      (await audit.findOne({ entityId: orderId, action: 'order.paymentStatus', to: 'paid' }).lean())!.source,
    ).toBe('verify');
    expect((await payments.findOne({ txRef }).lean())!.providerReference).toBe(
      stub.transactions.get(txRef)!.reference,
    );
  });

  it('reports a declined payment and lets the customer try again', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'failed');
    const res = await verify(txRef).expect(200);
    expect(res.body).toMatchObject({
      success: false,
      status: 'failed',
      message: 'Payment was not successful',
      order: { paymentStatus: 'failed' },
    });
    const retry = await initialize(orderId);
    stub.settle(retry.txRef, 'success');
    expect((await verify(retry.txRef).expect(200)).body.status).toBe('paid');
    // The old failed attempt stays failed and does not touch the paid order.
    expect((await verify(txRef).expect(200)).body.status).toBe('failed');
    expect((await orders.findById(orderId).lean())!).toMatchObject({
      paymentStatus: 'paid',
      paymentReference: retry.txRef,
    });
  });

  it('refuses a success whose amount differs from the order', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'success', { amount: 13 });
    const res = await verify(txRef).expect(200);
    expect(res.body).toMatchObject({
      success: false,
      status: 'failed',
      message: 'Payment verification failed',
    });
    expect((await orders.findById(orderId).lean())!.paymentStatus).not.toBe('paid');
    expect((await payments.findOne({ txRef }).lean())!.failureReason).toBe('amount_mismatch');
  });

  it('refuses a success in another currency', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'success', { currency: 'USD' });
    const res = await verify(txRef).expect(200);
    expect(res.body).toMatchObject({
      success: false,
      status: 'failed',
      message: 'Payment verification failed',
    });
    expect((await orders.findById(orderId).lean())!.paymentStatus).not.toBe('paid');
    expect((await payments.findOne({ txRef }).lean())!.failureReason).toBe('currency_mismatch');
  });

  it('rejects webhooks with a missing or wrong signature, changing nothing', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'success');
    const hook = stub.webhook(txRef);
    const missing = await request(t.http)
      .post('/api/payments/webhook')
      .set('Content-Type', 'application/json')
      .send(hook.body)
      .expect(401);
    expect(missing.body).toEqual({
      success: false,
      statusCode: 401,
      message: 'Invalid webhook signature',
      code: 'INVALID_WEBHOOK_SIGNATURE',
      params: {},
    });
    await deliver(stub.webhook(txRef, { secret: 'not-the-secret' })).expect(401);
    // A valid signature over another body does not cover a tampered one.
    await deliver({ headers: hook.headers, body: hook.body.replace('"success"', '"successful"') }).expect(
      401,
    );
    await deliver({
      headers: { ...hook.headers, 'x-chapa-signature': 'zz', 'chapa-signature': 'zz' },
      body: hook.body,
    }).expect(401);
    expect(verifyCalls(txRef)).toBe(0);
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');
    expect((await payments.findOne({ txRef }).lean())!.status).toBe('initialized');
  });

  it('marks the order paid once when the webhook is delivered twice', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'success');
    const hook = stub.webhook(txRef);
    const first = await deliver(hook).expect(200);
    expect(first.body).toEqual({ received: true, processed: true });
    const paid = (await orders.findById(orderId).lean())!;
    expect(paid.paymentStatus).toBe('paid');
    const second = await deliver(hook).expect(200);
    expect(second.body).toEqual({ received: true, processed: false });
    // the audit log says what marked it paid: Chapa's webhook
    expect(
      (await audit.findOne({ entityId: orderId, action: 'order.paymentStatus', to: 'paid' }).lean())!.source,
    ).toBe('webhook');
    const after = (await orders.findById(orderId).lean())!;
    expect(after.paidAt!.getTime()).toBe(paid.paidAt!.getTime());
    expect(await audit.countDocuments({ entityId: orderId, action: 'order.paymentStatus', to: 'paid' })).toBe(
      1,
    );
    // the audit log says what marked it paid: Chapa's webhook
    expect(
      (await audit.findOne({ entityId: orderId, action: 'order.paymentStatus', to: 'paid' }).lean())!.source,
    ).toBe('webhook');
    const payment = (await payments.findOne({ txRef }).lean())!;
    expect(payment.events.filter((e) => e.processed)).toHaveLength(1);
    expect(payment.events.filter((e) => e.source === 'webhook')).toHaveLength(2);
    expect(verifyCalls(txRef)).toBe(1);
  });

  it('accepts the signature under chapa-signature alone, and still asks Chapa before marking paid', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    // Chapa has not confirmed: a signed "success" webhook alone never marks the order paid.
    const early = await deliver(stub.webhook(txRef, { header: 'chapa-signature' })).expect(200);
    expect(early.body).toEqual({ received: true, processed: false });
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');
    stub.settle(txRef, 'success');
    await deliver(stub.webhook(txRef, { header: 'chapa-signature' })).expect(200);
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('paid');
  });

  it('offers no test checkout while Chapa is configured', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    await request(t.http).get(`/api/payments/test/${txRef}`).expect(404);
    await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set(bearer(alice.token))
      .send({ outcome: 'success' })
      .expect(404);
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');
  });

  it('acknowledges webhooks for unknown references without changing anything', async () => {
    const res = await deliver(stub.webhook('bs-000000000000000000000000-0000000000000000')).expect(200);
    expect(res.body).toEqual({ received: true, processed: false });
  });

  it("verifies through Chapa's callback URL without revealing the order", async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'success');
    const res = await request(t.http)
      .get(`/api/payments/callback?trx_ref=${txRef}&ref_id=APx&status=success`)
      .expect(200);
    expect(res.body).toEqual({
      success: true,
      status: 'paid',
      message: 'Payment Successful!',
      code: 'PAYMENT_SUCCESS',
      txRef,
      provider: 'chapa',
    });
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('paid');
    await request(t.http).get('/api/payments/callback?trx_ref=unknown-ref').expect(404);
    await request(t.http).get('/api/payments/callback').expect(404);
  });

  it('flags a payment for an order cancelled meanwhile for refund, never paid', async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    await orders.updateOne({ _id: orderId }, { $set: { status: 'cancelled' } });
    stub.settle(txRef, 'success');
    const res = await verify(txRef).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      status: 'refund_pending',
      order: { status: 'cancelled', paymentStatus: 'refund_pending' },
    });
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('refund_pending');
    expect((await payments.findOne({ txRef }).lean())!.refundRequired).toBe(true);
    expect((await verify(txRef).expect(200)).body.status).toBe('refund_pending');
  });

  it("answers 404 for another customer's transaction and for unknown references", async () => {
    const bob = await register(t, 'Bob Tadesse');
    const orderId = await placeOrder(t, alice);
    await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(bob.token))
      .send({ orderId })
      .expect(404);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'success');
    expect((await verify(txRef, bob).expect(404)).body.message).toBe('Payment reference not found');
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');
    expect((await verify('bs-nothing-here').expect(404)).body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Payment reference not found',
      code: 'PAYMENT_NOT_FOUND',
      params: {},
    });
  });

  it("answers 'Payment verification error' when Chapa is down, and settles later", async () => {
    const orderId = await placeOrder(t, alice);
    const { txRef } = await initialize(orderId);
    stub.settle(txRef, 'success');
    stub.mode = 'hangup';
    const unreachable = await verify(txRef).expect(503);
    expect(unreachable.body).toEqual({
      success: false,
      statusCode: 503,
      message: 'Payment verification error',
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
      params: {},
    });
    stub.mode = 'error500';
    expect((await verify(txRef).expect(503)).body.message).toBe('Payment verification error');
    // The webhook is acknowledged anyway; nothing changes until Chapa answers.
    expect((await deliver(stub.webhook(txRef)).expect(200)).body).toEqual({
      received: true,
      processed: false,
    });
    expect((await orders.findById(orderId).lean())!.paymentStatus).toBe('unpaid');
    stub.mode = 'ok';
    expect((await verify(txRef).expect(200)).body.status).toBe('paid');
  });

  it('answers 503 and keeps the order payable when Chapa cannot initialise', async () => {
    const orderId = await placeOrder(t, alice);
    stub.mode = 'error500';
    const res = await request(t.http)
      .post('/api/payments/initialize')
      .set(bearer(alice.token))
      .send({ orderId })
      .expect(503);
    expect(res.body).toMatchObject({ success: false, statusCode: 503 });
    expect(await payments.findOne({ order: new Types.ObjectId(orderId) }).lean()).toMatchObject({
      status: 'failed',
      failureReason: 'initialize_failed',
    });
    stub.mode = 'ok';
    await initialize(orderId);
  });

  it('pays an order placed through the orders API, and flags one cancelled before the money arrived', async () => {
    const admin = await registerAdmin(t);
    const product = (
      await request(t.http)
        .post('/api/products')
        .set(bearer(admin))
        .send({ name: 'Teff Body Scrub', price: 420.5, stock: 10 })
        .expect(201)
    ).body.product._id as string;
    const shippingAddress = {
      street: 'Bole Road',
      city: 'Addis Ababa',
      state: 'Addis Ababa',
      zipCode: '1000',
      country: 'Ethiopia',
    };
    const placeThroughApi = async () => {
      await request(t.http)
        .post('/api/cart/add')
        .set(bearer(alice.token))
        .send({ productId: product, quantity: 2 })
        .expect(200);
      return (
        await request(t.http)
          .post('/api/orders')
          .set(bearer(alice.token))
          .send({ shippingAddress, paymentMethod: 'chapa' })
          .expect(201)
      ).body.order;
    };

    const order = await placeThroughApi();
    const paying = await initialize(order._id);
    expect(paying.hostedForm.fields.amount).toBe(order.totalAmount.toFixed(2));
    expect(stub.transactions.get(paying.txRef)!.amount).toBe(order.totalAmount.toFixed(2));
    stub.settle(paying.txRef, 'success');
    await deliver(stub.webhook(paying.txRef)).expect(200);
    const mine = await request(t.http).get(`/api/orders/${order._id}`).set(bearer(alice.token)).expect(200);
    expect(mine.body).toMatchObject({ paymentStatus: 'paid', status: 'pending' });

    const cancelled = await placeThroughApi();
    const late = await initialize(cancelled._id);
    await request(t.http).patch(`/api/orders/${cancelled._id}/cancel`).set(bearer(alice.token)).expect(200);
    stub.settle(late.txRef, 'success');
    await deliver(stub.webhook(late.txRef)).expect(200);
    const after = (await orders.findById(cancelled._id).lean())!;
    expect(after).toMatchObject({ status: 'cancelled', paymentStatus: 'refund_pending' });
  });

  it('re-verifies forgotten payments: a customer who never came back is still marked paid', async () => {
    const service = t.app.get(PaymentReverification);
    const forgotten = await placeOrder(t, alice);
    const declined = await placeOrder(t, alice);
    const { txRef: paidRef } = await initialize(forgotten);
    const { txRef: failedRef } = await initialize(declined);
    stub.settle(paidRef, 'success');
    stub.settle(failedRef, 'failed');

    // Too young for a one-hour threshold: left alone.
    await service.reverifyPending(60 * 60 * 1000);
    expect((await orders.findById(forgotten).lean())!.paymentStatus).toBe('unpaid');
    expect(verifyCalls(paidRef)).toBe(0);

    const report = await service.reverifyPending(0);
    expect(report.paid).toBeGreaterThanOrEqual(1);
    expect(report.failed).toBeGreaterThanOrEqual(1);
    expect(report.errors).toBe(0);
    expect((await orders.findById(forgotten).lean())!.paymentStatus).toBe('paid');
    expect((await orders.findById(declined).lean())!.paymentStatus).toBe('failed');
    // the audit log names the re-check as what changed both payment states
    const entries = await audit.find({ entityId: { $in: [forgotten, declined] } }).lean();
    expect(entries.map((e) => [e.to, e.source]).sort()).toEqual([
      ['failed', 'reverify'],
      ['paid', 'reverify'],
    ]);
    expect((await payments.findOne({ txRef: paidRef }).lean())!.events.find((e) => e.processed)!.source).toBe(
      'reverify',
    );

    // Settled transactions are not asked again.
    const calls = verifyCalls(paidRef);
    await service.reverifyPending(0);
    expect(verifyCalls(paidRef)).toBe(calls);
  });
});

describe('re-verification schedule', () => {
  it('runs every 10 minutes by default, never in tests unless asked, and 0 turns it off', () => {
    expect(reverifyIntervalMs({}, 'production')).toBe(600_000);
    expect(reverifyIntervalMs({}, 'development')).toBe(600_000);
    expect(reverifyIntervalMs({}, 'test')).toBe(0);
    expect(reverifyIntervalMs({ PAYMENT_REVERIFY_INTERVAL_MS: '30000' }, 'test')).toBe(30_000);
    expect(reverifyIntervalMs({ PAYMENT_REVERIFY_INTERVAL_MS: '0' }, 'production')).toBe(0);
    expect(reverifyIntervalMs({ PAYMENT_REVERIFY_INTERVAL_MS: 'often' }, 'production')).toBe(600_000);
  });
});
