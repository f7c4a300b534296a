import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { WishlistService } from '../src/modules/wishlist/wishlist.service';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

describe('wishlist', () => {
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;

  const newCustomer = customerFactory(() => t, 'wish', 'Wish Customer');
  const makeProduct = async (fields: { name: string; price: number; stock: number }) => {
    const res = await request(t.http).post('/api/products').set(auth(admin)).send(fields).expect(201);
    return res.body.product._id as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    products = t.app.get(getModelToken(Product.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('keeps guests out of every wishlist route with 401', async () => {
    const id = '000000000000000000000000';
    await request(t.http).get('/api/wishlist').expect(401);
    await request(t.http).post(`/api/wishlist/add/${id}`).expect(401);
    await request(t.http).delete(`/api/wishlist/remove/${id}`).expect(401);
    await request(t.http).post(`/api/wishlist/move-to-cart/${id}`).expect(401);
    await request(t.http).patch(`/api/wishlist/notifications/${id}`).send({ notifyOnSale: true }).expect(401);
  });

  it('adds a product with no body, then with preferences, and lists items with an id', async () => {
    const c = await newCustomer();
    expect((await request(t.http).get('/api/wishlist').set(auth(c.token)).expect(200)).body).toEqual({
      success: true,
      products: [],
    });
    const a = await makeProduct({ name: 'Wished Serum', price: 650, stock: 4 });
    const b = await makeProduct({ name: 'Wished Balm', price: 120, stock: 0 });
    const first = await request(t.http).post(`/api/wishlist/add/${a}`).set(auth(c.token)).expect(200);
    expect(first.body.success).toBe(true);
    expect(first.body.products).toEqual([
      {
        _id: expect.stringMatching(/^[a-f0-9]{24}$/),
        id: first.body.products[0]._id,
        product: expect.objectContaining({ _id: a, name: 'Wished Serum', price: 650, stock: 4 }),
        notifyOnSale: false,
        notifyOnStock: false,
        priceAtAdd: 650,
        addedAt: expect.any(String),
      },
    ]);
    const second = await request(t.http)
      .post(`/api/wishlist/add/${b}`)
      .set(auth(c.token))
      .send({ notifyOnStock: true })
      .expect(200);
    expect(
      second.body.products.map((p: { product: { _id: string }; notifyOnStock: boolean }) => [
        p.product._id,
        p.notifyOnStock,
      ]),
    ).toEqual([
      [a, false],
      [b, true],
    ]);
    // Adding again keeps one line and updates the given preferences.
    const again = await request(t.http)
      .post(`/api/wishlist/add/${a}`)
      .set(auth(c.token))
      .send({ notifyOnSale: true })
      .expect(200);
    expect(again.body.products).toHaveLength(2);
    expect(again.body.products[0]).toMatchObject({
      _id: first.body.products[0]._id,
      notifyOnSale: true,
      notifyOnStock: false,
    });
  });

  it('keeps one line when the same product is added twice at the same moment', async () => {
    const c = await newCustomer();
    const a = await makeProduct({ name: 'Race Wish', price: 10, stock: 4 });
    await Promise.all(
      Array.from({ length: 5 }, () =>
        request(t.http).post(`/api/wishlist/add/${a}`).set(auth(c.token)).expect(200),
      ),
    );
    expect((await request(t.http).get('/api/wishlist').set(auth(c.token))).body.products).toHaveLength(1);
  });

  it('answers 404 for unknown, malformed and withdrawn products and 400 for bad preferences', async () => {
    const c = await newCustomer();
    const unknown = await request(t.http)
      .post('/api/wishlist/add/000000000000000000000000')
      .set(auth(c.token))
      .expect(404);
    expect(unknown.body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Product not found',
      code: 'PRODUCT_NOT_FOUND',
      params: {},
    });
    await request(t.http).post('/api/wishlist/add/nope').set(auth(c.token)).expect(404);
    const a = await makeProduct({ name: 'Soon Withdrawn', price: 10, stock: 4 });
    await request(t.http).delete(`/api/products/${a}`).set(auth(admin)).expect(200);
    await request(t.http).post(`/api/wishlist/add/${a}`).set(auth(c.token)).expect(404);
    const b = await makeProduct({ name: 'Pref Check', price: 10, stock: 4 });
    await request(t.http)
      .post(`/api/wishlist/add/${b}`)
      .set(auth(c.token))
      .send({ notifyOnSale: 'yes' })
      .expect(400);
    await request(t.http).post(`/api/wishlist/add/${b}`).set(auth(c.token)).send({ spam: 1 }).expect(400);
    expect((await request(t.http).get('/api/wishlist').set(auth(c.token))).body.products).toHaveLength(0);
  });

  it('removes a product, idempotently', async () => {
    const c = await newCustomer();
    const a = await makeProduct({ name: 'Remove Wish', price: 10, stock: 4 });
    await request(t.http).post(`/api/wishlist/add/${a}`).set(auth(c.token)).expect(200);
    const res = await request(t.http).delete(`/api/wishlist/remove/${a}`).set(auth(c.token)).expect(200);
    expect(res.body).toEqual({ success: true, products: [] });
    await request(t.http).delete(`/api/wishlist/remove/${a}`).set(auth(c.token)).expect(200);
    await request(t.http).delete('/api/wishlist/remove/nope').set(auth(c.token)).expect(404);
  });

  it('updates notification preferences, 404 when the product is not wished', async () => {
    const c = await newCustomer();
    const a = await makeProduct({ name: 'Notify Wish', price: 10, stock: 4 });
    await request(t.http).post(`/api/wishlist/add/${a}`).set(auth(c.token)).expect(200);
    const res = await request(t.http)
      .patch(`/api/wishlist/notifications/${a}`)
      .set(auth(c.token))
      .send({ notifyOnSale: true, notifyOnStock: true })
      .expect(200);
    expect(res.body).toMatchObject({ success: true, message: 'Preferences updated' });
    expect(res.body.products[0]).toMatchObject({ notifyOnSale: true, notifyOnStock: true });
    const partial = await request(t.http)
      .patch(`/api/wishlist/notifications/${a}`)
      .set(auth(c.token))
      .send({ notifyOnStock: false })
      .expect(200);
    expect(partial.body.products[0]).toMatchObject({ notifyOnSale: true, notifyOnStock: false });
    await request(t.http)
      .patch(`/api/wishlist/notifications/${a}`)
      .set(auth(c.token))
      .send({ notifyOnSale: 1 })
      .expect(400);
    const other = await makeProduct({ name: 'Not Wished', price: 10, stock: 4 });
    const missing = await request(t.http)
      .patch(`/api/wishlist/notifications/${other}`)
      .set(auth(c.token))
      .send({ notifyOnSale: true })
      .expect(404);
    expect(missing.body.message).toBe('Product not in wishlist');
  });

  it('moves a product to the cart with the cart rules and takes it off the wishlist', async () => {
    const c = await newCustomer();
    const a = await makeProduct({ name: 'Move Me Oil', price: 75.25, stock: 3 });
    const keep = await makeProduct({ name: 'Stay Wished', price: 10, stock: 3 });
    await request(t.http).post(`/api/wishlist/add/${a}`).set(auth(c.token)).expect(200);
    await request(t.http).post(`/api/wishlist/add/${keep}`).set(auth(c.token)).expect(200);
    const tooMany = await request(t.http)
      .post(`/api/wishlist/move-to-cart/${a}`)
      .set(auth(c.token))
      .send({ quantity: 4 })
      .expect(409);
    expect(tooMany.body.message).toBe('Only 3 left in stock for Move Me Oil');
    await request(t.http)
      .post(`/api/wishlist/move-to-cart/${a}`)
      .set(auth(c.token))
      .send({ quantity: 11 })
      .expect(400);
    expect((await request(t.http).get('/api/wishlist').set(auth(c.token))).body.products).toHaveLength(2);
    const moved = await request(t.http)
      .post(`/api/wishlist/move-to-cart/${a}`)
      .set(auth(c.token))
      .send({ quantity: 2 })
      .expect(200);
    expect(moved.body).toMatchObject({
      success: true,
      message: 'Moved to cart',
      cart: { total: 150.5, itemCount: 2 },
    });
    expect(moved.body.products.map((p: { product: { _id: string } }) => p.product._id)).toEqual([keep]);
    const defaultQty = await request(t.http)
      .post(`/api/wishlist/move-to-cart/${keep}`)
      .set(auth(c.token))
      .expect(200);
    expect(defaultQty.body.cart.itemCount).toBe(3);
    const notWished = await request(t.http)
      .post(`/api/wishlist/move-to-cart/${a}`)
      .set(auth(c.token))
      .expect(404);
    expect(notWished.body.message).toBe('Product not in wishlist');
    const cart = await request(t.http).get('/api/cart').set(auth(c.token)).expect(200);
    expect(cart.body.itemCount).toBe(3);
  });

  it('refuses to move a sold-out product and keeps it wished', async () => {
    const c = await newCustomer();
    const a = await makeProduct({ name: 'Sold Out Wish', price: 10, stock: 0 });
    await request(t.http)
      .post(`/api/wishlist/add/${a}`)
      .set(auth(c.token))
      .send({ notifyOnStock: true })
      .expect(200);
    const res = await request(t.http).post(`/api/wishlist/move-to-cart/${a}`).set(auth(c.token)).expect(409);
    expect(res.body.message).toBe('Sold Out Wish is out of stock');
    expect((await request(t.http).get('/api/wishlist').set(auth(c.token))).body.products).toHaveLength(1);
  });

  it('drops withdrawn products from the wishlist with a notice', async () => {
    const c = await newCustomer();
    const a = await makeProduct({ name: 'Fading Perfume', price: 10, stock: 4 });
    const b = await makeProduct({ name: 'Lasting Perfume', price: 10, stock: 4 });
    await request(t.http).post(`/api/wishlist/add/${a}`).set(auth(c.token)).expect(200);
    await request(t.http).post(`/api/wishlist/add/${b}`).set(auth(c.token)).expect(200);
    await request(t.http).delete(`/api/products/${a}`).set(auth(admin)).expect(200);
    const res = await request(t.http).get('/api/wishlist').set(auth(c.token)).expect(200);
    expect(res.body.products.map((p: { product: { name: string } }) => p.product.name)).toEqual([
      'Lasting Perfume',
    ]);
    expect(res.body.notices).toEqual([
      {
        productId: a,
        type: 'removed',
        message: 'Fading Perfume is no longer available and was removed from your wishlist',
        code: 'NOTICE_UNAVAILABLE_REMOVED',
        params: { product: 'Fading Perfume' },
      },
    ]);
    expect((await request(t.http).get('/api/wishlist').set(auth(c.token))).body.notices).toBeUndefined();
  });

  it('finds who to notify about a sale or a restock of a product', async () => {
    const service = t.app.get(WishlistService);
    const a = await makeProduct({ name: 'Watched Cream', price: 500, stock: 0 });
    const sale = await newCustomer();
    const stock = await newCustomer();
    const both = await newCustomer();
    const neither = await newCustomer();
    await request(t.http)
      .post(`/api/wishlist/add/${a}`)
      .set(auth(sale.token))
      .send({ notifyOnSale: true })
      .expect(200);
    await request(t.http)
      .post(`/api/wishlist/add/${a}`)
      .set(auth(stock.token))
      .send({ notifyOnStock: true })
      .expect(200);
    await request(t.http)
      .post(`/api/wishlist/add/${a}`)
      .set(auth(both.token))
      .send({ notifyOnSale: true, notifyOnStock: true })
      .expect(200);
    await request(t.http).post(`/api/wishlist/add/${a}`).set(auth(neither.token)).expect(200);
    const other = await makeProduct({ name: 'Other Cream', price: 500, stock: 0 });
    await request(t.http)
      .post(`/api/wishlist/add/${other}`)
      .set(auth(sale.token))
      .send({ notifyOnSale: true, notifyOnStock: true })
      .expect(200);
    const onSale = await service.subscribersFor(a, 'sale');
    expect(onSale.map((s) => s.userId).sort()).toEqual([sale.id, both.id].sort());
    expect(onSale[0]).toEqual({
      userId: expect.any(String),
      wishlistItemId: expect.stringMatching(/^[a-f0-9]{24}$/),
      priceAtAdd: 500,
      priceAtAddSantim: 50000,
      addedAt: expect.any(Date),
    });
    expect((await service.subscribersFor(a, 'stock')).map((s) => s.userId).sort()).toEqual(
      [stock.id, both.id].sort(),
    );
    await request(t.http)
      .patch(`/api/wishlist/notifications/${a}`)
      .set(auth(both.token))
      .send({ notifyOnStock: false })
      .expect(200);
    expect((await service.subscribersFor(a, 'stock')).map((s) => s.userId)).toEqual([stock.id]);
    await request(t.http).delete(`/api/wishlist/remove/${a}`).set(auth(sale.token)).expect(200);
    expect((await service.subscribersFor(a, 'sale')).map((s) => s.userId)).toEqual([both.id]);
    expect(await products.countDocuments({ _id: a })).toBe(1);
  });
});
