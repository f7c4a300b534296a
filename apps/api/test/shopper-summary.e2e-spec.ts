import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Cart, GuestCart } from '../src/modules/cart/schemas/cart.schema';
import { Wishlist } from '../src/modules/wishlist/schemas/wishlist.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

type CartAnswer = {
  itemCount: number;
  products: { product: { _id: string }; quantity: number; variantId?: string }[];
};
type WishlistAnswer = { products: { product: { _id: string } }[] };

/** What GET /api/auth/session must equal: the three calls it replaces (docs/decisions/0105-shopper-summary.md). */
const expected = (me: unknown, cart: CartAnswer, wishlist: WishlistAnswer | null) => ({
  user: me,
  cart: {
    itemCount: cart.itemCount,
    lines: cart.products.map((l) => ({
      productId: l.product._id,
      ...(l.variantId ? { variantId: l.variantId } : {}),
      quantity: l.quantity,
    })),
  },
  wishlist: { productIds: wishlist ? wishlist.products.map((i) => i.product._id) : [] },
});

describe('GET /api/auth/session (the shopper summary)', () => {
  let t: TestApp;
  let admin: string;
  let carts: Model<Cart>;
  let guestCarts: Model<GuestCart>;
  let wishlists: Model<Wishlist>;
  let serial = 0;

  const newCustomer = customerFactory(() => t, 'summary', 'Summary Customer');
  const makeProduct = async (body: Record<string, unknown>) => {
    const res = await request(t.http).post('/api/products').set(auth(admin)).send(body).expect(201);
    return res.body.product as { _id: string; variants?: { _id: string }[] };
  };
  const simple = (name: string, stock: number) => makeProduct({ name, price: 100, stock });
  const add = (token: string, productId: string, quantity: number, variantId?: string) =>
    request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId, quantity, ...(variantId ? { variantId } : {}) })
      .expect(200);
  const wish = (token: string, productId: string) =>
    request(t.http).post(`/api/wishlist/add/${productId}`).set(auth(token)).expect(200);

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    carts = t.app.get(getModelToken(Cart.name));
    guestCarts = t.app.get(getModelToken(GuestCart.name));
    wishlists = t.app.get(getModelToken(Wishlist.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers a signed-in shopper exactly what auth/me, cart and wishlist answer, and writes nothing', async () => {
    const c = await newCustomer();
    const kept = await simple('Summary Shea Butter', 10);
    const reduced = await simple('Summary Black Soap', 5);
    const deleted = await simple('Summary Argan Oil', 5);
    const hidden = await simple('Summary Rose Water', 5);
    const soldOut = await simple('Summary Clay Mask', 5);
    const tag = `${Date.now().toString(36)}${++serial}`.toUpperCase();
    const serum = await makeProduct({
      name: `Summary Moringa Serum ${tag}`,
      category: 'skincare',
      options: [{ name: 'Size', nameAm: 'መጠን', kind: 'size', values: ['50 ml', '100 ml'] }],
      variants: [
        { sku: `SUM-${tag}-50`, options: { Size: '50 ml' }, price: 650, stock: 4 },
        { sku: `SUM-${tag}-100`, options: { Size: '100 ml' }, price: 1100, stock: 6 },
      ],
    });
    const [v50, v100] = serum.variants!;
    await add(c.token, kept._id, 2);
    // one product twice: two of its variants
    await add(c.token, serum._id, 1, v50._id);
    await add(c.token, serum._id, 3, v100._id);
    await add(c.token, reduced._id, 4);
    await add(c.token, deleted._id, 1);
    await add(c.token, hidden._id, 1);
    await add(c.token, soldOut._id, 2);
    for (const p of [hidden, kept, deleted, serum, soldOut]) await wish(c.token, p._id);

    // after the lines went in: one product deleted, one withdrawn, one short of stock, one sold out
    await request(t.http).delete(`/api/products/${deleted._id}`).set(auth(admin)).expect(200);
    await request(t.http)
      .put(`/api/products/${hidden._id}`)
      .set(auth(admin))
      .send({ name: 'Summary Rose Water', price: 100, stock: 5, active: false })
      .expect(200);
    await request(t.http)
      .put(`/api/products/${reduced._id}`)
      .set(auth(admin))
      .send({ name: 'Summary Black Soap', price: 100, stock: 3 })
      .expect(200);
    await request(t.http)
      .put(`/api/products/${soldOut._id}`)
      .set(auth(admin))
      .send({ name: 'Summary Clay Mask', price: 100, stock: 0 })
      .expect(200);

    const storedCart = await carts.findOne({ user: c.id }).lean();
    const storedWishlist = await wishlists.findOne({ user: c.id }).lean();
    expect(storedCart!.items).toHaveLength(7);

    // the summary first: it must not make the fixes the cart and wishlist answers make
    const summary = await request(t.http).get('/api/auth/session').set(auth(c.token)).expect(200);
    expect(summary.headers['cache-control']).toMatch(/no-store/);
    expect(await carts.findOne({ user: c.id }).lean()).toEqual(storedCart);
    expect(await wishlists.findOne({ user: c.id }).lean()).toEqual(storedWishlist);

    const me = await request(t.http).get('/api/auth/me').set(auth(c.token)).expect(200);
    const cart = await request(t.http).get('/api/cart').set(auth(c.token)).expect(200);
    const wishlist = await request(t.http).get('/api/wishlist').set(auth(c.token)).expect(200);
    // the three calls did fix things (so the equality below is about the fixed answers)
    expect(cart.body.notices.length).toBeGreaterThanOrEqual(4);
    expect(wishlist.body.notices).toHaveLength(2);
    expect(summary.body).toEqual(expected(me.body.user, cart.body, wishlist.body));
    // and the numbers are the ones the shopper sees
    expect(summary.body.cart).toEqual({
      itemCount: 2 + 1 + 3 + 3,
      lines: [
        { productId: kept._id, quantity: 2 },
        { productId: serum._id, variantId: v50._id, quantity: 1 },
        { productId: serum._id, variantId: v100._id, quantity: 3 },
        { productId: reduced._id, quantity: 3 },
      ],
    });
    expect(summary.body.wishlist.productIds).toEqual([kept._id, serum._id, soldOut._id]);
    expect(summary.body.user).toMatchObject({ _id: c.id, role: 'customer' });

    // once fixed, still equal
    const again = await request(t.http).get('/api/auth/session').set(auth(c.token)).expect(200);
    expect(again.body).toEqual(summary.body);
  });

  it('answers a signed-in shopper without a cart or wishlist: empty, as the three calls', async () => {
    const c = await newCustomer();
    const summary = await request(t.http).get('/api/auth/session').set(auth(c.token)).expect(200);
    const me = await request(t.http).get('/api/auth/me').set(auth(c.token)).expect(200);
    const cart = await request(t.http).get('/api/cart').set(auth(c.token)).expect(200);
    const wishlist = await request(t.http).get('/api/wishlist').set(auth(c.token)).expect(200);
    expect(summary.body).toEqual(expected(me.body.user, cart.body, wishlist.body));
    expect(summary.body.cart).toEqual({ itemCount: 0, lines: [] });
  });

  it("answers a guest's cart (X-Cart-Id or the cookie) with no user and no wishlist", async () => {
    const p = await simple('Summary Guest Soap', 9);
    const q = await simple('Summary Guest Oil', 9);
    const first = await request(t.http)
      .post('/api/cart/add')
      .send({ productId: p._id, quantity: 2 })
      .expect(200);
    const cartId = first.body.cartId as string;
    await request(t.http)
      .post('/api/cart/add')
      .set('X-Cart-Id', cartId)
      .send({ productId: q._id })
      .expect(200);
    const byHeader = await request(t.http).get('/api/auth/session').set('X-Cart-Id', cartId).expect(200);
    const cart = await request(t.http).get('/api/cart').set('X-Cart-Id', cartId).expect(200);
    expect(byHeader.body).toEqual(expected(null, cart.body, null));
    expect(byHeader.body.cart).toEqual({
      itemCount: 3,
      lines: [
        { productId: p._id, quantity: 2 },
        { productId: q._id, quantity: 1 },
      ],
    });
    const byCookie = await request(t.http)
      .get('/api/auth/session')
      .set('Cookie', `cartId=${cartId}`)
      .expect(200);
    expect(byCookie.body).toEqual(byHeader.body);
    expect(byHeader.headers['cache-control']).toMatch(/no-store/);
    // the summary does not answer or set the cart id (it never creates or renews a cart)
    expect(byHeader.headers['x-cart-id']).toBeUndefined();
    expect(byHeader.headers['set-cookie']).toBeUndefined();
  });

  it('answers nothing at all with 200 and empties, creating no cart', async () => {
    const before = await guestCarts.countDocuments();
    const nothing = await request(t.http).get('/api/auth/session').expect(200);
    expect(nothing.body).toEqual({
      user: null,
      cart: { itemCount: 0, lines: [] },
      wishlist: { productIds: [] },
    });
    expect(nothing.headers['cache-control']).toMatch(/no-store/);
    // an unknown or malformed guest cart id reads as no cart, and none is created
    const unknown = await request(t.http)
      .get('/api/auth/session')
      .set('X-Cart-Id', '0123456789abcdef0123456789abcdef')
      .expect(200);
    expect(unknown.body).toEqual(nothing.body);
    await request(t.http).get('/api/auth/session').set('X-Cart-Id', 'not-a-cart').expect(200);
    expect(await guestCarts.countDocuments()).toBe(before);
  });

  it('refuses an invalid, ended or malformed token exactly as auth/me does', async () => {
    const c = await newCustomer();
    const ended = await newCustomer();
    await request(t.http).post('/api/auth/logout').set(auth(ended.token)).expect(200);
    const tampered = `${c.token.slice(0, -4)}AAAA`;
    for (const token of ['not-a-token', tampered, ended.token]) {
      const me = await request(t.http).get('/api/auth/me').set(auth(token));
      const summary = await request(t.http).get('/api/auth/session').set(auth(token));
      expect(me.status).toBe(401);
      expect(summary.status).toBe(me.status);
      expect(summary.body).toEqual(me.body);
      expect(summary.body.code).toBe('INVALID_TOKEN');
      expect(summary.headers['cache-control']).toMatch(/no-store/);
    }
    // the token cookie counts as the header does
    const me = await request(t.http).get('/api/auth/me').set('Cookie', 'token=not-a-token');
    const summary = await request(t.http).get('/api/auth/session').set('Cookie', 'token=not-a-token');
    expect(summary.status).toBe(me.status);
    expect(summary.body).toEqual(me.body);
  });
});
