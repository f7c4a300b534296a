import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { AuditEntry } from '../src/modules/audit/schemas/audit-entry.schema';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startChapaStub, type ChapaStub } from './support/chapa-stub';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Fulfilment follows payment, refunds and internal notes
 * (docs/decisions/0080-fulfilment-refunds-notes.md), on the real engine.
 */
function shop(env: () => Record<string, string>) {
  const ctx = {
    t: undefined as unknown as TestApp,
    admin: '',
    outbox: undefined as unknown as Model<Notification>,
    audit: undefined as unknown as Model<AuditEntry>,
  };
  const newCustomer = customerFactory(
    () => ctx.t,
    `fr${Math.random().toString(36).slice(2, 6)}`,
    'Refund Customer',
  );
  const addis = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa' };

  /** A customer's order of one fresh product at `price` (Chapa by default), placed through the cart. */
  const order = async (paymentMethod = 'chapa', price = 300, language?: string) => {
    const customer = await newCustomer();
    if (language)
      await request(ctx.t.http)
        .put('/api/users/profile')
        .set(auth(customer.token))
        .send({ language })
        .expect(200);
    const product = await request(ctx.t.http)
      .post('/api/products')
      .set(auth(ctx.admin))
      .send({
        brand: 'Habesha Naturals',
        name: `Refund Soap ${Math.random().toString(36).slice(2, 8)}`,
        price,
        stock: 9,
      })
      .expect(201);
    await request(ctx.t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId: product.body.product._id, quantity: 1 })
      .expect(200);
    const placed = await request(ctx.t.http)
      .post('/api/orders')
      .set(auth(customer.token))
      .send({ shippingAddress: addis, paymentMethod })
      .expect(201);
    return {
      ...customer,
      order: placed.body.order as { _id: string; totalAmount: number; orderNumber: string },
    };
  };
  const status = (token: string, id: string, to: string) =>
    request(ctx.t.http).put(`/api/admin/orders/${id}/status`).set(auth(token)).send({ status: to });
  const refund = (token: string, id: string, body: Record<string, unknown>) =>
    request(ctx.t.http).post(`/api/admin/orders/${id}/refunds`).set(auth(token)).send(body);
  const note = (token: string, id: string, text: unknown) =>
    request(ctx.t.http).post(`/api/admin/orders/${id}/notes`).set(auth(token)).send({ text });

  beforeAll(async () => {
    ctx.t = await startTestApp(env());
    await ctx.t.app.get(SeedService).seed();
    ctx.admin = await loginAs(ctx.t, DEMO_ACCOUNTS.admin);
    ctx.outbox = ctx.t.app.get(getModelToken(Notification.name));
    ctx.audit = ctx.t.app.get(getModelToken(AuditEntry.name));
  });
  afterAll(async () => {
    await ctx.t.close();
  });
  return { ctx, order, status, refund, note };
}

describe('fulfilment, refunds and notes (test provider)', () => {
  const { ctx, order, status, refund, note } = shop(() => ({}));

  /** Pays (or fails) the order's payment on the test provider's checkout. */
  const settle = async (token: string, orderId: string, outcome: 'success' | 'failed') => {
    const init = await request(ctx.t.http)
      .post('/api/payments/initialize')
      .set(auth(token))
      .send({ orderId })
      .expect(201);
    await request(ctx.t.http)
      .post(`/api/payments/test/${init.body.txRef}/complete`)
      .set(auth(token))
      .send({ outcome })
      .expect(200);
  };

  it('refuses processing for a failed or unpaid Chapa order with ORDER_NOT_PAID on both routes; COD and paid orders may', async () => {
    const failed = await order();
    await settle(failed.token, failed.order._id, 'failed');
    const refused = await status(ctx.admin, failed.order._id, 'processing').expect(409);
    expect(refused.body).toMatchObject({
      code: 'ORDER_NOT_PAID',
      message: 'This order is not paid yet',
      params: { paymentStatus: 'failed', paymentMethod: 'chapa' },
    });
    const patch = await request(ctx.t.http)
      .patch(`/api/orders/${failed.order._id}/status`)
      .set(auth(ctx.admin))
      .send({ status: 'processing' })
      .expect(409);
    expect(patch.body.code).toBe('ORDER_NOT_PAID');

    const unpaid = await order();
    expect((await status(ctx.admin, unpaid.order._id, 'processing').expect(409)).body.code).toBe(
      'ORDER_NOT_PAID',
    );
    const still = await request(ctx.t.http)
      .get(`/api/admin/orders/${unpaid.order._id}`)
      .set(auth(ctx.admin))
      .expect(200);
    expect(still.body).toMatchObject({ status: 'pending', paymentStatus: 'unpaid' });
    // cancelling stays allowed
    await status(ctx.admin, unpaid.order._id, 'cancelled').expect(200);

    const cod = await order('cash_on_delivery');
    await status(ctx.admin, cod.order._id, 'processing').expect(200);
    const shipped = await status(ctx.admin, cod.order._id, 'shipped').expect(200);
    expect(shipped.body).toMatchObject({
      success: true,
      order: { status: 'shipped', paymentStatus: 'unpaid' },
    });

    const paid = await order();
    await settle(paid.token, paid.order._id, 'success');
    await status(ctx.admin, paid.order._id, 'processing').expect(200);
  });

  it('records a part then the rest: partially_refunded → refunded, net revenue, the customer told in Amharic, refused twice and above the paid amount', async () => {
    const before = (
      await request(ctx.t.http).get('/api/admin/dashboard/stats').set(auth(ctx.admin)).expect(200)
    ).body;
    const c = await order('chapa', 300, 'am');
    await settle(c.token, c.order._id, 'success');
    const total = c.order.totalAmount; // 300 + 150 shipping + 45 VAT
    expect(total).toBe(495);
    const paidDash = (
      await request(ctx.t.http).get('/api/admin/dashboard/stats').set(auth(ctx.admin)).expect(200)
    ).body;
    const revenue = (body: Record<string, unknown>) =>
      ((body.stats ?? body) as { totalRevenue: number }).totalRevenue;
    expect(revenue(paidDash) - revenue(before)).toBeCloseTo(495, 2);

    // customers may not
    await refund(c.token, c.order._id, { amount: 10, reason: 'x', method: 'manual', reference: 'R1' }).expect(
      403,
    );
    // bad input
    await refund(ctx.admin, c.order._id, {
      amount: 10,
      reason: '',
      method: 'manual',
      reference: 'R1',
    }).expect(400);
    await refund(ctx.admin, c.order._id, {
      amount: -5,
      reason: 'x',
      method: 'manual',
      reference: 'R1',
    }).expect(400);
    await refund(ctx.admin, c.order._id, { amount: 10, reason: 'x', method: 'cash', reference: 'R1' }).expect(
      400,
    );
    const noRef = await refund(ctx.admin, c.order._id, { amount: 10, reason: 'x', method: 'manual' }).expect(
      400,
    );
    expect(noRef.body.errors[0].field).toBe('reference');
    const above = await refund(ctx.admin, c.order._id, {
      amount: 495.01,
      reason: 'x',
      method: 'manual',
      reference: 'R1',
    }).expect(409);
    expect(above.body).toMatchObject({ code: 'REFUND_EXCEEDS_PAID', params: { refundable: 495 } });

    const part = await refund(ctx.admin, c.order._id, {
      amount: 100,
      reason: 'One jar arrived broken',
      method: 'manual',
      reference: 'TeleBirr 7788',
    }).expect(200);
    expect(part.body.order).toMatchObject({ paymentStatus: 'partially_refunded', refunded: 100 });
    expect(part.body.order.refunds).toEqual([
      expect.objectContaining({
        amount: 100,
        reason: 'One jar arrived broken',
        method: 'manual',
        reference: 'TeleBirr 7788',
        byName: expect.any(String),
      }),
    ]);
    const refundId = part.body.order.refunds[0]._id;
    const message = await ctx.outbox
      .findOne({ eventKey: `payment.refunded:${c.order._id}:${refundId}` })
      .lean();
    expect(message).toMatchObject({ channel: 'email', template: 'refunded', language: 'am' });
    expect(message!.subject).toMatch(/ተመላሽ/);
    expect(message!.text).toMatch(/100\.00/);
    const partDash = (
      await request(ctx.t.http).get('/api/admin/dashboard/stats').set(auth(ctx.admin)).expect(200)
    ).body;
    expect(revenue(partDash) - revenue(before)).toBeCloseTo(395, 2);

    // more than what is left (395)
    const overRest = await refund(ctx.admin, c.order._id, {
      amount: 395.5,
      reason: 'x',
      method: 'manual',
      reference: 'R2',
    }).expect(409);
    expect(overRest.body).toMatchObject({ code: 'REFUND_EXCEEDS_PAID', params: { refundable: 395 } });
    // the rest through the provider (the test provider stands in for Chapa's refund API)
    const rest = await refund(ctx.admin, c.order._id, {
      amount: 395,
      reason: 'Customer returned the rest',
      method: 'chapa',
    }).expect(200);
    expect(rest.body.order).toMatchObject({ paymentStatus: 'refunded', refunded: 495 });
    expect(rest.body.order.refunds[1].reference).toMatch(/^test-refund-RF-/);
    const again = await refund(ctx.admin, c.order._id, {
      amount: 1,
      reason: 'x',
      method: 'manual',
      reference: 'R3',
    }).expect(409);
    expect(again.body.code).toBe('NOT_REFUNDABLE');
    const fullDash = (
      await request(ctx.t.http).get('/api/admin/dashboard/stats').set(auth(ctx.admin)).expect(200)
    ).body;
    expect(revenue(fullDash) - revenue(before)).toBeCloseTo(0, 2);

    const trail = await ctx.audit
      .find({ entityId: c.order._id, action: 'order.refund' })
      .sort({ _id: 1 })
      .lean();
    expect(trail.map((e) => e.to)).toEqual([
      expect.objectContaining({ paymentStatus: 'partially_refunded', amount: 100, method: 'manual' }),
      expect.objectContaining({ paymentStatus: 'refunded', amount: 395, method: 'chapa' }),
    ]);
    expect(trail[0].actorEmail).toBe(DEMO_ACCOUNTS.admin.email);

    // the customer sees the refunded amount, not the staff's refund records
    const mine = await request(ctx.t.http).get(`/api/orders/${c.order._id}`).set(auth(c.token)).expect(200);
    const shown = mine.body.order ?? mine.body;
    expect(shown).toMatchObject({ paymentStatus: 'refunded', refunded: 495 });
    expect(shown.refunds).toBeUndefined();
  });

  it('completes a cancelled paid order’s refund_pending, and refuses unpaid orders and Chapa refunds of pay-on-delivery orders', async () => {
    const c = await order();
    await settle(c.token, c.order._id, 'success');
    const cancelled = await status(ctx.admin, c.order._id, 'cancelled').expect(200);
    expect(cancelled.body.order.paymentStatus).toBe('refund_pending');
    const done = await refund(ctx.admin, c.order._id, {
      amount: 495,
      reason: 'Cancelled by the shop',
      method: 'manual',
      reference: 'CBE 1234',
    }).expect(200);
    expect(done.body.order.paymentStatus).toBe('refunded');

    const unpaid = await order();
    const refused = await refund(ctx.admin, unpaid.order._id, {
      amount: 1,
      reason: 'x',
      method: 'manual',
      reference: 'R',
    }).expect(409);
    expect(refused.body.code).toBe('NOT_REFUNDABLE');

    const cod = await order('cash_on_delivery');
    await request(ctx.t.http)
      .post(`/api/admin/orders/${cod.order._id}/payment/collected`)
      .set(auth(ctx.admin))
      .send({})
      .expect(200);
    const viaChapa = await refund(ctx.admin, cod.order._id, {
      amount: 10,
      reason: 'x',
      method: 'chapa',
    }).expect(409);
    expect(viaChapa.body.code).toBe('REFUND_METHOD_UNAVAILABLE');
    await refund(ctx.admin, cod.order._id, {
      amount: 10,
      reason: 'Late',
      method: 'manual',
      reference: 'cash',
    }).expect(200);
    await refund(ctx.admin, '0123456789abcdef01234567', {
      amount: 1,
      reason: 'x',
      method: 'manual',
      reference: 'R',
    }).expect(404);
  });

  it('keeps internal notes for staff only, with author and time, audited', async () => {
    const c = await order();
    await note(c.token, c.order._id, 'mine').expect(403);
    await note(ctx.admin, c.order._id, '   ').expect(400);
    await note(ctx.admin, c.order._id, 42).expect(400);
    await note(ctx.admin, '0123456789abcdef01234567', 'x').expect(404);
    const added = await note(ctx.admin, c.order._id, 'Customer asked to deliver after 5 pm').expect(201);
    expect(added.body.order.notes).toEqual([
      expect.objectContaining({
        text: 'Customer asked to deliver after 5 pm',
        byName: expect.any(String),
        at: expect.any(String),
      }),
    ]);
    const staff = await request(ctx.t.http)
      .get(`/api/admin/orders/${c.order._id}`)
      .set(auth(ctx.admin))
      .expect(200);
    expect(staff.body.notes).toHaveLength(1);
    const mine = await request(ctx.t.http).get(`/api/orders/${c.order._id}`).set(auth(c.token)).expect(200);
    expect(JSON.stringify(mine.body)).not.toContain('deliver after 5 pm');
    const list = await request(ctx.t.http).get('/api/orders/my-orders').set(auth(c.token));
    expect(JSON.stringify(list.body)).not.toContain('deliver after 5 pm');
    const trail = await ctx.audit.findOne({ entityId: c.order._id, action: 'order.note' }).lean();
    expect(trail).toMatchObject({
      to: { text: 'Customer asked to deliver after 5 pm' },
      actorEmail: DEMO_ACCOUNTS.admin.email,
    });
  });
});

describe('refunds through Chapa (local stub)', () => {
  const SECRET = 'CHASECK_TEST-stubsecretkey0123456789';
  let stub: ChapaStub;
  beforeAll(async () => {
    stub = await startChapaStub({ secretKey: SECRET, webhookSecret: 'webhook-secret-hash-for-tests' });
  });
  const { ctx, order, refund } = shop(() => ({
    CHAPA_SECRET_KEY: SECRET,
    CHAPA_PUBLIC_KEY: 'CHAPUBK_TEST-stubpublickey0123456789',
    CHAPA_WEBHOOK_SECRET: 'webhook-secret-hash-for-tests',
    CHAPA_BASE_URL: stub.url,
  }));
  afterAll(async () => {
    await stub.close();
  });

  it('calls POST /v1/refund/{tx_ref} with reason, amount and reference; a refusal changes nothing', async () => {
    const c = await order();
    const init = await request(ctx.t.http)
      .post('/api/payments/initialize')
      .set(auth(c.token))
      .send({ orderId: c.order._id })
      .expect(201);
    stub.settle(init.body.txRef, 'success');
    await request(ctx.t.http).get(`/api/payments/verify/${init.body.txRef}`).set(auth(c.token)).expect(200);

    const done = await refund(ctx.admin, c.order._id, {
      amount: 95,
      reason: 'Wrong shade',
      method: 'chapa',
    }).expect(200);
    const call = stub.requests.find((r) => r.method === 'POST' && r.path === `/v1/refund/${init.body.txRef}`);
    expect(call).toMatchObject({
      authorization: `Bearer ${SECRET}`,
      body: { reason: 'Wrong shade', amount: '95.00', reference: expect.stringMatching(/^RF-/) },
    });
    expect(done.body.order).toMatchObject({ paymentStatus: 'partially_refunded', refunded: 95 });
    expect(done.body.order.refunds[0].reference).toMatch(/^RF[0-9a-f]{10}$/);

    // Chapa down: 503, nothing recorded
    stub.mode = 'error500';
    await refund(ctx.admin, c.order._id, { amount: 5, reason: 'x', method: 'chapa' }).expect(503);
    stub.mode = 'ok';
    const after = await request(ctx.t.http)
      .get(`/api/admin/orders/${c.order._id}`)
      .set(auth(ctx.admin))
      .expect(200);
    expect(after.body).toMatchObject({ paymentStatus: 'partially_refunded', refunded: 95 });
    expect(after.body.refunds).toHaveLength(1);
  });
});
