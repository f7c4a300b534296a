import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import request from 'supertest';
import type { AuthUser } from '../src/common/auth/auth-user';
import { AuditEntry } from '../src/modules/audit/schemas/audit-entry.schema';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { OrderStatusService } from '../src/modules/orders/orders.module';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { Settings, SETTINGS_KEY } from '../src/modules/settings/schemas/settings.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };

describe('orders', () => {
  let t: TestApp;
  let admin: { token: string; id: string; email: string; name: string };
  let products: Model<Product>;
  let orders: Model<Order>;

  const newCustomer = customerFactory(() => t, 'order', 'Order Customer');
  const makeProduct = async (fields: { name: string; price: number; stock: number }) => {
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin.token))
      .send({ images: ['/api/assets/products/x.svg'], ...fields })
      .expect(201);
    return res.body.product._id as string;
  };
  const add = (token: string, productId: string, quantity = 1) =>
    request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity }).expect(200);
  const place = (
    token: string,
    body: Record<string, unknown> = { shippingAddress: address, paymentMethod: 'chapa' },
  ) => request(t.http).post('/api/orders').set(auth(token)).send(body);
  const stockOf = async (id: string) => (await products.findById(id).lean())!.stock;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password })
      .expect(200);
    admin = {
      token: login.body.token,
      id: login.body.user._id,
      email: login.body.user.email,
      name: login.body.user.name,
    };
    products = t.app.get(getModelToken(Product.name));
    orders = t.app.get(getModelToken(Order.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('keeps guests out of every order route with 401', async () => {
    const id = '000000000000000000000000';
    await request(t.http).post('/api/orders').send({ shippingAddress: address }).expect(401);
    await request(t.http).get('/api/orders/my-orders').expect(401);
    await request(t.http).get(`/api/orders/${id}`).expect(401);
    await request(t.http).patch(`/api/orders/${id}/cancel`).expect(401);
    const res = await request(t.http)
      .patch(`/api/orders/${id}/status`)
      .send({ status: 'shipped' })
      .expect(401);
    expect(res.body).toMatchObject({ success: false, statusCode: 401 });
  });

  it('places an order from the cart: server prices in ETB, stock reserved, cart emptied', async () => {
    const customer = await newCustomer();
    const cream = await makeProduct({ name: 'Shea Butter Cream', price: 450.5, stock: 10 });
    await add(customer.token, cream, 2);
    const res = await place(customer.token).expect(201);
    expect(res.body.success).toBe(true);
    const order = res.body.order;
    expect(order).toMatchObject({
      user: customer.id,
      customer: {
        name: expect.stringMatching(/^Order Customer/),
        email: expect.stringMatching(/@example\.et$/),
      },
      shippingAddress: { ...address, country: 'Ethiopia' },
      shippingMethod: 'standard',
      paymentMethod: 'chapa',
      subtotal: 901,
      shippingCost: 150,
      tax: 135.15,
      totalAmount: 1186.15,
      currency: 'ETB',
      status: 'pending',
      paymentStatus: 'unpaid',
    });
    expect(order._id).toMatch(/^[a-f0-9]{24}$/);
    expect(order.id).toBe(order._id);
    expect(order.orderItems).toEqual([
      {
        _id: expect.stringMatching(/^[a-f0-9]{24}$/),
        product: {
          _id: cream,
          name: 'Shea Butter Cream',
          images: [`${t.config.publicUrl}/api/assets/products/x.svg`],
          price: 450.5,
        },
        name: 'Shea Butter Cream',
        image: `${t.config.publicUrl}/api/assets/products/x.svg`,
        quantity: 2,
        priceAtPurchase: 450.5,
      },
    ]);
    expect(order.statusHistory).toEqual([{ status: 'pending', by: customer.id, at: expect.any(String) }]);
    expect(await stockOf(cream)).toBe(8);
    const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(cart.body.itemCount).toBe(0);
    const stored = await orders.findById(order._id).lean();
    expect(stored).toMatchObject({
      subtotalSantim: 90_100,
      shippingCostSantim: 15_000,
      taxSantim: 13_515,
      totalAmountSantim: 118_615,
    });
  });

  // The order is written through the model's collection (orders.service.ts createOrder): what is
  // stored must be exactly the document Mongoose would have made, defaults and casts included.
  it('stores a placed order exactly as Mongoose would have: schema-valid, nothing missing, no nulls', async () => {
    const customer = await newCustomer();
    const oil = await makeProduct({ name: 'Stored Shape Oil', price: 99.99, stock: 10 });
    await add(customer.token, oil, 3);
    const res = await place(customer.token, {
      shippingAddress: {
        street: '  Bole Road  ',
        city: 'Addis Ababa',
        state: 'addis ababa',
        landmark: 'near the Edna Mall',
        phone: '0911223344',
      },
      shippingMethod: 'Express',
    }).expect(201);
    const raw = (await orders.collection.findOne({ _id: new Types.ObjectId(res.body.order._id as string) }))!;
    const asMongoose = new orders(raw);
    expect(asMongoose.validateSync()).toBeUndefined();
    expect(asMongoose.toObject()).toEqual(raw);
    const nulls = JSON.stringify(raw, (_key, value: unknown) => (value === null ? 'NULL' : value));
    expect(nulls).not.toContain('NULL');
    expect(raw).toMatchObject({
      shippingAddress: {
        street: 'Bole Road',
        state: 'Addis Ababa',
        landmark: 'near the Edna Mall',
        phone: '+251911223344',
        country: 'Ethiopia',
      },
      shippingMethod: 'express',
      paymentMethod: 'chapa',
      currency: 'ETB',
      __v: 0,
    });
    expect(raw.orderItems).toEqual([
      expect.objectContaining({ name: 'Stored Shape Oil', quantity: 3, _id: expect.any(Types.ObjectId) }),
    ]);
    expect(raw.createdAt).toBeInstanceOf(Date);
    expect(raw.updatedAt).toEqual(raw.createdAt);
  });

  it('keeps the price at purchase when the product price changes later', async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'Price Lock Serum', price: 300, stock: 5 });
    await add(customer.token, id);
    const placed = await place(customer.token).expect(201);
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin.token))
      .send({ name: 'Renamed Serum', price: 999, stock: 4 })
      .expect(200);
    const res = await request(t.http)
      .get(`/api/orders/${placed.body.order._id}`)
      .set(auth(customer.token))
      .expect(200);
    // the order document itself, each line with the product as it was bought
    expect(res.body.orderItems[0]).toMatchObject({
      name: 'Price Lock Serum',
      priceAtPurchase: 300,
      product: { _id: id, name: 'Price Lock Serum', price: 300 },
    });
    expect(res.body.subtotal).toBe(300);
  });

  it('prices shipping from the settings: free standard over the threshold, express, pickup', async () => {
    const big = await makeProduct({ name: 'Gift Set', price: 1000.01, stock: 10 });
    const small = await makeProduct({ name: 'Lip Balm', price: 100, stock: 10 });
    const c1 = await newCustomer();
    await add(c1.token, big);
    const free = await place(c1.token, {
      shippingAddress: address,
      paymentMethod: 'chapa',
      shippingMethod: 'standard',
    }).expect(201);
    expect(free.body.order).toMatchObject({
      subtotal: 1000.01,
      shippingCost: 0,
      tax: 150,
      totalAmount: 1150.01,
    });
    await add(c1.token, big);
    const express = await place(c1.token, { shippingAddress: address, shippingMethod: 'express' }).expect(
      201,
    );
    expect(express.body.order).toMatchObject({
      shippingMethod: 'express',
      shippingCost: 300,
      paymentMethod: 'chapa',
    });
    await add(c1.token, small);
    const pickup = await place(c1.token, { shippingAddress: address, shippingMethod: 'pickup' }).expect(201);
    expect(pickup.body.order).toMatchObject({ shippingCost: 0, subtotal: 100, tax: 15, totalAmount: 115 });
    const settings: Model<Settings> = t.app.get(getModelToken(Settings.name));
    await settings.updateOne(
      { key: SETTINGS_KEY },
      { $set: { standardShippingSantim: 9_900 } },
      { upsert: true },
    );
    try {
      await add(c1.token, small);
      const custom = await place(c1.token).expect(201);
      expect(custom.body.order).toMatchObject({ shippingCost: 99, totalAmount: 214 });
    } finally {
      await settings.updateOne({ key: SETTINGS_KEY }, { $set: { standardShippingSantim: 15_000 } });
    }
  });

  it('refuses client-sent prices, bad addresses and unknown methods with 400, writing nothing', async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'Validation Oil', price: 50, stock: 5 });
    await add(customer.token, id);
    const priced = await place(customer.token, { shippingAddress: address, totalAmount: 1 }).expect(400);
    expect(priced.body).toMatchObject({ success: false, statusCode: 400, message: 'Validation failed' });
    await place(customer.token, {
      shippingAddress: address,
      orderItems: [{ product: id, quantity: 1, priceAtPurchase: 1 }],
    }).expect(400);
    await place(customer.token, { shippingAddress: { ...address, price: 1 } }).expect(400);
    const missing = await place(customer.token, { shippingAddress: { ...address, street: '   ' } }).expect(
      400,
    );
    expect(missing.body.errors).toEqual([
      { field: 'shippingAddress.street', message: 'street is required', code: 'VALIDATION_FAILED' },
    ]);
    const noZip = await place(customer.token, {
      shippingAddress: { street: 'a', city: 'b', state: 'c' },
    }).expect(400);
    // The region must be one of Ethiopia's; the postal code is optional
    // (docs/decisions/0027-ethiopian-checkout-and-order-numbers.md).
    expect(noZip.body.errors.map((e: { field: string }) => e.field)).toEqual(['shippingAddress.state']);
    await place(customer.token, { paymentMethod: 'chapa' }).expect(400);
    await place(customer.token, { shippingAddress: 'Bole' }).expect(400);
    await place(customer.token, { shippingAddress: { ...address, city: { $ne: '' } } }).expect(400);
    const method = await place(customer.token, { shippingAddress: address, shippingMethod: 'drone' }).expect(
      400,
    );
    expect(method.body.errors[0]).toEqual({
      field: 'shippingMethod',
      message: 'shippingMethod must be one of standard, express, pickup',
      code: 'VALIDATION_FAILED',
    });
    await place(customer.token, { shippingAddress: address, paymentMethod: 'bitcoin' }).expect(400);
    const abroad = await place(customer.token, {
      shippingAddress: { ...address, city: 'Nairobi', country: 'Kenya' },
    }).expect(400);
    expect(abroad.body.errors).toEqual([
      {
        field: 'shippingAddress.country',
        message: 'Delivery is only within Ethiopia',
        code: 'VALIDATION_FAILED',
      },
    ]);
    expect(await stockOf(id)).toBe(5);
    expect(await orders.countDocuments({ user: customer.id })).toBe(0);
    expect((await request(t.http).get('/api/cart').set(auth(customer.token))).body.itemCount).toBe(1);
  });

  it('refuses an empty cart with 400', async () => {
    const customer = await newCustomer();
    const res = await place(customer.token).expect(400);
    expect(res.body).toEqual({
      success: false,
      statusCode: 400,
      message: 'Your cart is empty',
      code: 'EMPTY_CART',
      params: {},
    });
  });

  it('refuses the whole order when one line is short, naming the product, and reserves nothing', async () => {
    const customer = await newCustomer();
    const plenty = await makeProduct({ name: 'Plenty Soap', price: 20, stock: 10 });
    const scarce = await makeProduct({ name: 'Scarce Musk', price: 200, stock: 3 });
    await add(customer.token, plenty, 4);
    await add(customer.token, scarce, 3);
    await products.updateOne({ _id: scarce }, { $set: { stock: 1 } });
    const res = await place(customer.token).expect(409);
    expect(res.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'Only 1 left in stock for Scarce Musk',
      code: 'INSUFFICIENT_STOCK',
      params: { product: 'Scarce Musk', available: 1, inCart: 0 },
    });
    expect(await stockOf(plenty)).toBe(10);
    expect(await stockOf(scarce)).toBe(1);
    expect(await orders.countDocuments({ user: customer.id })).toBe(0);
  });

  it('refuses an order with a product withdrawn after it was put in the cart', async () => {
    const customer = await newCustomer();
    const kept = await makeProduct({ name: 'Kept Toner', price: 20, stock: 10 });
    const gone = await makeProduct({ name: 'Gone Perfume', price: 20, stock: 10 });
    await add(customer.token, kept, 2);
    await add(customer.token, gone, 1);
    await request(t.http).delete(`/api/products/${gone}`).set(auth(admin.token)).expect(200);
    const res = await place(customer.token).expect(409);
    expect(res.body.message).toBe('Gone Perfume is no longer available');
    expect(await stockOf(kept)).toBe(10);
  });

  it('sells the last unit to exactly one of 20 customers ordering at the same moment', async () => {
    const last = await makeProduct({ name: 'Last Jar Honey Mask', price: 350, stock: 1 });
    const customers = await Promise.all(Array.from({ length: 20 }, () => newCustomer()));
    for (const c of customers) await add(c.token, last);
    const results = await Promise.all(customers.map((c) => place(c.token)));
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.body.message).toBe('Last Jar Honey Mask is out of stock');
    expect(await stockOf(last)).toBe(0);
    expect(await orders.countDocuments({ 'orderItems.product': last })).toBe(1);
  });

  it('sells crossed carts (A then B, B then A) to exactly one buyer each time, holding nothing for the others', async () => {
    const a = await makeProduct({ name: 'Crossed Argan Oil', price: 100, stock: 1 });
    const b = await makeProduct({ name: 'Crossed Black Soap', price: 50, stock: 1 });
    const customers = await Promise.all(Array.from({ length: 10 }, () => newCustomer()));
    for (const [n, c] of customers.entries()) {
      for (const id of n % 2 ? [b, a] : [a, b]) await add(c.token, id);
    }
    const results = await Promise.all(customers.map((c) => place(c.token)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(9);
    for (const r of refused)
      expect(r.body.message).toMatch(/^Crossed (Argan Oil|Black Soap) is out of stock$/);
    expect([await stockOf(a), await stockOf(b)]).toEqual([0, 0]);
    expect(await orders.countDocuments({ 'orderItems.product': { $in: [a, b] } })).toBe(1);
  });

  it('writes nothing when the order cannot be written after its stock was reserved (one transaction)', async () => {
    const customer = await newCustomer();
    const first = await makeProduct({ name: 'Atomic Rose Water', price: 30, stock: 5 });
    const second = await makeProduct({ name: 'Atomic Clay Mask', price: 40, stock: 5 });
    await add(customer.token, first, 2);
    await add(customer.token, second, 3);
    // the order's insert (through the model's collection) fails after both lines were reserved
    const create = jest.spyOn(orders.collection, 'insertOne').mockRejectedValueOnce(new Error('disk full'));
    try {
      const failed = await place(customer.token).expect(500);
      expect(failed.body).toEqual({
        success: false,
        statusCode: 500,
        message: 'Internal server error',
        code: 'INTERNAL_ERROR',
        params: {},
      });
    } finally {
      create.mockRestore();
    }
    expect([await stockOf(first), await stockOf(second)]).toEqual([5, 5]);
    expect(await orders.countDocuments({ user: customer.id })).toBe(0);
    const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(cart.body.products.map((l: { quantity: number }) => l.quantity).sort()).toEqual([2, 3]);
    // The same cart then orders normally.
    await place(customer.token).expect(201);
    expect([await stockOf(first), await stockOf(second)]).toEqual([3, 2]);
    expect(
      (await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200)).body.products,
    ).toEqual([]);
  });

  it('honours Idempotency-Key on sequential retries: same order, 200, stock taken once', async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'Retry Cream', price: 80, stock: 10 });
    await add(customer.token, id, 2);
    const first = await place(customer.token).set('Idempotency-Key', 'checkout-abc-1').expect(201);
    const second = await place(customer.token).set('Idempotency-Key', 'checkout-abc-1').expect(200);
    expect(second.body).toEqual(first.body);
    expect(await orders.countDocuments({ user: customer.id })).toBe(1);
    expect(await stockOf(id)).toBe(8);
    // A new key is a new order (here refused: the cart is empty now).
    await place(customer.token).set('Idempotency-Key', 'checkout-abc-2').expect(400);
    // Keys are per customer: another customer's same key is their own order.
    const other = await newCustomer();
    await add(other.token, id);
    const theirs = await place(other.token).set('Idempotency-Key', 'checkout-abc-1').expect(201);
    expect(theirs.body.order._id).not.toBe(first.body.order._id);
    expect(await stockOf(id)).toBe(7);
  });

  it('answers a retry of a placed order after the cart was filled again, leaving the new cart and stock alone', async () => {
    const customer = await newCustomer();
    const first = await makeProduct({ name: 'Refill Toner', price: 70, stock: 5 });
    const second = await makeProduct({ name: 'Refill Mist', price: 90, stock: 5 });
    await add(customer.token, first, 2);
    const placed = await place(customer.token).set('Idempotency-Key', 'refill-1').expect(201);
    await add(customer.token, second, 3);
    // the retry runs into the order its key already made: its transaction (cart taken, stock
    // reserved) is undone and the first order answered
    const retry = await place(customer.token).set('Idempotency-Key', 'refill-1').expect(200);
    expect(retry.body).toEqual(placed.body);
    expect(await orders.countDocuments({ user: customer.id })).toBe(1);
    expect([await stockOf(first), await stockOf(second)]).toEqual([3, 5]);
    const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(cart.body.products.map((l: { quantity: number }) => l.quantity)).toEqual([3]);
    // and the new cart orders under a new key
    const next = await place(customer.token).set('Idempotency-Key', 'refill-2').expect(201);
    expect(next.body.order.orderItems).toMatchObject([{ name: 'Refill Mist', quantity: 3 }]);
  });

  it('refuses a reused Idempotency-Key that comes with a different request with 422, making nothing', async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'Reused Key Balm', price: 60, stock: 10 });
    await add(customer.token, id, 1);
    const first = await place(customer.token, { shippingAddress: address, shippingMethod: 'standard' })
      .set('Idempotency-Key', 'reuse-1')
      .expect(201);
    const other = await place(customer.token, { shippingAddress: address, shippingMethod: 'express' })
      .set('Idempotency-Key', 'reuse-1')
      .expect(422);
    expect(other.body).toEqual({
      success: false,
      statusCode: 422,
      message: 'This Idempotency-Key was already used for a different order request',
      code: 'IDEMPOTENCY_KEY_REUSED',
      params: {},
    });
    // the same request again is still a replay, and the answer never exposes the fingerprint
    const again = await place(customer.token, { shippingAddress: address, shippingMethod: 'standard' })
      .set('Idempotency-Key', 'reuse-1')
      .expect(200);
    expect(again.body).toEqual(first.body);
    expect(JSON.stringify(again.body)).not.toMatch(/fingerprint|idempotency/i);
    expect(await orders.countDocuments({ user: customer.id })).toBe(1);
    expect(await stockOf(id)).toBe(9);
  });

  it('honours Idempotency-Key on concurrent retries: one order, every answer the same', async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'Double Click Oil', price: 60, stock: 1 });
    await add(customer.token, id);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => place(customer.token).set('Idempotency-Key', 'double-click')),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => r.body.order._id));
    expect(ids.size).toBe(1);
    expect(await orders.countDocuments({ user: customer.id })).toBe(1);
    expect(await stockOf(id)).toBe(0);
  });

  it('releases the key of a refused request, so the same key can be used once the cart is fixed', async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'Second Chance Soap', price: 40, stock: 2 });
    await add(customer.token, id, 2);
    await products.updateOne({ _id: id }, { $set: { stock: 1 } });
    const refused = await place(customer.token).set('Idempotency-Key', 'retry-after-fix').expect(409);
    expect(refused.body.message).toBe('Only 1 left in stock for Second Chance Soap');
    await request(t.http)
      .patch(`/api/cart/update/${id}`)
      .set(auth(customer.token))
      .send({ quantity: 1 })
      .expect(200);
    const placed = await place(customer.token).set('Idempotency-Key', 'retry-after-fix').expect(201);
    expect(placed.body.order.orderItems[0].quantity).toBe(1);
    await place(customer.token).set('Idempotency-Key', 'retry-after-fix').expect(200);
    expect(await stockOf(id)).toBe(0);
  });

  it('refuses a malformed Idempotency-Key with 400', async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'Key Check Balm', price: 60, stock: 3 });
    await add(customer.token, id);
    const res = await place(customer.token).set('Idempotency-Key', 'x'.repeat(256)).expect(400);
    expect(res.body.message).toBe('Idempotency-Key must be 1 to 255 visible ASCII characters');
    expect(await stockOf(id)).toBe(3);
  });

  it("lists the customer's own orders newest first", async () => {
    const customer = await newCustomer();
    const id = await makeProduct({ name: 'History Soap', price: 10, stock: 10 });
    await add(customer.token, id, 1);
    const older = await place(customer.token).expect(201);
    await add(customer.token, id, 2);
    const newer = await place(customer.token).expect(201);
    const stranger = await newCustomer();
    await add(stranger.token, id, 1);
    await place(stranger.token).expect(201);
    const res = await request(t.http).get('/api/orders/my-orders').set(auth(customer.token)).expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.orders.map((o: { _id: string }) => o._id)).toEqual([
      newer.body.order._id,
      older.body.order._id,
    ]);
    expect(res.body.orders[0]).toMatchObject({
      subtotal: 20,
      orderItems: [{ name: 'History Soap', quantity: 2, priceAtPurchase: 10 }],
    });
    const empty = await newCustomer();
    expect(
      (await request(t.http).get('/api/orders/my-orders').set(auth(empty.token)).expect(200)).body,
    ).toEqual({ success: true, orders: [] });
  });

  it('shows an order to its owner and admins only; to anyone else it does not exist', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Private Parcel', price: 10, stock: 10 });
    await add(owner.token, id);
    const placed = await place(owner.token).expect(201);
    const orderId = placed.body.order._id;
    const mine = await request(t.http).get(`/api/orders/${orderId}`).set(auth(owner.token)).expect(200);
    expect(mine.body).toEqual(placed.body.order);
    await request(t.http).get(`/api/orders/${orderId}`).set(auth(admin.token)).expect(200);
    const other = await newCustomer();
    const hidden = await request(t.http).get(`/api/orders/${orderId}`).set(auth(other.token)).expect(404);
    expect(hidden.body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Order not found',
      code: 'ORDER_NOT_FOUND',
      params: {},
    });
    await request(t.http).patch(`/api/orders/${orderId}/cancel`).set(auth(other.token)).expect(404);
    await request(t.http).get('/api/orders/000000000000000000000000').set(auth(owner.token)).expect(404);
    await request(t.http).get('/api/orders/not-an-id').set(auth(owner.token)).expect(404);
    expect((await orders.findById(orderId).lean())!.status).toBe('pending');
  });

  it('lets the owner cancel a pending order once, giving the stock back', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Cancel Me Cream', price: 10, stock: 5 });
    await add(owner.token, id, 3);
    const placed = await place(owner.token).expect(201);
    expect(await stockOf(id)).toBe(2);
    const res = await request(t.http)
      .patch(`/api/orders/${placed.body.order._id}/cancel`)
      .set(auth(owner.token))
      .expect(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Order cancelled',
      order: { status: 'cancelled', paymentStatus: 'unpaid' },
    });
    expect(res.body.order.statusHistory.map((h: { status: string; by: string }) => [h.status, h.by])).toEqual(
      [
        ['pending', owner.id],
        ['cancelled', owner.id],
      ],
    );
    expect(await stockOf(id)).toBe(5);
    const again = await request(t.http)
      .patch(`/api/orders/${placed.body.order._id}/cancel`)
      .set(auth(owner.token))
      .expect(409);
    expect(again.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'Cannot cancel an order that is cancelled',
      code: 'CANNOT_CANCEL',
      params: { status: 'cancelled' },
    });
    expect(await stockOf(id)).toBe(5);
  });

  it('restores stock exactly once when a cancellation is sent twice at the same moment', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Twice Cancelled Oil', price: 10, stock: 4 });
    await add(owner.token, id, 4);
    const placed = await place(owner.token).expect(201);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        request(t.http).patch(`/api/orders/${placed.body.order._id}/cancel`).set(auth(owner.token)),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await stockOf(id)).toBe(4);
    const stored = await orders.findById(placed.body.order._id).lean();
    expect(stored!.statusHistory.filter((h) => h.status === 'cancelled')).toHaveLength(1);
  });

  it('keeps the order unchanged when its stock cannot be given back (status and stock change together)', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Atomic Cancel Balm', price: 10, stock: 5 });
    await add(owner.token, id, 2);
    const placed = await place(owner.token).expect(201);
    // the stock's write (releaseStock's conditional findOneAndUpdate) fails
    const updateOne = jest.spyOn(products, 'findOneAndUpdate').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    try {
      await request(t.http)
        .patch(`/api/orders/${placed.body.order._id}/cancel`)
        .set(auth(owner.token))
        .expect(500);
    } finally {
      updateOne.mockRestore();
    }
    expect((await orders.findById(placed.body.order._id).lean())!.status).toBe('pending');
    expect(await stockOf(id)).toBe(3);
    await request(t.http)
      .patch(`/api/orders/${placed.body.order._id}/cancel`)
      .set(auth(owner.token))
      .expect(200);
    expect(await stockOf(id)).toBe(5);
  });

  it('lets the owner cancel while processing, flags a paid order for refund, and refuses once shipped', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Paid Then Cancelled', price: 100, stock: 10 });
    await add(owner.token, id, 2);
    const paid = await place(owner.token).expect(201);
    await orders.updateOne(
      { _id: paid.body.order._id },
      { $set: { paymentStatus: 'paid', paidAt: new Date() } },
    );
    await request(t.http)
      .patch(`/api/orders/${paid.body.order._id}/status`)
      .set(auth(admin.token))
      .send({ status: 'processing' })
      .expect(200);
    const cancelled = await request(t.http)
      .patch(`/api/orders/${paid.body.order._id}/cancel`)
      .set(auth(owner.token))
      .expect(200);
    expect(cancelled.body.order).toMatchObject({ status: 'cancelled', paymentStatus: 'refund_pending' });
    expect(await stockOf(id)).toBe(10);

    await add(owner.token, id, 1);
    // fulfilment follows payment (docs/decisions/0080): a pay-on-delivery order may ship unpaid
    const shipped = await place(owner.token, {
      shippingAddress: address,
      paymentMethod: 'cash_on_delivery',
    }).expect(201);
    await request(t.http)
      .patch(`/api/orders/${shipped.body.order._id}/status`)
      .set(auth(admin.token))
      .send({ status: 'processing' })
      .expect(200);
    await request(t.http)
      .patch(`/api/orders/${shipped.body.order._id}/status`)
      .set(auth(admin.token))
      .send({ status: 'shipped' })
      .expect(200);
    const refused = await request(t.http)
      .patch(`/api/orders/${shipped.body.order._id}/cancel`)
      .set(auth(owner.token))
      .expect(409);
    expect(refused.body.message).toBe('Cannot cancel an order that is shipped');
    expect(await stockOf(id)).toBe(9);
  });

  it('moves an order through the status machine for admins, with history, tracking number and audit', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Journey Shampoo', price: 10, stock: 10 });
    await add(owner.token, id);
    // pay on delivery: fulfilment follows payment (docs/decisions/0080), and a COD order may ship unpaid
    const placed = await place(owner.token, {
      shippingAddress: address,
      paymentMethod: 'cash_on_delivery',
    }).expect(201);
    const orderId = placed.body.order._id;
    const url = `/api/orders/${orderId}/status`;
    const forbidden = await request(t.http)
      .patch(url)
      .set(auth(owner.token))
      .send({ status: 'processing' })
      .expect(403);
    expect(forbidden.body.message).toBe('Access denied');
    const skip = await request(t.http)
      .patch(url)
      .set(auth(admin.token))
      .send({ status: 'delivered' })
      .expect(409);
    expect(skip.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'Cannot change order status from pending to delivered',
      code: 'INVALID_STATUS_TRANSITION',
      params: { from: 'pending', to: 'delivered' },
    });
    await request(t.http).patch(url).set(auth(admin.token)).send({ status: 'processing' }).expect(200);
    const shipped = await request(t.http)
      .patch(url)
      .set(auth(admin.token))
      .send({ status: 'shipped', trackingNumber: 'ET123456' })
      .expect(200);
    expect(shipped.body).toMatchObject({
      success: true,
      message: 'Order status updated',
      order: { status: 'shipped', trackingNumber: 'ET123456' },
    });
    const retracked = await request(t.http)
      .patch(url)
      .set(auth(admin.token))
      .send({ status: 'shipped', trackingNumber: 'ET999' })
      .expect(200);
    expect(retracked.body.order.trackingNumber).toBe('ET999');
    await request(t.http).patch(url).set(auth(admin.token)).send({ status: 'shipped' }).expect(409);
    const delivered = await request(t.http)
      .patch(url)
      .set(auth(admin.token))
      .send({ status: 'delivered' })
      .expect(200);
    expect(
      delivered.body.order.statusHistory.map((h: { status: string; by: string }) => [h.status, h.by]),
    ).toEqual([
      ['pending', owner.id],
      ['processing', admin.id],
      ['shipped', admin.id],
      ['delivered', admin.id],
    ]);
    const back = await request(t.http)
      .patch(url)
      .set(auth(admin.token))
      .send({ status: 'pending' })
      .expect(409);
    expect(back.body.message).toBe('Cannot change order status from delivered to pending');
    await request(t.http).patch(url).set(auth(admin.token)).send({ status: 'cancelled' }).expect(409);
    expect(await stockOf(id)).toBe(9);
    const audit: Model<AuditEntry> = t.app.get(getModelToken(AuditEntry.name));
    const entries = await audit
      .find({ entity: 'order', entityId: orderId, action: 'order.status' })
      .sort({ createdAt: 1 })
      .lean();
    expect(entries.map((e) => [e.from, e.to, e.actorEmail])).toEqual([
      ['pending', 'processing', admin.email],
      ['processing', 'shipped', admin.email],
      ['shipped', 'delivered', admin.email],
    ]);
  });

  it('refuses bad status input with 400 and unknown orders with 404', async () => {
    const url = '/api/orders/000000000000000000000000/status';
    const bad = await request(t.http).patch(url).set(auth(admin.token)).send({ status: 'lost' }).expect(400);
    expect(bad.body.errors).toEqual([
      {
        field: 'status',
        message: 'status must be one of pending, processing, shipped, delivered, cancelled',
        code: 'VALIDATION_FAILED',
      },
    ]);
    await request(t.http).patch(url).set(auth(admin.token)).send({}).expect(400);
    await request(t.http)
      .patch(url)
      .set(auth(admin.token))
      .send({ status: 'shipped', trackingNumber: 5 })
      .expect(400);
    const missing = await request(t.http)
      .patch(url)
      .set(auth(admin.token))
      .send({ status: 'shipped' })
      .expect(404);
    expect(missing.body.message).toBe('Order not found');
    await request(t.http)
      .patch('/api/orders/nope/status')
      .set(auth(admin.token))
      .send({ status: 'shipped' })
      .expect(404);
  });

  it('cancels as an admin: stock back, a paid order flagged refund_pending', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Admin Cancel Kit', price: 10, stock: 6 });
    await add(owner.token, id, 6);
    const placed = await place(owner.token).expect(201);
    await orders.updateOne({ _id: placed.body.order._id }, { $set: { paymentStatus: 'paid' } });
    const res = await request(t.http)
      .patch(`/api/orders/${placed.body.order._id}/status`)
      .set(auth(admin.token))
      .send({ status: 'cancelled' })
      .expect(200);
    expect(res.body.order).toMatchObject({ status: 'cancelled', paymentStatus: 'refund_pending' });
    expect(await stockOf(id)).toBe(6);
  });

  it('exposes changeStatus on OrderStatusService for the admin API', async () => {
    const owner = await newCustomer();
    const id = await makeProduct({ name: 'Service Call Mask', price: 10, stock: 2 });
    await add(owner.token, id, 2);
    // pay on delivery: an unpaid Chapa order may not move to processing (docs/decisions/0080)
    const placed = await place(owner.token, {
      shippingAddress: address,
      paymentMethod: 'cash_on_delivery',
    }).expect(201);
    const service = t.app.get(OrderStatusService);
    const actor: AuthUser = { id: admin.id, role: 'admin', email: admin.email, name: admin.name };
    const view = await service.changeStatus(placed.body.order._id, 'processing', actor, 'TRK-1');
    expect(view).toMatchObject({
      _id: placed.body.order._id,
      id: placed.body.order._id,
      status: 'processing',
      trackingNumber: 'TRK-1',
      totalAmount: 173,
    });
    await expect(service.changeStatus(placed.body.order._id, 'pending', actor)).rejects.toMatchObject({
      type: 'CONFLICT',
      message: 'Cannot change order status from processing to pending',
    });
    await service.changeStatus(placed.body.order._id, 'cancelled', actor);
    expect(await stockOf(id)).toBe(2);
  });

  it('answers the seeded demo orders through the same view', async () => {
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.customer.email, password: DEMO_ACCOUNTS.customer.password })
      .expect(200);
    const res = await request(t.http).get('/api/orders/my-orders').set(auth(login.body.token)).expect(200);
    // the seed gives the demo customer orders: an empty list would check nothing
    expect(res.body.orders.length).toBeGreaterThan(0);
    for (const order of res.body.orders) {
      expect(order.totalAmount).toBeCloseTo(order.subtotal + order.shippingCost + order.tax, 2);
      expect(order.orderItems.length).toBeGreaterThan(0);
    }
  });

  it('answers the doubled /api/api/orders prefix as the same route', async () => {
    const customer = await newCustomer();
    await request(t.http).get('/api/api/orders/my-orders').set(auth(customer.token)).expect(200);
  });
});
