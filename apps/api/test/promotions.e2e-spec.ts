import { getModelToken } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Clock } from '../src/common/clock';
import { PromotionsService } from '../src/modules/promotions/promotions.service';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
const HOUR = 3_600_000;
/** A fixed "now" for the whole file: the sales are placed around it and the clock is moved through them. */
const T0 = Date.parse('2027-01-15T06:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();

describe('scheduled sales (promotions)', () => {
  let t: TestApp;
  let admin: string;
  let clock: Clock;
  const newCustomer = customerFactory(() => t, 'promo', 'Promo Customer');

  const product = async (fields: {
    name: string;
    price: number;
    category?: string;
    originalPrice?: number;
  }) => {
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ images: ['/api/assets/products/x.svg'], stock: 20, ...fields })
      .expect(201);
    return res.body.product._id as string;
  };
  const sale = (body: Record<string, unknown>) =>
    request(t.http)
      .post('/api/admin/promotions')
      .set(auth(admin))
      .send({
        name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' },
        kind: 'percent',
        value: 20,
        startsAt: at(T0 + HOUR),
        endsAt: at(T0 + 5 * HOUR),
        ...body,
      });
  const detail = async (id: string) => (await request(t.http).get(`/api/products/${id}`).expect(200)).body;
  /** Moves the clock and lets the sales follow it, as the instance's tick does at each boundary. */
  const moveTo = async (ms: number) => {
    clock.set(ms);
    await t.app.get(PromotionsService).sync();
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    clock = t.app.get(Clock);
    clock.set(T0);
  });

  afterAll(async () => {
    clock.set(undefined);
    await t.close();
  });

  it('is for staff only', async () => {
    await request(t.http).get('/api/admin/promotions').expect(401);
    const customer = await newCustomer();
    await request(t.http).get('/api/admin/promotions').set(auth(customer.token)).expect(403);
  });

  it('refuses bad sales with codes and writes nothing', async () => {
    const id = await product({ name: 'Refusal Serum', price: 100 });
    const before = (await request(t.http).get('/api/admin/promotions').set(auth(admin)).expect(200)).body
      .length;
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ productIds: [id], value: 101 }, 400, 'INVALID_PROMOTION'],
      [{ productIds: [id], value: 0 }, 400, 'INVALID_PROMOTION'],
      [{ productIds: [id], value: -5 }, 400, 'INVALID_PROMOTION'],
      [{ productIds: [id], kind: 'fixed', value: 100 }, 400, 'INVALID_PROMOTION'],
      [{ productIds: [id], endsAt: at(T0) }, 400, 'INVALID_PROMOTION'],
      [{ productIds: [] }, 400, 'INVALID_PROMOTION'],
      [{ categories: ['no-such-category'] }, 400, 'INVALID_PROMOTION'],
      [{ productIds: ['0123456789abcdef01234567'] }, 404, 'PRODUCT_NOT_FOUND'],
      [{ productIds: [id], kind: 'half' }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await sale(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
    }
    const after = (await request(t.http).get('/api/admin/promotions').set(auth(admin)).expect(200)).body
      .length;
    expect(after).toBe(before);
    await request(t.http).get('/api/admin/promotions/0123456789abcdef01234567').set(auth(admin)).expect(404);
    const gone = await request(t.http).delete('/api/admin/promotions/nope').set(auth(admin)).expect(404);
    expect(gone.body.code).toBe('PROMOTION_NOT_FOUND');
    expect((await detail(id)).price).toBe(100);
  });

  it('a product sent back as answered during a sale keeps its regular and compare-at prices (spec PUT and back office)', async () => {
    await moveTo(T0);
    const plain = await product({ name: 'Round Trip Serum', price: 400 });
    const owned = await product({ name: 'Round Trip Oil', price: 400, originalPrice: 600 });
    await sale({ productIds: [plain, owned], startsAt: at(T0 + HOUR), endsAt: at(T0 + 3 * HOUR) }).expect(
      201,
    );
    await moveTo(T0 + 2 * HOUR);
    const answered = await detail(plain);
    expect(answered).toMatchObject({ price: 320, originalPrice: 400, compareAtPrice: 400 });
    // the specification's PUT with the product as answered, and the back office's PUT of its record
    await request(t.http).put(`/api/products/${plain}`).set(auth(admin)).send(answered).expect(200);
    const record = (await request(t.http).get(`/api/admin/products/${owned}`).set(auth(admin)).expect(200))
      .body;
    expect(record).toMatchObject({ price: 320, originalPrice: 600 });
    await request(t.http).put(`/api/admin/products/${owned}`).set(auth(admin)).send(record).expect(200);
    expect(await detail(plain)).toMatchObject({ price: 320, compareAtPrice: 400 });
    // a price the owner really changes is written as the new regular price
    await request(t.http)
      .put(`/api/products/${owned}`)
      .set(auth(admin))
      .send({ ...record, price: 450 })
      .expect(200);
    await moveTo(T0 + 4 * HOUR);
    const [after, ownedAfter] = [await detail(plain), await detail(owned)];
    expect(after.price).toBe(400);
    expect(after.originalPrice).toBeUndefined();
    expect(ownedAfter).toMatchObject({ price: 450, originalPrice: 600 });
  });

  it('starts and ends by the clock: before and after nothing changes, during it the sale price', async () => {
    await moveTo(T0);
    const id = await product({ name: 'Clock Face Oil', price: 500 });
    const created = await sale({ productIds: [id] }).expect(201);
    expect(created.body).toMatchObject({ kind: 'percent', value: 20, status: 'scheduled', active: true });
    const before = await detail(id);
    expect(before.price).toBe(500);
    expect(before.promotion).toBeUndefined();

    await moveTo(T0 + 2 * HOUR);
    const during = await detail(id);
    expect(during).toMatchObject({
      price: 400,
      compareAtPrice: 500,
      originalPrice: 500,
      discount: 20,
      promotion: { name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' }, endsAt: at(T0 + 5 * HOUR) },
    });
    const listed = await request(t.http).get('/api/products').query({ search: 'Clock Face Oil' }).expect(200);
    expect(listed.body.products.find((p: { _id: string }) => p._id === id)).toMatchObject({ price: 400 });
    const suggested = await request(t.http)
      .get('/api/products/suggestions')
      .query({ q: 'Clock Face Oil' })
      .expect(200);
    expect(suggested.body.products.find((p: { _id: string }) => p._id === id)).toMatchObject({
      price: 400,
      compareAtPrice: 500,
    });

    // the clock passes the end: the instance's own tick (no sync called) takes the sale off every answer
    clock.set(T0 + 5 * HOUR);
    let after = await detail(id);
    for (let i = 0; i < 40 && after.promotion; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await detail(id);
    }
    expect(after.price).toBe(500);
    expect(after.promotion).toBeUndefined();
    expect(after.compareAtPrice).toBeUndefined();
    const unsold = await request(t.http)
      .get('/api/products/suggestions')
      .query({ q: 'Clock Face Oil' })
      .expect(200);
    const line = unsold.body.products.find((p: { _id: string }) => p._id === id);
    expect(line.price).toBe(500);
    expect(line.compareAtPrice).toBeUndefined();
  });

  it('pauses, edits and deletes a sale', async () => {
    await moveTo(T0 + 2 * HOUR);
    const id = await product({ name: 'Pause Balm', price: 200 });
    const { body } = await sale({ productIds: [id], kind: 'fixed', value: 50 }).expect(201);
    expect((await detail(id)).price).toBe(150);
    await request(t.http)
      .put(`/api/admin/promotions/${body.id}`)
      .set(auth(admin))
      .send({ active: false })
      .expect(200);
    expect((await detail(id)).price).toBe(200);
    const edited = await request(t.http)
      .put(`/api/admin/promotions/${body.id}`)
      .set(auth(admin))
      .send({ active: true, value: 20 })
      .expect(200);
    expect(edited.body).toMatchObject({ value: 20, status: 'running', name: { en: 'Timket week' } });
    expect((await detail(id)).price).toBe(180);
    await request(t.http)
      .put(`/api/admin/promotions/${body.id}`)
      .set(auth(admin))
      .send({ value: 250 })
      .expect(400);
    await request(t.http).delete(`/api/admin/promotions/${body.id}`).set(auth(admin)).expect(200);
    expect((await detail(id)).price).toBe(200);
  });

  it('moves a sale from one category to another, and reads only the products concerned to do it', async () => {
    await moveTo(T0 + 2 * HOUR);
    const scent = await product({ name: 'Move Oud', price: 500, category: 'fragrance' });
    const hair = await product({ name: 'Move Shampoo', price: 300, category: 'haircare' });
    const { body } = await sale({ categories: ['fragrance'], value: 10 }).expect(201);
    expect((await detail(scent)).price).toBe(450);
    expect((await detail(hair)).price).toBe(300);
    await request(t.http)
      .put(`/api/admin/promotions/${body.id}`)
      .set(auth(admin))
      .send({ categories: ['haircare'] })
      .expect(200);
    // the fragrance product carried the sale: it is read and loses it; the haircare one gains it
    expect((await detail(scent)).price).toBe(500);
    expect((await detail(hair)).price).toBe(270);

    // what one sync reads: the targeted and the sale-carrying products, not the whole catalogue
    const model = t.app.get<Model<Product>>(getModelToken(Product.name));
    const filters: FilterQuery<Product>[] = [];
    const realFind = model.find.bind(model);
    const find = jest.spyOn(model, 'find').mockImplementation(((
      filter: FilterQuery<Product>,
      ...rest: []
    ) => {
      filters.push(filter);
      return realFind(filter, ...rest);
    }) as typeof model.find);
    await t.app.get(PromotionsService).sync();
    find.mockRestore();
    expect(filters).toHaveLength(1);
    const read = await model.countDocuments(filters[0]);
    const carrying = await model.countDocuments({ 'sales.promotion': { $exists: true } });
    const targeted = await model.countDocuments({ category: 'haircare' });
    expect(read).toBeGreaterThanOrEqual(Math.max(carrying, targeted));
    expect(read).toBeLessThan(await model.countDocuments({}));
    expect(await model.countDocuments({ ...filters[0], _id: scent })).toBe(0);
    await request(t.http).delete(`/api/admin/promotions/${body.id}`).set(auth(admin)).expect(200);
  });

  it('gives the best single sale when sales overlap, by category and by product', async () => {
    await moveTo(T0 + 2 * HOUR);
    const id = await product({ name: 'Overlap Cleanser', price: 1000, category: 'haircare' });
    await sale({ categories: ['haircare'], value: 10, name: { en: 'Hair month', am: 'የፀጉር ወር' } }).expect(
      201,
    );
    await sale({
      productIds: [id],
      kind: 'fixed',
      value: 150,
      name: { en: 'Cleanser day', am: 'የማጽጃ ቀን' },
    }).expect(201);
    const both = await detail(id);
    expect(both).toMatchObject({
      price: 850,
      compareAtPrice: 1000,
      promotion: { name: { en: 'Cleanser day' } },
    });
  });

  it('prices the cart and the order at the sale price now, and the order keeps it after the sale', async () => {
    await moveTo(T0 + 2 * HOUR);
    const id = await product({ name: 'Order Sale Soap', price: 300 });
    await sale({ productIds: [id], value: 50, endsAt: at(T0 + 3 * HOUR) }).expect(201);
    const customer = await newCustomer();
    const cart = await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    expect(cart.body.total).toBe(300);
    expect(cart.body.products[0].product).toMatchObject({ price: 150, compareAtPrice: 300 });
    const placed = await request(t.http)
      .post('/api/orders')
      .set(auth(customer.token))
      .send({ shippingAddress: address, paymentMethod: 'chapa' })
      .expect(201);
    expect(placed.body.order).toMatchObject({ subtotal: 300, shippingCost: 150, tax: 45, totalAmount: 495 });
    expect(placed.body.order.orderItems[0]).toMatchObject({ quantity: 2, priceAtPurchase: 150 });

    // the sale ends while a second cart waits: the cart and the order take the regular price
    const late = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(late.token))
      .send({ productId: id, quantity: 1 })
      .expect(200);
    await moveTo(T0 + 3 * HOUR);
    const repriced = await request(t.http).get('/api/cart').set(auth(late.token)).expect(200);
    expect(repriced.body.total).toBe(300);
    expect(repriced.body.notices).toEqual([
      expect.objectContaining({
        productId: id,
        type: 'repriced',
        code: 'NOTICE_SALE_ENDED',
        params: { product: 'Order Sale Soap', price: 300 },
      }),
    ]);
    // told once
    const again = await request(t.http).get('/api/cart').set(auth(late.token)).expect(200);
    expect(again.body.notices).toBeUndefined();
    const regular = await request(t.http)
      .post('/api/orders')
      .set(auth(late.token))
      .send({ shippingAddress: address, paymentMethod: 'chapa' })
      .expect(201);
    expect(regular.body.order.orderItems[0]).toMatchObject({ priceAtPurchase: 300 });
    const kept = await request(t.http)
      .get(`/api/orders/${placed.body.order._id}`)
      .set(auth(customer.token))
      .expect(200);
    expect(kept.body.orderItems[0]).toMatchObject({ priceAtPurchase: 150 });
  });
});

describe('the demo seed with SEED_DEMO_SALE', () => {
  it('adds one running "Timket week" sale, 20% off skincare, once', async () => {
    const t = await startTestApp({ SEED_DEMO_SALE: 'true' });
    try {
      await t.app.get(SeedService).seed();
      await t.app.get(SeedService).seed();
      const admin = await loginAs(t, DEMO_ACCOUNTS.admin);
      const sales = (await request(t.http).get('/api/admin/promotions').set(auth(admin)).expect(200)).body;
      expect(sales).toEqual([
        expect.objectContaining({
          name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' },
          kind: 'percent',
          value: 20,
          categories: ['skincare'],
          status: 'running',
        }),
      ]);
      const listed = await request(t.http).get('/api/products').query({ category: 'skincare' }).expect(200);
      expect(listed.body.products.length).toBeGreaterThan(0);
      for (const p of listed.body.products) {
        expect(p.promotion).toMatchObject({ name: { en: 'Timket week' } });
        expect(p.price).toBeLessThan(p.compareAtPrice);
      }
    } finally {
      await t.close();
    }
  });
});

describe('a sale ending under a 60 s hot cache', () => {
  it('is off the detail and the listings within about a tick, without any call but the clock', async () => {
    const t = await startTestApp({ HOT_CACHE_TTL_MS: '60000' });
    const clock = t.app.get(Clock);
    try {
      await t.app.get(SeedService).seed();
      const admin = await loginAs(t, DEMO_ACCOUNTS.admin);
      clock.set(T0);
      const made = await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name: 'Cached Rose Toner', price: 200, stock: 5, images: ['/api/assets/products/x.svg'] })
        .expect(201);
      const id = made.body.product._id as string;
      await request(t.http)
        .post('/api/admin/promotions')
        .set(auth(admin))
        .send({
          name: { en: 'Short sale', am: 'አጭር ቅናሽ' },
          kind: 'percent',
          value: 50,
          productIds: [id],
          startsAt: at(T0 - HOUR),
          endsAt: at(T0 + HOUR),
        })
        .expect(201);
      const read = async () => ({
        detail: (await request(t.http).get(`/api/products/${id}`).expect(200)).body.price,
        listed: (
          await request(t.http).get('/api/products').query({ search: 'Cached Rose Toner' }).expect(200)
        ).body.products.find((p: { _id: string }) => p._id === id)?.price,
        listedAll: (
          await request(t.http).get('/api/products').query({ limit: 100, sort: 'newest' }).expect(200)
        ).body.products.find((p: { _id: string }) => p._id === id)?.price,
      });
      // read twice during the sale: the answers are kept by the hot cache
      expect(await read()).toEqual({ detail: 100, listed: 100, listedAll: 100 });
      expect(await read()).toEqual({ detail: 100, listed: 100, listedAll: 100 });
      clock.set(T0 + HOUR); // the end: only the instance's own tick follows it
      let seen = await read();
      for (
        let i = 0;
        i < 40 && JSON.stringify(seen) !== JSON.stringify({ detail: 200, listed: 200, listedAll: 200 });
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
        seen = await read();
      }
      expect(seen).toEqual({ detail: 200, listed: 200, listedAll: 200 });
    } finally {
      clock.set(undefined);
      await t.close();
    }
  });
});
