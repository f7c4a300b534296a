import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model, type mongo } from 'mongoose';
import { Cart, GuestCart } from '../src/modules/cart/schemas/cart.schema';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

describe('cart', () => {
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;

  const registerCustomer = customerFactory(() => t, 'cart', 'Cart Customer');
  const newCustomer = async () => (await registerCustomer()).token;
  const makeProduct = async (fields: {
    name: string;
    price: number;
    stock: number;
    originalPrice?: number;
    images?: string[];
  }) => {
    const res = await request(t.http)
      .post('/api/products')
      .set('Authorization', `Bearer ${admin}`)
      .send({ brand: 'Habesha Naturals', ...fields })
      .expect(201);
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

  it('answers an invalid token with 401 on every cart route (guests have their own carts)', async () => {
    const id = '000000000000000000000000';
    const bad = { Authorization: 'Bearer not-a-token' };
    await request(t.http).get('/api/cart').set(bad).expect(401);
    await request(t.http).post('/api/cart/add').set(bad).send({ productId: id }).expect(401);
    await request(t.http).patch(`/api/cart/update/${id}`).set(bad).send({ quantity: 1 }).expect(401);
    await request(t.http).delete(`/api/cart/remove/${id}`).set(bad).expect(401);
    await request(t.http).delete('/api/cart/clear').set(bad).expect(401);
    const res = await request(t.http).delete('/api/cart/clearAllFromCart').set(bad).expect(401);
    expect(res.body).toMatchObject({ success: false, statusCode: 401 });
    await request(t.http).post('/api/cart/merge').send({}).expect(401);
  });

  it('starts empty', async () => {
    const token = await newCustomer();
    const res = await request(t.http).get('/api/cart').set(auth(token)).expect(200);
    expect(res.body).toEqual({ success: true, products: [], total: 0, itemCount: 0 });
  });

  it('adds one unit by default and answers the cart with current product data, totals in ETB', async () => {
    const token = await newCustomer();
    const a = await makeProduct({
      name: 'Shea Butter Cream',
      price: 450.5,
      stock: 20,
      images: ['/api/assets/products/shea-butter.svg'],
    });
    const b = await makeProduct({ name: 'Coffee Scrub', price: 0.1, stock: 20 });
    const first = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: a })
      .expect(200);
    expect(first.body).toMatchObject({ success: true, total: 450.5, itemCount: 1 });
    expect(first.body.products[0]).toMatchObject({
      quantity: 1,
      product: {
        _id: a,
        name: 'Shea Butter Cream',
        brand: 'Habesha Naturals',
        price: 450.5,
        stock: 20,
        countInStock: 20,
      },
    });
    expect(Array.isArray(first.body.products[0].product.images)).toBe(true);
    // the API's own image paths answered absolute from PUBLIC_API_URL, as everywhere
    const images = first.body.products[0].product.images as string[];
    expect(images.length).toBeGreaterThan(0);
    for (const image of images)
      expect(image.startsWith(`${t.config.publicUrl.replace(/\/+$/, '')}/api/`)).toBe(true);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: b, quantity: 3 })
      .expect(200);
    const again = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: a, quantity: 2 })
      .expect(200);
    expect(again.body.itemCount).toBe(6);
    expect(again.body.total).toBe(1351.8); // 3 x 450.50 + 3 x 0.10, computed in santim
    expect(again.body.products.map((l: { quantity: number }) => l.quantity)).toEqual([3, 3]);
  });

  it('stores the carts and lines its adds write as the models would (a new cart, a pushed line, a guest cart)', async () => {
    const carts = t.app.get<Model<Cart>>(getModelToken(Cart.name));
    const guestCarts = t.app.get<Model<GuestCart>>(getModelToken(GuestCart.name));
    const customer = await registerCustomer();
    const a = await makeProduct({ name: 'Stored Cart Soap', price: 30, stock: 20 });
    const b = await makeProduct({ name: 'Stored Cart Oil', price: 40, stock: 20 });
    // the first add creates the cart (an upsert), the second pushes a line, the third grows it
    for (const productId of [a, b, b])
      await request(t.http).post('/api/cart/add').set(auth(customer.token)).send({ productId }).expect(200);
    const stored = await carts.collection.findOne({ user: new Types.ObjectId(customer.id) });
    expect(stored).not.toBeNull();
    // Mongoose, given the stored document, adds nothing and changes nothing
    expect(new carts(stored).toObject()).toEqual(stored);
    expect(Object.keys(stored!).sort()).toEqual(['__v', '_id', 'createdAt', 'items', 'updatedAt', 'user']);
    expect(stored!.__v).toBe(0);
    expect(stored!.items.map((i: Record<string, unknown>) => [String(i.product), i.quantity])).toEqual([
      [a, 1],
      [b, 2],
    ]);
    for (const item of stored!.items) {
      expect(Object.keys(item).sort()).toEqual(['addedAt', 'product', 'quantity']);
      expect(item.addedAt).toBeInstanceOf(Date);
    }

    const guest = await request(t.http).post('/api/cart/add').send({ productId: a }).expect(200);
    await request(t.http).post('/api/cart/add').set('X-Cart-Id', guest.body.cartId).send({ productId: b });
    const storedGuest = await guestCarts.collection.findOne({ guestId: guest.body.cartId });
    expect(new guestCarts(storedGuest).toObject()).toEqual(storedGuest);
    expect(storedGuest!.items).toHaveLength(2);
    for (const item of storedGuest!.items)
      expect(Object.keys(item).sort()).toEqual(['addedAt', 'product', 'quantity']);
  });

  it('shows the price as it is now, not as it was when added', async () => {
    const token = await newCustomer();
    const id = await makeProduct({ name: 'Price Watch Oil', price: 100, stock: 5 });
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({ name: 'Price Watch Oil', price: 80, originalPrice: 100, stock: 5 })
      .expect(200);
    const res = await request(t.http).get('/api/cart').set(auth(token)).expect(200);
    expect(res.body.total).toBe(160);
    expect(res.body.products[0].product).toMatchObject({ price: 80, originalPrice: 100, discount: 20 });
  });

  it('refuses the 11th unit in one add, zero, fractions, strings and unknown fields with 400', async () => {
    const token = await newCustomer();
    const id = await makeProduct({ name: 'Bulk Soap', price: 10, stock: 100 });
    const over = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 11 })
      .expect(400);
    expect(over.body.errors).toEqual([
      { field: 'quantity', message: 'You can add at most 10 units at a time', code: 'VALIDATION_FAILED' },
    ]);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 0 })
      .expect(400);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 1.5 })
      .expect(400);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: '2' })
      .expect(400);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, price: 1 })
      .expect(400);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: { $gt: '' } })
      .expect(400);
    await request(t.http).post('/api/cart/add').set(auth(token)).send({}).expect(400);
    const ten = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 10 })
      .expect(200);
    expect(ten.body.itemCount).toBe(10);
    const cart = await request(t.http).get('/api/cart').set(auth(token)).expect(200);
    expect(cart.body.itemCount).toBe(10);
  });

  it('answers 404 "Product not found" for unknown, malformed and withdrawn products', async () => {
    const token = await newCustomer();
    const unknown = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: '000000000000000000000000' })
      .expect(404);
    expect(unknown.body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Product not found',
      code: 'PRODUCT_NOT_FOUND',
      params: {},
    });
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId: 'nope' }).expect(400);
    const id = await makeProduct({ name: 'Withdrawn Balm', price: 10, stock: 5 });
    await request(t.http).delete(`/api/products/${id}`).set(auth(admin)).expect(200);
    const withdrawn = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id })
      .expect(404);
    expect(withdrawn.body.message).toBe('Product not found');
    await request(t.http).patch('/api/cart/update/nope').set(auth(token)).send({ quantity: 1 }).expect(404);
    await request(t.http).delete('/api/cart/remove/nope').set(auth(token)).expect(404);
  });

  it('never lets a line exceed the stock: 409 naming the product', async () => {
    const token = await newCustomer();
    const id = await makeProduct({ name: 'Rare Frankincense Oil', price: 900, stock: 3 });
    const tooMany = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 4 })
      .expect(409);
    expect(tooMany.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'Only 3 left in stock for Rare Frankincense Oil',
      code: 'INSUFFICIENT_STOCK',
      params: { product: 'Rare Frankincense Oil', available: 3, inCart: 0 },
    });
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    const more = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 2 })
      .expect(409);
    expect(more.body.message).toBe(
      'Only 3 left in stock for Rare Frankincense Oil (you already have 2 in your cart)',
    );
    expect(more.body.params).toEqual({ product: 'Rare Frankincense Oil', available: 3, inCart: 2 });
    const sold = await makeProduct({ name: 'Sold Out Mask', price: 50, stock: 0 });
    const out = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: sold })
      .expect(409);
    expect(out.body).toMatchObject({
      message: 'Sold Out Mask is out of stock',
      code: 'OUT_OF_STOCK',
      params: { product: 'Sold Out Mask', available: 0 },
    });
    expect((await request(t.http).get('/api/cart').set(auth(token))).body.itemCount).toBe(2);
  });

  it('keeps concurrent adds within the stock (atomic per user)', async () => {
    const token = await newCustomer();
    const id = await makeProduct({ name: 'Concurrent Cream', price: 10, stock: 5 });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        request(t.http).post('/api/cart/add').set(auth(token)).send({ productId: id, quantity: 2 }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    const cart = await request(t.http).get('/api/cart').set(auth(token)).expect(200);
    expect(cart.body.products).toHaveLength(1);
    expect(cart.body.itemCount).toBe(4);
  });

  it('updates a quantity between 1 and the stock', async () => {
    const token = await newCustomer();
    const id = await makeProduct({ name: 'Update Lotion', price: 25, stock: 12 });
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId: id }).expect(200);
    const res = await request(t.http)
      .patch(`/api/cart/update/${id}`)
      .set(auth(token))
      .send({ quantity: 12 })
      .expect(200);
    expect(res.body).toMatchObject({ total: 300, itemCount: 12 });
    const over = await request(t.http)
      .patch(`/api/cart/update/${id}`)
      .set(auth(token))
      .send({ quantity: 13 })
      .expect(409);
    expect(over.body.message).toBe('Only 12 left in stock for Update Lotion');
    await request(t.http).patch(`/api/cart/update/${id}`).set(auth(token)).send({ quantity: 0 }).expect(400);
    await request(t.http).patch(`/api/cart/update/${id}`).set(auth(token)).send({}).expect(400);
    const other = await makeProduct({ name: 'Not In Cart', price: 25, stock: 12 });
    const missing = await request(t.http)
      .patch(`/api/cart/update/${other}`)
      .set(auth(token))
      .send({ quantity: 1 })
      .expect(404);
    expect(missing.body.message).toBe('Product not in cart');
    expect((await request(t.http).get('/api/cart').set(auth(token))).body.itemCount).toBe(12);
  });

  it('removes a line, idempotently', async () => {
    const token = await newCustomer();
    const a = await makeProduct({ name: 'Remove A', price: 5, stock: 9 });
    const b = await makeProduct({ name: 'Remove B', price: 7, stock: 9 });
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId: a }).expect(200);
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId: b }).expect(200);
    const res = await request(t.http).delete(`/api/cart/remove/${a}`).set(auth(token)).expect(200);
    expect(res.body.products.map((l: { product: { _id: string } }) => l.product._id)).toEqual([b]);
    expect(res.body.total).toBe(7);
    await request(t.http).delete(`/api/cart/remove/${a}`).set(auth(token)).expect(200);
  });

  it('clears with both clear and clearAllFromCart', async () => {
    const token = await newCustomer();
    const id = await makeProduct({ name: 'Clear Me', price: 5, stock: 9 });
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    const cleared = await request(t.http).delete('/api/cart/clear').set(auth(token)).expect(200);
    expect(cleared.body).toEqual({
      success: true,
      products: [],
      total: 0,
      itemCount: 0,
      message: 'Cart cleared',
    });
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId: id }).expect(200);
    const all = await request(t.http).delete('/api/cart/clearAllFromCart').set(auth(token)).expect(200);
    expect(all.body.itemCount).toBe(0);
    await request(t.http).delete('/api/cart/clearAllFromCart').set(auth(token)).expect(200);
  });

  it('drops withdrawn and sold-out products and reduces over-stock lines, with notices once', async () => {
    const token = await newCustomer();
    const gone = await makeProduct({ name: 'Gone Serum', price: 100, stock: 5 });
    const soldOut = await makeProduct({ name: 'Empty Shelf Toner', price: 100, stock: 5 });
    const short = await makeProduct({ name: 'Short Supply Oil', price: 100, stock: 5 });
    const fine = await makeProduct({ name: 'Fine Shampoo', price: 50, stock: 5 });
    for (const id of [gone, soldOut, short, fine]) {
      await request(t.http)
        .post('/api/cart/add')
        .set(auth(token))
        .send({ productId: id, quantity: 4 })
        .expect(200);
    }
    await request(t.http).delete(`/api/products/${gone}`).set(auth(admin)).expect(200);
    await products.updateOne({ _id: soldOut }, { $set: { stock: 0 } });
    await products.updateOne({ _id: short }, { $set: { stock: 2 } });
    const res = await request(t.http).get('/api/cart').set(auth(token)).expect(200);
    expect(
      res.body.products.map((l: { product: { name: string }; quantity: number }) => [
        l.product.name,
        l.quantity,
      ]),
    ).toEqual([
      ['Short Supply Oil', 2],
      ['Fine Shampoo', 4],
    ]);
    expect(res.body.total).toBe(400);
    expect(res.body.itemCount).toBe(6);
    expect(res.body.notices).toEqual([
      {
        productId: gone,
        type: 'removed',
        message: 'Gone Serum is no longer available and was removed from your cart',
        code: 'NOTICE_UNAVAILABLE_REMOVED',
        params: { product: 'Gone Serum' },
      },
      {
        productId: soldOut,
        type: 'removed',
        message: 'Empty Shelf Toner is out of stock and was removed from your cart',
        code: 'NOTICE_OUT_OF_STOCK_REMOVED',
        params: { product: 'Empty Shelf Toner' },
      },
      {
        productId: short,
        type: 'quantity_reduced',
        message: 'Only 2 left in stock for Short Supply Oil; quantity reduced to 2',
        code: 'NOTICE_QUANTITY_REDUCED',
        params: { product: 'Short Supply Oil', available: 2 },
      },
    ]);
    const again = await request(t.http).get('/api/cart').set(auth(token)).expect(200);
    expect(again.body.notices).toBeUndefined();
    expect(again.body.itemCount).toBe(6);
    await products.deleteOne({ _id: fine });
    const deleted = await request(t.http).get('/api/cart').set(auth(token)).expect(200);
    expect(deleted.body.notices).toEqual([
      {
        productId: fine,
        type: 'removed',
        message: 'A product is no longer available and was removed from your cart',
        code: 'NOTICE_UNAVAILABLE_REMOVED',
        params: {},
      },
    ]);
    expect(deleted.body.itemCount).toBe(2);
  });

  // What this instance read of products a moment ago serves the cart's answers (recent-products.ts);
  // writes made elsewhere (another instance, a script: here the driver, which no model hook sees) show
  // within HOT_CACHE_TTL_MS, and the cart never refuses, drops or reduces on the products it kept.
  it('decides refusals and reductions on the database, not on the products it read a moment ago', async () => {
    const token = await newCustomer();
    const id = await makeProduct({ name: 'Elsewhere Restocked Balm', price: 80, stock: 2 });
    const _id = new Types.ObjectId(id);
    const quantities = async () =>
      (await request(t.http).get('/api/cart').set(auth(token)).expect(200)).body.products.map(
        (l: { quantity: number }) => l.quantity,
      );
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    // restocked and a unit added through another instance, in the moment this one keeps stock 2
    await products.collection.updateOne({ _id }, { $set: { stock: 6 } });
    const carts = t.app.get<
      Model<{ user: Types.ObjectId; items: { product: Types.ObjectId; quantity: number }[] }>
    >(getModelToken('Cart'));
    await carts.collection.updateOne({ 'items.product': _id }, { $set: { 'items.$.quantity': 3 } });
    // over the stock as kept (3 > 2): read again before reducing anything, so the line stays
    expect(await quantities()).toEqual([3]);
    // over the stock as kept, within it in the database: added
    const added = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 3 })
      .expect(200);
    expect(added.body.products[0].quantity).toBe(6);
    // and over it in the database too: refused with what is there now
    const refused = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: id, quantity: 1 })
      .expect(409);
    expect(refused.body.message).toContain('Elsewhere Restocked Balm');
    expect(await quantities()).toEqual([6]);
  });

  it('adds right when the cart changed elsewhere since this instance last saw it', async () => {
    const token = await newCustomer();
    const [a, b] = [
      await makeProduct({ name: 'Seen Aloe Gel', price: 50, stock: 9 }),
      await makeProduct({ name: 'Unseen Teff Scrub', price: 60, stock: 9 }),
    ];
    const lines = (body: { products: { product: { name: string }; quantity: number }[] }) =>
      body.products.map((l) => [l.product.name, l.quantity]);
    const first = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: a })
      .expect(200);
    type Lines = { items: { product: Types.ObjectId; quantity: number; addedAt?: Date }[] };
    const carts = {
      collection: t.app.get<Model<Cart>>(getModelToken(Cart.name))
        .collection as unknown as mongo.Collection<Lines>,
    };
    const cartId = (await carts.collection.findOne({ 'items.product': new Types.ObjectId(a) }))!._id;
    expect(lines(first.body)).toEqual([['Seen Aloe Gel', 1]]);
    // another instance (here the driver) adds b: this one last saw the cart without it
    await carts.collection.updateOne(
      { _id: cartId },
      { $push: { items: { product: new Types.ObjectId(b), quantity: 2, addedAt: new Date() } } },
    );
    const grown = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: b })
      .expect(200);
    expect(lines(grown.body)).toEqual([
      ['Seen Aloe Gel', 1],
      ['Unseen Teff Scrub', 3],
    ]);
    // and removes a, which this one last saw in it
    await carts.collection.updateOne(
      { _id: cartId },
      { $pull: { items: { product: new Types.ObjectId(a) } } },
    );
    const pushed = await request(t.http)
      .post('/api/cart/add')
      .set(auth(token))
      .send({ productId: a, quantity: 2 })
      .expect(200);
    expect(lines(pushed.body)).toEqual([
      ['Unseen Teff Scrub', 3],
      ['Seen Aloe Gel', 2],
    ]);
  });

  it('gives admins a cart of their own too', async () => {
    const id = await makeProduct({ name: 'Admin Pick', price: 5, stock: 9 });
    const res = await request(t.http)
      .post('/api/cart/add')
      .set(auth(admin))
      .send({ productId: id })
      .expect(200);
    expect(res.body.itemCount).toBe(1);
  });

  it('answers the doubled /api/api prefix as the same route', async () => {
    const token = await newCustomer();
    await request(t.http).get('/api/api/cart').set(auth(token)).expect(200);
  });
});
