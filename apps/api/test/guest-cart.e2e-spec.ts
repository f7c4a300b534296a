import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { GuestCart } from '../src/modules/cart/schemas/cart.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

describe('guest cart and merge', () => {
  let t: TestApp;
  let admin: string;
  let guestCarts: Model<GuestCart>;
  const newCustomer = customerFactory(() => t, 'guestcart', 'Guest Cart Customer');

  const makeProduct = async (name: string, price: number, stock: number) => {
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ brand: 'Habesha Naturals', name, price, stock })
      .expect(201);
    return res.body.product._id as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    guestCarts = t.app.get(getModelToken(GuestCart.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('gives a visitor an empty cart, then a guest cart with an unguessable id on the first add', async () => {
    const empty = await request(t.http).get('/api/cart').expect(200);
    expect(empty.body).toEqual({ success: true, products: [], total: 0, itemCount: 0 });
    const id = await makeProduct('Guest Shea Butter', 200, 10);
    const first = await request(t.http)
      .post('/api/cart/add')
      .send({ productId: id, quantity: 2 })
      .expect(200);
    const cartId = first.body.cartId as string;
    expect(cartId).toMatch(/^[a-f0-9]{32}$/);
    expect(first.headers['x-cart-id']).toBe(cartId);
    expect(String(first.headers['set-cookie'])).toMatch(new RegExp(`cartId=${cartId};.*HttpOnly`));
    expect(first.body).toMatchObject({ success: true, itemCount: 2, total: 400 });

    // The id comes back by header (or cookie) and the same cart grows.
    const again = await request(t.http)
      .post('/api/cart/add')
      .set('X-Cart-Id', cartId)
      .send({ productId: id, quantity: 1 })
      .expect(200);
    expect(again.body).toMatchObject({ cartId, itemCount: 3 });
    const byCookie = await request(t.http).get('/api/cart').set('Cookie', `cartId=${cartId}`).expect(200);
    expect(byCookie.body).toMatchObject({ cartId, itemCount: 3 });
    const updated = await request(t.http)
      .patch(`/api/cart/update/${id}`)
      .set('X-Cart-Id', cartId)
      .send({ quantity: 11 })
      .expect(409);
    expect(updated.body.code).toBe('INSUFFICIENT_STOCK');
    await request(t.http)
      .patch(`/api/cart/update/${id}`)
      .set('X-Cart-Id', cartId)
      .send({ quantity: 4 })
      .expect(200);
    const removed = await request(t.http)
      .delete(`/api/cart/remove/${id}`)
      .set('X-Cart-Id', cartId)
      .expect(200);
    expect(removed.body.itemCount).toBe(0);

    // Two different visitors never share a cart.
    const other = await request(t.http).post('/api/cart/add').send({ productId: id }).expect(200);
    expect(other.body.cartId).not.toBe(cartId);
  });

  it('treats an unknown, expired or malformed id as no cart, and never lets a client choose the id', async () => {
    const id = await makeProduct('Guest Coffee Scrub', 90, 10);
    const made = 'a'.repeat(32);
    const unknown = await request(t.http).get('/api/cart').set('X-Cart-Id', made).expect(200);
    expect(unknown.body).toEqual({ success: true, products: [], total: 0, itemCount: 0 });
    const added = await request(t.http)
      .post('/api/cart/add')
      .set('X-Cart-Id', made)
      .send({ productId: id })
      .expect(200);
    expect(added.body.cartId).not.toBe(made);
    await request(t.http).get('/api/cart').set('X-Cart-Id', 'not-an-id').expect(200);
    await guestCarts.updateOne(
      { guestId: added.body.cartId },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    const expired = await request(t.http).get('/api/cart').set('X-Cart-Id', added.body.cartId).expect(200);
    expect(expired.body.itemCount).toBe(0);
    await request(t.http).patch(`/api/cart/update/${id}`).send({ quantity: 1 }).expect(404, {
      success: false,
      statusCode: 404,
      message: 'Product not in cart',
      code: 'PRODUCT_NOT_IN_CART',
      params: {},
    });
  });

  it('expires guest carts through a TTL index', async () => {
    const indexes = await guestCarts.collection.indexes();
    expect(indexes.find((i) => i.key.expiresAt === 1)).toMatchObject({ expireAfterSeconds: 0 });
    expect(indexes.find((i) => i.key.guestId === 1)).toMatchObject({ unique: true });
  });

  it('merges into the account cart at sign-in: quantities added, capped by stock with a notice', async () => {
    const scarce = await makeProduct('Merge Rare Oil', 300, 3);
    const plenty = await makeProduct('Merge Black Soap', 50, 40);
    const only = await makeProduct('Merge Rose Water', 80, 10);
    const customer = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId: scarce, quantity: 2 });
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId: plenty, quantity: 1 });

    const guest = await request(t.http)
      .post('/api/cart/add')
      .send({ productId: scarce, quantity: 3 })
      .expect(200);
    const cartId = guest.body.cartId as string;
    for (const [productId, quantity] of [
      [plenty, 4],
      [only, 2],
    ] as const)
      await request(t.http)
        .post('/api/cart/add')
        .set('X-Cart-Id', cartId)
        .send({ productId, quantity })
        .expect(200);

    const merged = await request(t.http)
      .post('/api/cart/merge')
      .set(auth(customer.token))
      .send({ cartId })
      .expect(200);
    const qty = (p: string) =>
      merged.body.products.find((l: { product: { _id: string } }) => l.product._id === p)?.quantity;
    expect(qty(scarce)).toBe(3); // 2 + 3 capped at the stock of 3
    expect(qty(plenty)).toBe(5);
    expect(qty(only)).toBe(2);
    expect(merged.body.cartId).toBeUndefined();
    expect(merged.body.notices).toEqual([
      {
        productId: scarce,
        type: 'quantity_capped',
        code: 'CART_MERGE_CAPPED',
        params: { product: 'Merge Rare Oil', available: 3, quantity: 3 },
        message: 'Only 3 left in stock for Merge Rare Oil; your cart now has 3',
      },
    ]);
    // The guest cart is gone: merging it again adds nothing, reading it shows an empty cart.
    expect(await guestCarts.countDocuments({ guestId: cartId })).toBe(0);
    const twice = await request(t.http)
      .post('/api/cart/merge')
      .set(auth(customer.token))
      .set('X-Cart-Id', cartId)
      .send({})
      .expect(200);
    expect(twice.body.itemCount).toBe(10);
    expect((await request(t.http).get('/api/cart').set('X-Cart-Id', cartId)).body.itemCount).toBe(0);
  });

  it('merges into a brand-new account at sign-up and refuses a malformed or missing id', async () => {
    const id = await makeProduct('Merge Honey Mask', 120, 5);
    const guest = await request(t.http)
      .post('/api/cart/add')
      .send({ productId: id, quantity: 2 })
      .expect(200);
    const customer = await newCustomer();
    const merged = await request(t.http)
      .post('/api/cart/merge')
      .set(auth(customer.token))
      .send({ cartId: guest.body.cartId })
      .expect(200);
    expect(merged.body).toMatchObject({ itemCount: 2, total: 240 });
    expect(merged.body.notices).toBeUndefined();
    const bad = await request(t.http)
      .post('/api/cart/merge')
      .set(auth(customer.token))
      .send({ cartId: 'nope' })
      .expect(400);
    expect(bad.body.success).toBe(false);
    const missing = await request(t.http)
      .post('/api/cart/merge')
      .set(auth(customer.token))
      .send({})
      .expect(400);
    expect(missing.body).toMatchObject({ code: 'CART_ID_REQUIRED', errors: [{ field: 'cartId' }] });
  });

  it('keeps the wishlist for accounts; a guest checkout asks who the guest is', async () => {
    const id = await makeProduct('Guest Wishlist Balm', 60, 5);
    const guest = await request(t.http).post('/api/cart/add').send({ productId: id }).expect(200);
    await request(t.http)
      .post('/api/orders')
      .send({ shippingAddress: { street: 'Bole', city: 'Addis Ababa', state: 'Addis Ababa' } })
      .expect(401);
    // with a guest cart but without the guest's name and phone (docs/decisions 0062): refused, no order
    const nameless = await request(t.http)
      .post('/api/orders')
      .set('X-Cart-Id', guest.body.cartId)
      .send({ shippingAddress: { street: 'Bole', city: 'Addis Ababa', state: 'Addis Ababa' } })
      .expect(400);
    expect(nameless.body.errors.map((e: { field: string }) => e.field).join(' ')).toMatch(/guest/);
    const kept = await request(t.http).get('/api/cart').set('X-Cart-Id', guest.body.cartId).expect(200);
    expect(kept.body).toMatchObject({ cartId: guest.body.cartId, itemCount: 1 });
    await request(t.http).post(`/api/wishlist/add/${id}`).set('X-Cart-Id', guest.body.cartId).expect(401);
  });
});
