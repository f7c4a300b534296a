import { getModelToken } from '@nestjs/mongoose';
import { ORDER_NUMBER_PATTERN } from '@shop/shared';
import type { Model } from 'mongoose';
import request from 'supertest';
import { OrderNumbersService } from '../src/modules/orders/order-numbers.service';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { SEED_PRODUCTS } from '../src/seed/data/products';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa' };

describe('orders for Ethiopia: region, phone, landmark, order numbers, Amharic', () => {
  let t: TestApp;
  let admin: string;
  let orders: Model<Order>;
  const newCustomer = customerFactory(() => t, 'ethorder', 'Ethiopia Order Customer');

  const makeProduct = async (name: string, price: number, stock: number, nameAm?: string) => {
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ name, price, stock, ...(nameAm ? { nameAm } : {}) })
      .expect(201);
    return res.body.product._id as string;
  };
  const add = (token: string, productId: string, quantity = 1) =>
    request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity }).expect(200);
  const place = (token: string, body: Record<string, unknown>) =>
    request(t.http).post('/api/orders').set(auth(token)).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    orders = t.app.get(getModelToken(Order.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('accepts a region by English name, Amharic name or code and stores the English name', async () => {
    const id = await makeProduct('Region Oil', 100, 50);
    const customer = await newCustomer();
    for (const [state, stored] of [
      ['ኦሮሚያ', 'Oromia'],
      ['ti', 'Tigray'],
      ['addis ababa', 'Addis Ababa'],
    ]) {
      await add(customer.token, id);
      const res = await place(customer.token, {
        shippingAddress: { ...address, state, phone: '0911 22 33 44' },
      }).expect(201);
      expect(res.body.order.shippingAddress).toMatchObject({ state: stored, phone: '+251911223344' });
      expect(res.body.order.shippingAddress.zipCode).toBeUndefined();
    }
  });

  it('refuses an unknown region and a phone that is not an Ethiopian mobile, changing nothing', async () => {
    const id = await makeProduct('Region Refused Oil', 100, 5);
    const customer = await newCustomer();
    await add(customer.token, id, 2);
    const region = await place(customer.token, { shippingAddress: { ...address, state: 'Nairobi' } }).expect(
      400,
    );
    // specific codes, so that clients show their own text (libs/i18n errors.INVALID_REGION / INVALID_PHONE)
    expect(region.body.code).toBe('INVALID_REGION');
    expect(region.body.errors).toEqual([
      {
        field: 'shippingAddress.state',
        message: 'state must be one of Ethiopia’s regions or chartered cities',
        code: 'INVALID_REGION',
      },
    ]);
    for (const phone of ['0111234567', '+254712345678', '0911', 12345]) {
      const bad = await place(customer.token, { shippingAddress: { ...address, phone } }).expect(400);
      expect(bad.body.code).toBe('INVALID_PHONE');
      expect(bad.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
        ['shippingAddress.phone', 'INVALID_PHONE'],
      ]);
    }
    // a bad phone and a missing street together: the answer is VALIDATION_FAILED, each field keeps its code
    const both = await place(customer.token, {
      shippingAddress: { ...address, street: '', phone: '0111234567' },
    }).expect(400);
    expect(both.body.code).toBe('VALIDATION_FAILED');
    expect(both.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'shippingAddress.phone', code: 'INVALID_PHONE' }),
        expect.objectContaining({ field: 'shippingAddress.street', code: 'VALIDATION_FAILED' }),
      ]),
    );
    const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(cart.body.itemCount).toBe(2);
    expect(await orders.countDocuments({ user: customer.id })).toBe(0);
  });

  it('keeps the landmark, and falls back to the profile phone when a spec client sends none', async () => {
    const id = await makeProduct('Landmark Soap', 40, 20);
    const customer = await newCustomer();
    await request(t.http).put('/api/users/profile').set(auth(customer.token)).send({ phone: '0712 345 678' });
    await add(customer.token, id);
    const res = await place(customer.token, {
      shippingAddress: {
        ...address,
        zipCode: '1000',
        country: 'Ethiopia',
        landmark: 'Woreda 03, near Edna Mall',
      },
      paymentMethod: 'chapa',
    }).expect(201);
    expect(res.body.order.shippingAddress).toEqual({
      ...address,
      zipCode: '1000',
      country: 'Ethiopia',
      landmark: 'Woreda 03, near Edna Mall',
      phone: '+251712345678',
    });
    // Without a profile phone either, the order is still taken (spec clients), just without one.
    const bare = await newCustomer();
    await add(bare.token, id);
    const none = await place(bare.token, { shippingAddress: address }).expect(201);
    expect(none.body.order.shippingAddress.phone).toBeUndefined();
  });

  it('keeps the Amharic product name on the order line at purchase', async () => {
    const id = await makeProduct('Amharic Name Cream', 75, 5, 'የስም ክሬም');
    const customer = await newCustomer();
    await add(customer.token, id);
    const res = await place(customer.token, { shippingAddress: address }).expect(201);
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({ name: 'Renamed Cream', nameAm: 'አዲስ ስም', price: 75, stock: 4 })
      .expect(200);
    const mine = await request(t.http).get('/api/orders/my-orders').set(auth(customer.token)).expect(200);
    const order = mine.body.orders.find((o: { _id: string }) => o._id === res.body.order._id);
    expect(order.orderItems[0]).toMatchObject({ name: 'Amharic Name Cream', nameAm: 'የስም ክሬም' });
  });

  it('numbers orders AN-1xxxx, unique and sequential even when many are placed at once', async () => {
    const id = await makeProduct('Rush Hour Serum', 10, 500);
    const customers = await Promise.all(Array.from({ length: 12 }, () => newCustomer()));
    for (const c of customers) await add(c.token, id);
    const placed = await Promise.all(
      customers.map((c) => place(c.token, { shippingAddress: { ...address, phone: '0911000000' } })),
    );
    expect(placed.map((r) => r.status)).toEqual(customers.map(() => 201));
    const numbers = placed.map((r) => r.body.order.orderNumber as string);
    for (const n of numbers) expect(n).toMatch(ORDER_NUMBER_PATTERN);
    expect(new Set(numbers).size).toBe(numbers.length);
    const seqs = numbers.map((n) => Number(n.slice(3))).sort((a, b) => a - b);
    expect(seqs[seqs.length - 1] - seqs[0]).toBe(seqs.length - 1); // no gap among successful orders

    // Straight from the service too: 40 parallel allocations, 40 distinct consecutive numbers.
    const svc = t.app.get(OrderNumbersService);
    const many = await Promise.all(Array.from({ length: 40 }, () => svc.next()));
    const m = many.map((n) => Number(n.slice(3))).sort((a, b) => a - b);
    expect(new Set(m).size).toBe(40);
    expect(m[39] - m[0]).toBe(39);
    expect(m[0]).toBeGreaterThan(seqs[seqs.length - 1]);
  });

  it('has numbered every seeded order, and the number is the same in every answer and searchable by staff', async () => {
    expect(await orders.countDocuments({ orderNumber: { $exists: false } })).toBe(0);
    const id = await makeProduct('Findable Balm', 30, 5);
    const customer = await newCustomer();
    await add(customer.token, id);
    const placed = await place(customer.token, { shippingAddress: address }).expect(201);
    const { _id, orderNumber } = placed.body.order;
    const one = await request(t.http).get(`/api/orders/${_id}`).set(auth(customer.token)).expect(200);
    expect(one.body.orderNumber).toBe(orderNumber);
    const mine = await request(t.http).get('/api/orders/my-orders').set(auth(customer.token)).expect(200);
    expect(mine.body.orders[0].orderNumber).toBe(orderNumber);
    for (const q of [orderNumber, orderNumber.toLowerCase(), `#${orderNumber}`, orderNumber.slice(3)]) {
      const found = await request(t.http)
        .get('/api/admin/orders')
        .query({ filter: JSON.stringify({ q }), range: '[0,9]' })
        .set(auth(admin))
        .expect(200);
      const list = Array.isArray(found.body) ? found.body : (found.body.orders ?? found.body.data);
      expect(list.map((o: { orderNumber: string }) => o.orderNumber)).toContain(orderNumber);
    }
  });

  it('backfills numbers for orders that have none, oldest first', async () => {
    const older = await orders
      .findOne({ orderNumber: { $exists: true } })
      .sort({ createdAt: 1 })
      .lean();
    await orders.updateMany({ _id: older!._id }, { $unset: { orderNumber: 1 } });
    const n = await t.app.get(OrderNumbersService).backfill();
    expect(n).toBe(1);
    const again = await orders.findById(older!._id).lean();
    expect(again!.orderNumber).toMatch(ORDER_NUMBER_PATTERN);
    expect(again!.orderNumber).not.toBe(older!.orderNumber);
  });

  it('prices with VAT included when the setting says so', async () => {
    await request(t.http)
      .put('/api/admin/settings')
      .set(auth(admin))
      .send({ pricesIncludeTax: true })
      .expect(200);
    const pub = await request(t.http).get('/api/settings/public').expect(200);
    expect(pub.body.pricesIncludeTax ?? pub.body.settings?.pricesIncludeTax).toBe(true);
    try {
      const id = await makeProduct('VAT Inclusive Oil', 1150, 5);
      const customer = await newCustomer();
      await add(customer.token, id);
      const res = await place(customer.token, { shippingAddress: address, shippingMethod: 'express' }).expect(
        201,
      );
      expect(res.body.order).toMatchObject({
        subtotal: 1150,
        tax: 150,
        shippingCost: 300,
        totalAmount: 1450,
        pricesIncludeTax: true,
      });
    } finally {
      await request(t.http)
        .put('/api/admin/settings')
        .set(auth(admin))
        .send({ pricesIncludeTax: false })
        .expect(200);
    }
  });

  it('seeds real Amharic ingredients and benefits for every demo product, editable through the API', async () => {
    const list = await request(t.http).get('/api/products').query({ limit: 100 }).expect(200);
    const seeded = list.body.products.filter((p: { sku?: string }) =>
      SEED_PRODUCTS.some((s) => s.key === p.sku),
    );
    expect(seeded.length).toBeGreaterThan(30);
    for (const p of seeded) {
      expect(p.ingredientsAm).toHaveLength(p.ingredients.length);
      expect(p.benefitsAm).toHaveLength(p.benefits.length);
      // every demo product has some: an empty list would check nothing
      expect(p.ingredientsAm.length + p.benefitsAm.length).toBeGreaterThan(0);
      for (const text of [...p.ingredientsAm, ...p.benefitsAm]) expect(text).toMatch(/[\u1200-\u137F]/);
    }
    const id = await makeProduct('Editable Amharic Oil', 10, 1);
    const put = await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({
        name: 'Editable Amharic Oil',
        price: 10,
        stock: 1,
        ingredientsAm: ['ማር'],
        benefitsAm: ['ይመግባል'],
      })
      .expect(200);
    expect(put.body.product).toMatchObject({ ingredientsAm: ['ማር'], benefitsAm: ['ይመግባል'] });
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({ name: 'x', price: 10, stock: 1, ingredientsAm: 'ማር' })
      .expect(400);
  });
});
