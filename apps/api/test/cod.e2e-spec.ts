import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { AuditEntry } from '../src/modules/audit/schemas/audit-entry.schema';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

/** Pay on delivery (docs/decisions/0061-pay-on-delivery.md), on the real engine. */
describe('pay on delivery', () => {
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;
  let outbox: Model<Notification>;
  let audit: Model<AuditEntry>;
  const newCustomer = customerFactory(() => t, 'cod', 'Cod Customer');

  const addis = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa' };
  const adama = { street: 'Main Street 4', city: 'Adama', state: 'Oromia' };

  const makeProduct = async (name: string, price: number, stock: number) => {
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ brand: 'Habesha Naturals', name, price, stock })
      .expect(201);
    return res.body.product._id as string;
  };
  const add = (token: string, productId: string, quantity = 1) =>
    request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity }).expect(200);
  const place = (token: string, shippingAddress = addis, paymentMethod = 'cash_on_delivery') =>
    request(t.http).post('/api/orders').set(auth(token)).send({ shippingAddress, paymentMethod });
  const stockOf = async (id: string) => (await products.findById(id).lean())!.stock;
  const cartCount = async (token: string) =>
    (await request(t.http).get('/api/cart').set(auth(token)).expect(200)).body.itemCount as number;
  const saveCod = (cashOnDelivery: Record<string, unknown>) =>
    request(t.http).put('/api/admin/settings').set(auth(admin)).send({ cashOnDelivery });
  const collect = (token: string, id: string, body: Record<string, unknown> = {}) =>
    request(t.http).post(`/api/admin/orders/${id}/payment/collected`).set(auth(token)).send(body);

  /** A customer with `quantity` of a fresh product in the cart. */
  const shopper = async (price = 300, stock = 5, quantity = 1) => {
    const customer = await newCustomer();
    const product = await makeProduct(`Cod Soap ${Math.random().toString(36).slice(2, 8)}`, price, stock);
    await add(customer.token, product, quantity);
    return { ...customer, product };
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    products = t.app.get(getModelToken(Product.name));
    outbox = t.app.get(getModelToken(Notification.name));
    audit = t.app.get(getModelToken(AuditEntry.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('is offered by default in Addis Ababa and Dire Dawa up to ETB 10,000, in the public and admin settings', async () => {
    const expected = { enabled: true, regions: ['Addis Ababa', 'Dire Dawa'], maxOrderTotal: 10000 };
    const pub = await request(t.http).get('/api/settings/public').expect(200);
    expect(pub.body.settings.cashOnDelivery).toEqual(expected);
    const adm = await request(t.http).get('/api/admin/settings').set(auth(admin)).expect(200);
    expect(adm.body.settings.cashOnDelivery).toEqual(expected);
  });

  it('validates the settings: known regions only, maxOrderTotal ≥ 0; nothing saved on a refusal', async () => {
    const unknown = await saveCod({ regions: ['Addis Ababa', 'Atlantis'] }).expect(400);
    expect(unknown.body.errors.map((e: { field: string }) => e.field)).toContain('cashOnDelivery.regions');
    await saveCod({ maxOrderTotal: -1 }).expect(400);
    await saveCod({ enabled: 'yes' }).expect(400);
    const adm = await request(t.http).get('/api/admin/settings').set(auth(admin)).expect(200);
    expect(adm.body.settings.cashOnDelivery.regions).toEqual(['Addis Ababa', 'Dire Dawa']);
    // an Amharic name or a code is stored as the English name; a field left out keeps its value
    const saved = await saveCod({ regions: ['አዲስ አበባ', 'DD', 'Harari'] }).expect(200);
    expect(saved.body.settings.cashOnDelivery).toEqual({
      enabled: true,
      regions: ['Addis Ababa', 'Dire Dawa', 'Harari'],
      maxOrderTotal: 10000,
    });
    await saveCod({ regions: ['Addis Ababa', 'Dire Dawa'] }).expect(200);
  });

  it('places a pay-on-delivery order confirmed at once: stock reserved, unpaid, "Pay on delivery: ETB X" in its message', async () => {
    const c = await shopper(300, 5, 2);
    const res = await place(c.token).expect(201);
    const order = res.body.order;
    expect(order).toMatchObject({
      paymentMethod: 'cash_on_delivery',
      status: 'pending',
      paymentStatus: 'unpaid',
      totalAmount: 840, // 600 + 150 shipping + 90 VAT
    });
    expect(order.paidAt).toBeUndefined();
    expect(await stockOf(c.product)).toBe(3);
    expect(await cartCount(c.token)).toBe(0);
    const mail = await outbox.findOne({ eventKey: `order.placed:${order._id}` }).lean();
    expect(mail?.text).toContain('Pay on delivery: ETB 840.00');
  });

  it.each([
    ['a region where it is not offered', adama, 300, 1],
    ['a total over maxOrderTotal (shipping and VAT included)', addis, 4400, 2], // 8800 + 1320 VAT > 10000
  ])('refuses %s with 422 COD_UNAVAILABLE, stock and cart unchanged', async (_why, address, price, qty) => {
    const c = await shopper(price, 5, qty);
    const res = await place(c.token, address).expect(422);
    expect(res.body).toMatchObject({
      code: 'COD_UNAVAILABLE',
      message: 'Pay on delivery is not available for this order',
    });
    expect(await stockOf(c.product)).toBe(5);
    expect(await cartCount(c.token)).toBe(qty);
    // the same cart with Chapa goes through
    await place(c.token, address, 'chapa').expect(201);
  });

  it('allows a total equal to maxOrderTotal and refuses one santim over it', async () => {
    await saveCod({ maxOrderTotal: 840 }).expect(200);
    try {
      const exact = await shopper(300, 5, 2); // 840.00
      await place(exact.token).expect(201);
      await saveCod({ maxOrderTotal: 839.99 }).expect(200);
      const over = await shopper(300, 5, 2);
      await place(over.token).expect(422);
      expect(await stockOf(over.product)).toBe(5);
    } finally {
      await saveCod({ maxOrderTotal: 10000 }).expect(200);
    }
  });

  it('refuses it when it is switched off, and in a region removed from the list', async () => {
    const c = await shopper();
    await saveCod({ enabled: false }).expect(200);
    try {
      const pub = await request(t.http).get('/api/settings/public').expect(200);
      expect(pub.body.settings.cashOnDelivery.enabled).toBe(false);
      expect((await place(c.token).expect(422)).body.code).toBe('COD_UNAVAILABLE');
      expect(await stockOf(c.product)).toBe(5);
      expect(await cartCount(c.token)).toBe(1);
    } finally {
      await saveCod({ enabled: true }).expect(200);
    }
    await saveCod({ regions: ['Dire Dawa'] }).expect(200);
    try {
      expect((await place(c.token).expect(422)).body.code).toBe('COD_UNAVAILABLE');
    } finally {
      await saveCod({ regions: ['Addis Ababa', 'Dire Dawa'] }).expect(200);
    }
    await place(c.token).expect(201);
  });

  it('refuses to start an online payment for a pay-on-delivery order (409 PAY_ON_DELIVERY_ORDER)', async () => {
    const c = await shopper();
    const order = (await place(c.token).expect(201)).body.order;
    const res = await request(t.http)
      .post('/api/payments/initialize')
      .set(auth(c.token))
      .send({ orderId: order._id })
      .expect(409);
    expect(res.body).toMatchObject({
      code: 'PAY_ON_DELIVERY_ORDER',
      message: 'This order is paid on delivery',
    });
    expect((await request(t.http).get(`/api/orders/${order._id}`).set(auth(c.token))).body).toMatchObject({
      paymentStatus: 'unpaid',
    });
  });

  it('records the collected money once, by an admin only, for pay on delivery only, audited', async () => {
    const c = await shopper();
    const order = (await place(c.token).expect(201)).body.order;

    const customer = await collect(c.token, order._id).expect(403);
    expect(customer.body.code).toBe('ACCESS_DENIED');
    await request(t.http).post(`/api/admin/orders/${order._id}/payment/collected`).send({}).expect(401);
    await collect(admin, '0123456789abcdef01234567').expect(404);
    await collect(admin, order._id, { reference: 'x'.repeat(101) }).expect(400);

    const res = await collect(admin, order._id, { reference: 'RCPT-2041' }).expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.order).toMatchObject({ paymentStatus: 'paid', paymentReference: 'RCPT-2041' });
    expect(Date.now() - new Date(res.body.order.paidAt).getTime()).toBeLessThan(60_000);

    const again = await collect(admin, order._id).expect(409);
    expect(again.body.code).toBe('PAYMENT_NOT_COLLECTABLE');

    const entries = await audit.find({ entityId: order._id, action: 'order.payment_collected' }).lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entity: 'order', actorEmail: DEMO_ACCOUNTS.admin.email });

    // the customer hears of it once
    expect(await outbox.countDocuments({ eventKey: `payment.paid:${order._id}` })).toBe(1);

    // a collected order cancelled afterwards is due back, as any paid order
    const cancelled = await request(t.http)
      .put(`/api/admin/orders/${order._id}/status`)
      .set(auth(admin))
      .send({ status: 'cancelled' })
      .expect(200);
    expect(cancelled.body.order).toMatchObject({ status: 'cancelled', paymentStatus: 'refund_pending' });
  });

  it('records nothing for a Chapa order (409) and without a reference leaves none', async () => {
    const chapa = await shopper();
    const online = (await place(chapa.token, addis, 'chapa').expect(201)).body.order;
    expect((await collect(admin, online._id).expect(409)).body.code).toBe('PAYMENT_NOT_COLLECTABLE');
    expect(
      (await request(t.http).get(`/api/orders/${online._id}`).set(auth(chapa.token))).body,
    ).toMatchObject({
      paymentStatus: 'unpaid',
    });

    const c = await shopper();
    const order = (await place(c.token).expect(201)).body.order;
    const res = await collect(admin, order._id).expect(200);
    expect(res.body.order.paymentStatus).toBe('paid');
    expect(res.body.order.paymentReference).toBeUndefined();
  });

  it('cancels an unpaid pay-on-delivery order without a refund: it stays unpaid, the stock comes back, no collection after', async () => {
    const c = await shopper(300, 5, 2);
    const order = (await place(c.token).expect(201)).body.order;
    expect(await stockOf(c.product)).toBe(3);
    const res = await request(t.http).patch(`/api/orders/${order._id}/cancel`).set(auth(c.token)).expect(200);
    expect(res.body.order).toMatchObject({ status: 'cancelled', paymentStatus: 'unpaid' });
    expect(await stockOf(c.product)).toBe(5);
    const refund = await outbox.findOne({ eventKey: `order.status:${order._id}:cancelled` }).lean();
    expect(refund?.text).not.toContain('refund');
    expect(refund?.text).not.toContain('Pay on delivery');
    expect((await collect(admin, order._id).expect(409)).body.code).toBe('PAYMENT_NOT_COLLECTABLE');
  });

  it("lists staff the orders by payment method (the back office's filter)", async () => {
    const c = await shopper();
    const cod = (await place(c.token).expect(201)).body.order;
    const d = await shopper();
    const chapa = (await place(d.token, addis, 'chapa').expect(201)).body.order;
    const list = async (method: string) => {
      const filter = encodeURIComponent(JSON.stringify({ paymentMethod: method }));
      const res = await request(t.http)
        .get(`/api/admin/orders?filter=${filter}&range=[0,999]`)
        .set(auth(admin))
        .expect(200);
      return (res.body as { id: string; paymentMethod: string }[]).map((o) => [o.id, o.paymentMethod]);
    };
    const onDelivery = await list('cash_on_delivery');
    expect(onDelivery).toContainEqual([cod._id, 'cash_on_delivery']);
    expect(onDelivery.every(([, m]) => m === 'cash_on_delivery')).toBe(true);
    const online = await list('chapa');
    expect(online).toContainEqual([chapa._id, 'chapa']);
    expect(online.map(([id]) => id)).not.toContain(cod._id);
    const wrong = encodeURIComponent(JSON.stringify({ paymentMethod: 'cash' }));
    await request(t.http).get(`/api/admin/orders?filter=${wrong}`).set(auth(admin)).expect(400);
  });
});
