import { getModelToken } from '@nestjs/mongoose';
import { priceOrder, toSantim } from '@shop/shared';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Coupon } from '../src/modules/coupons/schemas/coupon.schema';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

/** Coupon codes (docs/decisions/0096-coupon-codes.md), on the real engine. */
describe('coupon codes', () => {
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;
  let coupons: Model<Coupon>;
  let orders: Model<Order>;
  let outbox: Model<Notification>;
  const newCustomer = customerFactory(() => t, 'coupon', 'Coupon Customer');
  const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa' };
  let serial = 0;
  const unique = () => `${Date.now().toString(36)}${++serial}`.toUpperCase();

  const makeProduct = async (price: number, stock: number) => {
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ brand: 'Habesha Naturals', name: `Coupon Soap ${unique()}`, price, stock })
      .expect(201);
    return res.body.product._id as string;
  };
  const makeCoupon = async (body: Record<string, unknown>) => {
    const res = await request(t.http)
      .post('/api/admin/coupons')
      .set(auth(admin))
      .send({ code: `C${unique()}`, kind: 'percent', value: 10, ...body })
      .expect(201);
    return res.body as { id: string; code: string };
  };
  const usesOf = async (code: string) => (await coupons.findOne({ code }).lean())!.uses;
  const stockOf = async (id: string) => (await products.findById(id).lean())!.stock;

  /** A signed-in customer with `quantity` of the product in the cart. */
  const customerWith = async (productId: string, quantity = 1) => {
    const customer = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId, quantity })
      .expect(200);
    return customer;
  };
  const apply = (token: string, code: string) =>
    request(t.http).post('/api/cart/coupon').set(auth(token)).send({ code });
  const place = (token: string) =>
    request(t.http)
      .post('/api/orders')
      .set(auth(token))
      .send({ shippingAddress: address, paymentMethod: 'chapa' });

  /** A guest cart with the product and the code applied; answers its id. */
  const guestCartWith = async (productId: string, code: string) => {
    const added = await request(t.http).post('/api/cart/add').send({ productId, quantity: 1 }).expect(200);
    const cartId = added.body.cartId as string;
    await request(t.http).post('/api/cart/coupon').set('X-Cart-Id', cartId).send({ code }).expect(200);
    return cartId;
  };
  const placeAsGuest = (cartId: string, phone: string) =>
    request(t.http)
      .post('/api/orders')
      .set('X-Cart-Id', cartId)
      .send({ shippingAddress: address, paymentMethod: 'chapa', guest: { name: 'Hana Tesfaye', phone } });

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    products = t.app.get(getModelToken(Product.name));
    coupons = t.app.get(getModelToken(Coupon.name));
    orders = t.app.get(getModelToken(Order.name));
    outbox = t.app.get(getModelToken(Notification.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('lets staff create, list with uses, read, edit and deactivate codes; customers may not', async () => {
    const created = await request(t.http)
      .post('/api/admin/coupons')
      .set(auth(admin))
      .send({
        code: 'timket20',
        kind: 'percent',
        value: 20,
        minSubtotal: 500,
        usageLimit: 50,
        perCustomerLimit: 1,
      })
      .expect(201);
    expect(created.body).toMatchObject({
      code: 'TIMKET20',
      kind: 'percent',
      value: 20,
      minSubtotal: 500,
      usageLimit: 50,
      perCustomerLimit: 1,
      active: true,
      uses: 0,
    });
    const id = created.body.id as string;
    // unique whatever the case: 409 with a code, nothing more stored
    const dup = await request(t.http)
      .post('/api/admin/coupons')
      .set(auth(admin))
      .send({ code: 'Timket20', kind: 'fixed', value: 50 })
      .expect(409);
    expect(dup.body.code).toBe('COUPON_CODE_TAKEN');
    expect(await coupons.countDocuments({ code: 'TIMKET20' })).toBe(1);
    // bad values: 400 with codes, nothing stored
    for (const bad of [
      { code: 'OVER100', kind: 'percent', value: 150 },
      { code: 'NOFIXED', kind: 'fixed', value: 0 },
      { code: 'BACKWARDS', kind: 'fixed', value: 5, startsAt: '2026-12-10', endsAt: '2026-12-01' },
    ]) {
      const res = await request(t.http).post('/api/admin/coupons').set(auth(admin)).send(bad).expect(400);
      expect(res.body.code).toBe('INVALID_COUPON');
      expect(await coupons.countDocuments({ code: bad.code })).toBe(0);
    }
    await request(t.http)
      .post('/api/admin/coupons')
      .set(auth(admin))
      .send({ code: 'x', kind: 'percent', value: 5 })
      .expect(400);
    const list = await request(t.http)
      .get('/api/admin/coupons')
      .query({ filter: JSON.stringify({ q: 'timket' }) })
      .set(auth(admin))
      .expect(200);
    expect(list.body).toEqual([expect.objectContaining({ id, code: 'TIMKET20', uses: 0 })]);
    expect(list.headers['content-range']).toBe('coupons 0-0/1');
    const edited = await request(t.http)
      .put(`/api/admin/coupons/${id}`)
      .set(auth(admin))
      .send({ value: 25, usageLimit: 60 })
      .expect(200);
    expect(edited.body).toMatchObject({ code: 'TIMKET20', value: 25, usageLimit: 60 });
    // the back office sends an emptied limit or date as null: it is removed
    const cleared = await request(t.http)
      .put(`/api/admin/coupons/${id}`)
      .set(auth(admin))
      .send({ usageLimit: null, endsAt: null })
      .expect(200);
    expect(cleared.body.usageLimit).toBeUndefined();
    expect(cleared.body.perCustomerLimit).toBe(1);
    await request(t.http)
      .post('/api/admin/coupons')
      .set(auth(admin))
      .send({
        code: 'NULLS',
        kind: 'percent',
        value: 5,
        startsAt: null,
        endsAt: null,
        usageLimit: null,
        perCustomerLimit: null,
      })
      .expect(201);
    const off = await request(t.http).delete(`/api/admin/coupons/${id}`).set(auth(admin)).expect(200);
    expect(off.body.active).toBe(false);
    expect(
      (await request(t.http).get(`/api/admin/coupons/${id}`).set(auth(admin)).expect(200)).body.active,
    ).toBe(false);
    const missing = await request(t.http).get('/api/admin/coupons/000000000000000000000000').set(auth(admin));
    expect([missing.status, missing.body.code]).toEqual([404, 'COUPON_NOT_FOUND']);
    const customer = await newCustomer();
    await request(t.http).get('/api/admin/coupons').set(auth(customer.token)).expect(403);
    await request(t.http)
      .post('/api/admin/coupons')
      .set(auth(customer.token))
      .send({ code: 'MINE', kind: 'percent', value: 90 })
      .expect(403);
    // a switched-off code is not found by customers
    const product = await makeProduct(1000, 5);
    const buyer = await customerWith(product);
    expect((await apply(buyer.token, 'timket20').expect(404)).body.code).toBe('COUPON_NOT_FOUND');
  });

  it('applies a code in any case to a cart, shows the discount, and takes it off', async () => {
    const coupon = await makeCoupon({ kind: 'percent', value: 10 });
    const product = await makeProduct(1000, 5);
    const buyer = await customerWith(product, 2);
    const res = await apply(buyer.token, `  ${coupon.code.toLowerCase()} `).expect(200);
    expect(res.body).toMatchObject({
      total: 2000,
      coupon: { code: coupon.code, kind: 'percent', value: 10 },
      discount: 200,
    });
    const again = await request(t.http).get('/api/cart').set(auth(buyer.token)).expect(200);
    expect(again.body.discount).toBe(200);
    const removed = await request(t.http).delete('/api/cart/coupon').set(auth(buyer.token)).expect(200);
    expect(removed.body.coupon).toBeUndefined();
    expect(removed.body.discount).toBeUndefined();
    // a guest cart too
    const added = await request(t.http)
      .post('/api/cart/add')
      .send({ productId: product, quantity: 1 })
      .expect(200);
    const guest = await request(t.http)
      .post('/api/cart/coupon')
      .set('X-Cart-Id', added.body.cartId)
      .send({ code: coupon.code.toLowerCase() })
      .expect(200);
    expect(guest.body).toMatchObject({
      cartId: added.body.cartId,
      coupon: { code: coupon.code },
      discount: 100,
    });
  });

  it('refuses unknown, expired, not-yet-started, under-minimum and used-up codes with codes, changing nothing', async () => {
    const product = await makeProduct(300, 20);
    const buyer = await customerWith(product);
    const kept = await makeCoupon({ kind: 'fixed', value: 50 });
    await apply(buyer.token, kept.code).expect(200);
    const refused = async (code: string, status: number, errorCode: string) => {
      const res = await apply(buyer.token, code).expect(status);
      expect(res.body.code).toBe(errorCode);
      // the code applied before is still the cart's
      const cart = await request(t.http).get('/api/cart').set(auth(buyer.token)).expect(200);
      expect(cart.body.coupon.code).toBe(kept.code);
      return res.body;
    };
    await refused('NO-SUCH-CODE', 404, 'COUPON_NOT_FOUND');
    const ended = await makeCoupon({ startsAt: '2025-01-01T00:00:00Z', endsAt: '2025-02-01T00:00:00Z' });
    await refused(ended.code, 422, 'COUPON_EXPIRED');
    const future = await makeCoupon({ startsAt: '2099-01-01T00:00:00Z' });
    await refused(future.code, 422, 'COUPON_EXPIRED');
    const big = await makeCoupon({ minSubtotal: 500 });
    const under = await refused(big.code, 422, 'COUPON_MIN_SUBTOTAL');
    expect(under.params).toEqual({ code: big.code, minimum: 500 });
    // used up: one use, taken by another customer's order
    const once = await makeCoupon({ usageLimit: 1 });
    const first = await customerWith(product);
    await apply(first.token, once.code).expect(200);
    await place(first.token).expect(201);
    await refused(once.code, 409, 'COUPON_EXHAUSTED');
    // used by this customer up to their own limit
    const mine = await makeCoupon({ perCustomerLimit: 1 });
    await apply(buyer.token, mine.code).expect(200);
    await place(buyer.token).expect(201);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(buyer.token))
      .send({ productId: product })
      .expect(200);
    await request(t.http).delete('/api/cart/coupon').set(auth(buyer.token)).expect(200);
    await apply(buyer.token, kept.code).expect(200);
    await refused(mine.code, 409, 'COUPON_ALREADY_USED');
    const empty = await apply(buyer.token, '').expect(400);
    expect(empty.body.code).toBeDefined();
  });

  it('keeps the coupon and its discount on the order, priced by the one pricing rule', async () => {
    const coupon = await makeCoupon({ kind: 'fixed', value: 100 });
    const product = await makeProduct(450, 5);
    const buyer = await customerWith(product, 2);
    await apply(buyer.token, coupon.code).expect(200);
    const res = await place(buyer.token).expect(201);
    const expected = priceOrder([{ unitPrice: toSantim(450), quantity: 2 }], 'standard', undefined, false, {
      kind: 'fixed',
      amount: toSantim(100),
    });
    expect(expected.discount).toBe(toSantim(100));
    expect(res.body.order).toMatchObject({
      couponCode: coupon.code,
      discount: 100,
      subtotal: 900,
      totalAmount: expected.totalAmount / 100,
    });
    expect(await usesOf(coupon.code)).toBe(1);
    const shown = await request(t.http)
      .get(`/api/orders/${res.body.order._id}`)
      .set(auth(buyer.token))
      .expect(200);
    expect(shown.body.order ?? shown.body).toMatchObject({ couponCode: coupon.code, discount: 100 });
    const stored = await orders.findById(res.body.order._id).lean();
    expect(stored!.couponHolder).toBe(`user:${buyer.id}`);
    // the order's email says the discount between the subtotal and the delivery
    const mail = await outbox
      .findOne({ eventKey: `order.placed:${res.body.order._id}`, channel: 'email' })
      .lean();
    expect(mail!.text).toMatch(new RegExp(`Discount \\(${coupon.code}\\): −ETB\\s?100\\.00`));
  });

  it('gives exactly 5 of 20 concurrent orders on a code limited to 5 the discount; the 15 others change nothing', async () => {
    const coupon = await makeCoupon({ kind: 'percent', value: 20, usageLimit: 5 });
    const product = await makeProduct(200, 100);
    const carts: string[] = [];
    for (let i = 0; i < 20; i++) carts.push(await guestCartWith(product, coupon.code));
    const results = await Promise.all(
      carts.map((cartId, i) => placeAsGuest(cartId, `+2519110${String(i).padStart(5, '0')}`)),
    );
    const placed = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(placed).toHaveLength(5);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array(15).fill([409, 'COUPON_EXHAUSTED']));
    for (const r of placed) expect(r.body.order).toMatchObject({ couponCode: coupon.code, discount: 40 });
    expect(await usesOf(coupon.code)).toBe(5);
    expect(await orders.countDocuments({ couponCode: coupon.code })).toBe(5);
    // only the five orders took stock; the refused carts keep their lines
    expect(await stockOf(product)).toBe(95);
    const refusedCarts = carts.filter((_, i) => results[i].status !== 201);
    for (const cartId of refusedCarts.slice(0, 3)) {
      const cart = await request(t.http).get('/api/cart').set('X-Cart-Id', cartId).expect(200);
      expect(cart.body.itemCount).toBe(1);
    }
  });

  it('counts guests by their phone in any spelling for the per-customer limit', async () => {
    const coupon = await makeCoupon({ perCustomerLimit: 1 });
    const product = await makeProduct(300, 10);
    await placeAsGuest(await guestCartWith(product, coupon.code), '0911 55 66 77').expect(201);
    const again = await placeAsGuest(await guestCartWith(product, coupon.code), '+251911556677').expect(409);
    expect(again.body.code).toBe('COUPON_ALREADY_USED');
    expect(await usesOf(coupon.code)).toBe(1);
    expect(await stockOf(product)).toBe(9);
    await placeAsGuest(await guestCartWith(product, coupon.code), '0911 55 66 78').expect(201);
    expect(await usesOf(coupon.code)).toBe(2);
  });

  it('gives a cancelled order’s use back, once', async () => {
    const coupon = await makeCoupon({ usageLimit: 1, perCustomerLimit: 1 });
    const product = await makeProduct(300, 10);
    const buyer = await customerWith(product);
    await apply(buyer.token, coupon.code).expect(200);
    const placed = await place(buyer.token).expect(201);
    expect(await usesOf(coupon.code)).toBe(1);
    const cancel = () =>
      request(t.http).patch(`/api/orders/${placed.body.order._id}/cancel`).set(auth(buyer.token));
    await cancel().expect(200);
    expect(await usesOf(coupon.code)).toBe(0);
    await cancel().expect(409);
    expect(await usesOf(coupon.code)).toBe(0);
    // the same customer may use it again, and then it is used up
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(buyer.token))
      .send({ productId: product })
      .expect(200);
    await place(buyer.token).expect(201);
    expect(await usesOf(coupon.code)).toBe(1);
  });

  it('takes one use for an order retried with its Idempotency-Key; a different code is a different request', async () => {
    const coupon = await makeCoupon({ usageLimit: 3 });
    const product = await makeProduct(300, 10);
    const buyer = await customerWith(product);
    await apply(buyer.token, coupon.code).expect(200);
    const first = await place(buyer.token).set('Idempotency-Key', 'coupon-retry-1').expect(201);
    const second = await place(buyer.token).set('Idempotency-Key', 'coupon-retry-1').expect(200);
    expect(second.body.order._id).toBe(first.body.order._id);
    expect(second.body.order.couponCode).toBe(coupon.code);
    expect(await usesOf(coupon.code)).toBe(1);
    expect(await stockOf(product)).toBe(9);
    // the same key with another code in the cart is not the same request
    const other = await makeCoupon({});
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(buyer.token))
      .send({ productId: product })
      .expect(200);
    await apply(buyer.token, other.code).expect(200);
    const changed = await place(buyer.token).set('Idempotency-Key', 'coupon-retry-1');
    expect([changed.status, changed.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await usesOf(other.code)).toBe(0);
  });
});
