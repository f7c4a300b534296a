import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { startTestApp, type TestApp } from './support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;
const address = {
  street: 'Bole Road 12',
  city: 'Addis Ababa',
  state: 'Addis Ababa',
  zipCode: '1000',
  country: 'Ethiopia',
};

/** 'YYYY-MM-DD' of the UTC day `offset` days from today, optionally shifted by hours first. */
const dayOf = (instant: Date, shiftHours = 0) =>
  new Date(instant.getTime() + shiftHours * 3600_000).toISOString().slice(0, 10);
const utcMidnight = (daysAgo: number) => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo);
};
/** The last 7 days ending today, as the shop sees them with a fixed UTC offset. */
const lastSevenDays = (offsetHours: number) => {
  const today = new Date(`${dayOf(new Date(), offsetHours)}T00:00:00Z`).getTime();
  return Array.from({ length: 7 }, (_, i) => new Date(today - (6 - i) * DAY_MS).toISOString().slice(0, 10));
};

describe('admin API: dashboard and orders', () => {
  let t: TestApp;
  let orders: Model<Order>;
  let products: Model<Product>;
  let admin: { token: string; id: string };
  let customer: { token: string; id: string; email: string };
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const ids: Record<string, Types.ObjectId> = {};
  let serum: Types.ObjectId;
  let soap: Types.ObjectId;

  const order = (fields: {
    key: string;
    createdAt: Date;
    totalSantim: number;
    paymentStatus: string;
    status: string;
    items: { product: Types.ObjectId; name: string; quantity: number; priceSantim: number }[];
    email?: string;
    history?: { status: string; at: Date }[];
    orderNumber?: string;
  }) => {
    const _id = new Types.ObjectId();
    ids[fields.key] = _id;
    const history = fields.history ?? [{ status: 'pending', at: fields.createdAt }];
    return {
      _id,
      ...(fields.orderNumber ? { orderNumber: fields.orderNumber } : {}),
      user: new Types.ObjectId(customer.id),
      customer: { name: 'Hanna Tesfaye', email: fields.email ?? customer.email },
      orderItems: fields.items.map((i) => ({
        _id: new Types.ObjectId(),
        product: i.product,
        name: i.name,
        quantity: i.quantity,
        priceAtPurchaseSantim: i.priceSantim,
      })),
      shippingAddress: address,
      shippingMethod: 'standard',
      paymentMethod: 'chapa',
      subtotalSantim: fields.totalSantim,
      shippingCostSantim: 0,
      taxSantim: 0,
      totalAmountSantim: fields.totalSantim,
      currency: 'ETB',
      status: fields.status,
      paymentStatus: fields.paymentStatus,
      statusHistory: history,
      createdAt: fields.createdAt,
      updatedAt: history[history.length - 1].at,
    };
  };

  beforeAll(async () => {
    t = await startTestApp();
    orders = t.app.get(getModelToken(Order.name));
    products = t.app.get(getModelToken(Product.name));
    const a = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Abebe Admin',
        email: 'abebe@shop.et',
        password: 'Admin@12345',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = { token: a.body.token, id: a.body.user._id };
    const c = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'Hanna Tesfaye', email: 'hanna@example.et', password: 'Buna@2026' })
      .expect(201);
    customer = { token: c.body.token, id: c.body.user._id, email: 'hanna@example.et' };

    const [s, p, gone] = await products.create([
      { name: 'Moringa Glow Serum', priceSantim: 89_000, stock: 3 },
      { name: 'Shea Soap', priceSantim: 25_000, stock: 40 },
      { name: 'Withdrawn Balm', priceSantim: 10_000, stock: 0, active: false },
    ]);
    serum = s._id;
    soap = p._id;
    void gone;
    const threeDaysAgoLate = new Date(utcMidnight(3) + 21.5 * 3600_000); // 21:30 UTC = 00:30 next day in Addis Ababa
    const yesterday = new Date(utcMidnight(1) + 10 * 3600_000);
    const twoDaysAgo = new Date(utcMidnight(2) + 12 * 3600_000);
    await orders.collection.insertMany([
      order({
        key: 'late',
        createdAt: threeDaysAgoLate,
        totalSantim: 172_500,
        paymentStatus: 'paid',
        status: 'processing',
        items: [{ product: serum, name: 'Moringa Glow Serum', quantity: 2, priceSantim: 86_250 }],
      }),
      order({
        key: 'delivered',
        orderNumber: 'AN-10007',
        createdAt: yesterday,
        totalSantim: 50_000,
        paymentStatus: 'paid',
        status: 'delivered',
        items: [
          { product: soap, name: 'Shea Soap', quantity: 1, priceSantim: 25_000 },
          { product: serum, name: 'Moringa Glow Serum', quantity: 1, priceSantim: 25_000 },
        ],
        history: [
          { status: 'pending', at: yesterday },
          { status: 'processing', at: new Date(yesterday.getTime() + 3600_000) },
          { status: 'shipped', at: new Date(yesterday.getTime() + 2 * 3600_000) },
          { status: 'delivered', at: new Date(yesterday.getTime() + 3 * 3600_000) },
        ],
      }),
      order({
        key: 'unpaid',
        createdAt: yesterday,
        totalSantim: 99_900,
        paymentStatus: 'unpaid',
        status: 'pending',
        email: 'tigist@example.et',
        items: [{ product: soap, name: 'Shea Soap', quantity: 4, priceSantim: 24_975 }],
      }),
      order({
        key: 'cancelled',
        createdAt: twoDaysAgo,
        totalSantim: 30_000,
        paymentStatus: 'refund_pending',
        status: 'cancelled',
        items: [{ product: soap, name: 'Shea Soap', quantity: 1, priceSantim: 30_000 }],
      }),
      order({
        key: 'refunded',
        createdAt: twoDaysAgo,
        totalSantim: 40_000,
        paymentStatus: 'refunded',
        status: 'cancelled',
        items: [{ product: soap, name: 'Shea Soap', quantity: 1, priceSantim: 40_000 }],
      }),
      order({
        key: 'old',
        createdAt: new Date(utcMidnight(10) + 9 * 3600_000),
        totalSantim: 10_000,
        paymentStatus: 'paid',
        status: 'delivered',
        items: [{ product: serum, name: 'Moringa Glow Serum', quantity: 1, priceSantim: 10_000 }],
      }),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('GET /api/admin/dashboard/stats', () => {
    // these figures are read on a UTC shop clock; the default is Addis Ababa since issue 34
    // (docs/decisions/0081), whose day boundary the test below checks by switching to it
    beforeAll(async () => {
      await request(t.http)
        .put('/api/admin/settings')
        .set(auth(admin.token))
        .send({ timezone: 'UTC' })
        .expect(200);
    });

    it('keeps guests (401) and customers (403) out', async () => {
      await request(t.http).get('/api/admin/dashboard/stats').expect(401);
      const res = await request(t.http)
        .get('/api/admin/dashboard/stats')
        .set(auth(customer.token))
        .expect(403);
      expect(res.body).toEqual({
        success: false,
        statusCode: 403,
        message: 'Access denied',
        code: 'ACCESS_DENIED',
        params: {},
      });
    });

    it('computes the totals from paid orders that are not cancelled or refunded', async () => {
      const res = await request(t.http).get('/api/admin/dashboard/stats').set(auth(admin.token)).expect(200);
      expect(res.body).toMatchObject({
        success: true,
        totalOrders: 6,
        totalRevenue: 2325, // 1725 + 500 + 100
        itemsSold: 5, // 2 + 2 + 1
        totalUsers: 2,
        totalProducts: 2, // the withdrawn product is not on sale
        currency: 'ETB',
        timezone: 'UTC',
      });
    });

    it('lists the last 7 days in UTC, zero-sale days included, the 21:30 UTC order on its UTC day', async () => {
      const res = await request(t.http).get('/api/admin/dashboard/stats').set(auth(admin.token)).expect(200);
      const days = lastSevenDays(0);
      expect(res.body.salesData.map((d: { _id: string }) => d._id)).toEqual(days);
      const byDay = Object.fromEntries(
        res.body.salesData.map((d: { _id: string; totalSales: number }) => [d._id, d.totalSales]),
      );
      const late = dayOf(new Date(utcMidnight(3)));
      const yesterday = dayOf(new Date(utcMidnight(1)));
      expect(byDay[late]).toBe(1725);
      expect(byDay[yesterday]).toBe(500);
      const zeroDays = days.filter((d) => d !== late && d !== yesterday);
      expect(zeroDays).toHaveLength(5);
      for (const d of zeroDays) expect(byDay[d]).toBe(0);
    });

    it('moves the 21:30 UTC order to the next day when the shop timezone is Africa/Addis_Ababa', async () => {
      await request(t.http)
        .put('/api/admin/settings')
        .set(auth(admin.token))
        .send({ timezone: 'Africa/Addis_Ababa' })
        .expect(200);
      try {
        const res = await request(t.http)
          .get('/api/admin/dashboard/stats')
          .set(auth(admin.token))
          .expect(200);
        expect(res.body.timezone).toBe('Africa/Addis_Ababa');
        expect(res.body.salesData.map((d: { _id: string }) => d._id)).toEqual(lastSevenDays(3));
        const byDay = Object.fromEntries(
          res.body.salesData.map((d: { _id: string; totalSales: number }) => [d._id, d.totalSales]),
        );
        const utcDay = dayOf(new Date(utcMidnight(3)));
        const addisDay = dayOf(new Date(utcMidnight(2)));
        expect(byDay[addisDay]).toBe(1725);
        expect(byDay[utcDay] ?? 0).toBe(0);
        expect(byDay[dayOf(new Date(utcMidnight(1)))]).toBe(500);
      } finally {
        await request(t.http)
          .put('/api/admin/settings')
          .set(auth(admin.token))
          .send({ timezone: 'UTC' })
          .expect(200);
      }
    });

    it('shows the settings currency', async () => {
      await request(t.http)
        .put('/api/admin/settings')
        .set(auth(admin.token))
        .send({ currency: 'USD' })
        .expect(200);
      const res = await request(t.http).get('/api/admin/dashboard/stats').set(auth(admin.token)).expect(200);
      expect(res.body.currency).toBe('USD');
      await request(t.http)
        .put('/api/admin/settings')
        .set(auth(admin.token))
        .send({ currency: 'ETB' })
        .expect(200);
    });

    it('ranks top sellers with product details, lists recent orders, activity and low stock', async () => {
      const res = await request(t.http).get('/api/admin/dashboard/stats').set(auth(admin.token)).expect(200);
      expect(res.body.topSellingProducts).toEqual([
        { _id: String(serum), totalQuantity: 4, productDetails: { name: 'Moringa Glow Serum', price: 890 } },
        { _id: String(soap), totalQuantity: 1, productDetails: { name: 'Shea Soap', price: 250 } },
      ]);
      expect(res.body.recentOrders).toHaveLength(5);
      expect(res.body.recentOrders[0]).toMatchObject({
        customer: { name: 'Hanna Tesfaye' },
        status: expect.any(String),
        totalAmount: expect.any(Number),
      });
      const created = res.body.recentOrders.map((o: { createdAt: string }) => Date.parse(o.createdAt));
      expect([...created].sort((x, y) => y - x)).toEqual(created);
      // the number staff quote, on the dashboard as on the order pages
      expect(res.body.recentActivity[0].orderNumber).toBe('AN-10007');
      expect(
        res.body.recentOrders.find((o: { _id: string }) => o._id === String(ids.delivered)).orderNumber,
      ).toBe('AN-10007');
      expect(res.body.recentActivity[0]).toMatchObject({
        orderId: String(ids.delivered),
        status: 'delivered',
        customerName: 'Hanna Tesfaye',
        totalAmount: 500,
      });
      expect(res.body.recentActivity.map((e: { status: string }) => e.status)).toEqual(
        expect.arrayContaining(['delivered', 'shipped', 'pending']),
      );
      expect(res.body.lowStockItems).toEqual([
        { _id: String(serum), name: 'Moringa Glow Serum', stock: 3, price: 890 },
      ]);
    });
  });

  describe('GET /api/admin/orders (react-admin list)', () => {
    const list = (query: Record<string, string>) =>
      request(t.http).get('/api/admin/orders').query(query).set(auth(admin.token));

    it('answers an array with id mirrored and the Content-Range header, newest first by default', async () => {
      const res = await list({ filter: '{}' }).expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(6);
      expect(res.headers['content-range']).toBe('orders 0-5/6');
      expect(res.body[0].id).toBe(res.body[0]._id);
      expect(res.body[0]).toMatchObject({
        totalAmount: expect.any(Number),
        customer: { email: expect.any(String) },
        orderItems: expect.any(Array),
      });
    });

    it('pages with range and sorts by total', async () => {
      const res = await list({ sort: '["totalAmount","ASC"]', range: '[1,2]' }).expect(200);
      expect(res.headers['content-range']).toBe('orders 1-2/6');
      expect(res.body.map((o: { totalAmount: number }) => o.totalAmount)).toEqual([300, 400]);
      const empty = await list({ range: '[50,74]' }).expect(200);
      expect(empty.body).toEqual([]);
      expect(empty.headers['content-range']).toBe('orders */6');
    });

    it('filters by status, by customer email, by the last 6 characters of the id, and by id list (getMany)', async () => {
      const pending = await list({ filter: '{"status":"pending"}' }).expect(200);
      expect(pending.body.map((o: { id: string }) => o.id)).toEqual([String(ids.unpaid)]);
      const cancelled = await list({ filter: '{"status":["cancelled"]}' }).expect(200);
      expect(cancelled.headers['content-range']).toBe('orders 0-1/2');
      const byEmail = await list({ filter: '{"q":"TIGIST@"}' }).expect(200);
      expect(byEmail.body.map((o: { id: string }) => o.id)).toEqual([String(ids.unpaid)]);
      const suffix = String(ids.late).slice(-6);
      const byId = await list({ filter: JSON.stringify({ q: suffix }) }).expect(200);
      expect(byId.body.map((o: { id: string }) => o.id)).toContain(String(ids.late));
      const full = await list({ filter: JSON.stringify({ q: String(ids.old) }) }).expect(200);
      expect(full.body.map((o: { id: string }) => o.id)).toEqual([String(ids.old)]);
      const many = await list({
        filter: JSON.stringify({ id: [String(ids.old), String(ids.late), 'junk'] }),
      }).expect(200);
      expect(many.body.map((o: { id: string }) => o.id).sort()).toEqual(
        [String(ids.old), String(ids.late)].sort(),
      );
      const regexText = await list({ filter: '{"q":".*"}' }).expect(200);
      expect(regexText.body).toEqual([]);
    });

    it('filters by payment state, shipping method and Addis Ababa days (inclusive)', async () => {
      const idsOf = async (filter: object) =>
        ((await list({ filter: JSON.stringify(filter) }).expect(200)).body as { id: string }[])
          .map((o) => o.id)
          .sort();
      const key = (...keys: string[]) => keys.map((k) => String(ids[k])).sort();
      expect(await idsOf({ paymentStatus: 'refund_pending' })).toEqual(key('cancelled'));
      expect(await idsOf({ paymentStatus: ['unpaid', 'refunded'] })).toEqual(key('unpaid', 'refunded'));
      expect(await idsOf({ shippingMethod: 'express' })).toEqual([]);
      expect((await idsOf({ shippingMethod: 'standard' })).length).toBe(6);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      // the 21:30 UTC order three days ago is on the next day in Addis Ababa, with the two-days-ago ones
      expect(await idsOf({ createdFrom: day(utcMidnight(2)), createdTo: day(utcMidnight(2)) })).toEqual(
        key('late', 'cancelled', 'refunded'),
      );
      expect(await idsOf({ createdTo: day(utcMidnight(3)) })).toEqual(key('old'));
      expect(await idsOf({ createdFrom: day(utcMidnight(1)), paymentStatus: 'paid' })).toEqual(
        key('delivered'),
      );
      for (const bad of [
        { shippingMethod: 'drone' },
        { createdFrom: '2026-02-30' },
        { createdTo: 'yesterday' },
        { createdFrom: 20261123 },
        { paymentStatus: 'stolen' },
      ]) {
        const res = await list({ filter: JSON.stringify(bad) }).expect(400);
        expect(res.body.code).toBe('INVALID_LIST_PARAMETER');
      }
    });

    it('answers 400, never 500, for malformed sort, range and filter, unknown fields and operator objects', async () => {
      const bad: Record<string, string>[] = [
        { sort: 'not json' },
        { sort: '["nope","ASC"]' },
        { sort: '["createdAt","SIDEWAYS"]' },
        { sort: '{"a":1}' },
        { range: '[5,1]' },
        { range: '[-1,4]' },
        { range: '["0","9"]' },
        { range: '[0' },
        { filter: '[]' },
        { filter: '{"status":{"$ne":"pending"}}' },
        { filter: '{"q":{"$gt":""}}' },
        { filter: '{"unknown":1}' },
        { filter: '{"status":"lost"}' },
        { filter: '{"q":["a","b"]}' },
        { unexpected: '1' },
      ];
      for (const query of bad) {
        const res = await list(query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(res.body).toMatchObject({ success: false, statusCode: 400 });
      }
    });

    it('caps a page at 100 records', async () => {
      const res = await list({ range: '[0,100000]' }).expect(200);
      expect(res.headers['content-range']).toBe('orders 0-5/6');
    });

    it('keeps guests and customers out', async () => {
      await request(t.http).get('/api/admin/orders').expect(401);
      await request(t.http).get('/api/admin/orders').set(auth(customer.token)).expect(403);
      await request(t.http).get(`/api/admin/orders/${ids.late}`).set(auth(customer.token)).expect(403);
      await request(t.http)
        .put(`/api/admin/orders/${ids.late}/status`)
        .set(auth(customer.token))
        .send({ status: 'shipped' })
        .expect(403);
    });
  });

  describe('GET /api/admin/orders/{id}', () => {
    it('answers one order with items, address, payment status and history', async () => {
      const res = await request(t.http)
        .get(`/api/admin/orders/${ids.delivered}`)
        .set(auth(admin.token))
        .expect(200);
      expect(res.body).toMatchObject({
        id: String(ids.delivered),
        status: 'delivered',
        paymentStatus: 'paid',
        totalAmount: 500,
        shippingAddress: { city: 'Addis Ababa' },
        orderItems: [
          { name: 'Shea Soap', quantity: 1, priceAtPurchase: 250 },
          { name: 'Moringa Glow Serum', quantity: 1 },
        ],
      });
      expect(res.body.statusHistory.map((h: { status: string }) => h.status)).toEqual([
        'pending',
        'processing',
        'shipped',
        'delivered',
      ]);
    });

    it('answers 404 for unknown and malformed ids', async () => {
      await request(t.http)
        .get('/api/admin/orders/000000000000000000000000')
        .set(auth(admin.token))
        .expect(404);
      await request(t.http).get('/api/admin/orders/nope').set(auth(admin.token)).expect(404);
    });
  });

  describe('PUT /api/admin/orders/{id}/status', () => {
    const put = (id: unknown, body: unknown) =>
      request(t.http)
        .put(`/api/admin/orders/${id}/status`)
        .set(auth(admin.token))
        .send(body as object);

    it('follows the status machine, records history, tracking number and the audit trail', async () => {
      const res = await put(ids.late, { status: 'shipped', trackingNumber: 'ET-778899' }).expect(200);
      expect(res.body).toMatchObject({
        success: true,
        order: { id: String(ids.late), status: 'shipped', trackingNumber: 'ET-778899' },
      });
      expect(res.body.order.statusHistory.at(-1)).toMatchObject({ status: 'shipped', by: admin.id });
      const audit = await request(t.http)
        .get('/api/admin/audit')
        .query({ filter: JSON.stringify({ entity: 'order', entityId: String(ids.late) }) })
        .set(auth(admin.token))
        .expect(200);
      expect(audit.body[0]).toMatchObject({
        action: 'order.status',
        from: 'processing',
        to: 'shipped',
        actor: admin.id,
        actorEmail: 'abebe@shop.et',
      });
      expect(audit.headers['content-range']).toBe('audit 0-0/1');
    });

    it('refuses an invalid move with 409 and changes nothing', async () => {
      const res = await put(ids.delivered, { status: 'pending' }).expect(409);
      expect(res.body).toMatchObject({
        success: false,
        statusCode: 409,
        message: expect.stringMatching(/delivered.*pending/),
      });
      expect((await orders.findById(ids.delivered).lean())!.status).toBe('delivered');
    });

    it('restores stock when an order is cancelled', async () => {
      const before = (await products.findById(soap).lean())!.stock;
      await put(ids.unpaid, { status: 'cancelled' }).expect(200);
      expect((await products.findById(soap).lean())!.stock).toBe(before + 4);
    });

    it('refuses unknown statuses and extra fields with 400, unknown orders with 404', async () => {
      await put(ids.old, { status: 'lost' }).expect(400);
      await put(ids.old, { status: 'shipped', price: 1 }).expect(400);
      await put(ids.old, { status: { $ne: 'x' } }).expect(400);
      await put('000000000000000000000000', { status: 'shipped' }).expect(404);
    });
  });
});
