import { getModelToken } from '@nestjs/mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import { Types, type Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Settings, SETTINGS_KEY } from '../src/modules/settings/schemas/settings.schema';
import { OrdersService } from '../src/modules/orders/orders.module';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';
import { startWireCounter, type WireCounter } from './support/wire-count';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };

/**
 * Database round trips of the write path (issue 18 point 2), counted on the wire between the API and
 * the engine: every command the API sends for one request, whoever sends it (the token check, Mongoose,
 * the transaction's commit). Each count is the figure the write path was brought down to; a change
 * that adds a round trip to these hot requests fails here and has to say why (docs/quality.md).
 */
describe('write path: database round trips per request', () => {
  let engine: EmbeddedMongo;
  let wire: WireCounter;
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;
  let orders: Model<Order>;
  const newCustomer = customerFactory(() => t, 'trips', 'Round Trip Customer');

  /** The commands one request sends, as `name collection` (the request's answer is checked too). */
  const commandsOf = async (send: () => Promise<request.Response>, status: number) => {
    wire.reset();
    const res = await send();
    expect(res.status).toBe(status);
    return wire.commands.map((c) => `${c.name} ${typeof c.target === 'string' ? c.target : ''}`.trim());
  };
  const makeProduct = async (name: string, stock: number) =>
    (
      await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name, price: 120, stock, images: ['/api/assets/products/x.svg'] })
        .expect(201)
    ).body.product._id as string;
  const add =
    (token: string, productId: string, quantity = 1) =>
    () =>
      request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity });
  const place = (token: string, key: string) => () =>
    request(t.http)
      .post('/api/orders')
      .set(auth(token))
      .set('Idempotency-Key', key)
      .send({ shippingAddress: address, paymentMethod: 'chapa' });

  beforeAll(async () => {
    engine = await startEmbeddedMongo({ port: 0, inMemory: true });
    wire = await startWireCounter({ host: engine.host, port: engine.port });
    t = await startTestApp({
      MONGODB_URI: wire.uri,
      MONGODB_DB: `trips_${randomBytes(4).toString('hex')}`,
      // the longest a token's user is remembered, so that a slow machine never sees it lapse mid-test
      SESSION_CACHE_TTL_MS: '10000',
      // and the settings (remembered for HOT_CACHE_TTL_MS): a read of them shows only where a write moved them
      HOT_CACHE_TTL_MS: '60000',
    });
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    products = t.app.get(getModelToken(Product.name));
    orders = t.app.get(getModelToken(Order.name));
  });

  afterAll(async () => {
    await t?.close();
    await wire?.close();
    await engine?.stop();
  });

  it('adds to a signed-in cart in 1 conditional update (+ the products not read moments ago)', async () => {
    const customer = await newCustomer();
    const [a, b] = [await makeProduct('Trip Serum', 50), await makeProduct('Trip Balm', 50)];
    // the first add ever: a token not seen yet is checked, the product read; no line to grow, so a
    // second update pushes it, creating the cart (upsert)
    expect(await commandsOf(add(customer.token, a), 200)).toEqual([
      'find users',
      'find products',
      'findAndModify carts',
      'findAndModify carts',
    ]);
    // a new line: its product is read (the other line's is kept from moments ago, recent-products.ts),
    // and the push comes first, the cart having been seen without it
    expect(await commandsOf(add(customer.token, b), 200)).toEqual(['find products', 'findAndModify carts']);
    // a line that grows: one conditional update, which answers the cart; every product kept
    const grown = await commandsOf(add(customer.token, a, 2), 200);
    expect(grown).toEqual(['findAndModify carts']);
    const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(cart.body.products.map((l: { quantity: number }) => l.quantity)).toEqual([3, 1]);
    // a product write through the model forgets what was kept: the stock is read again, and the
    // refusal is decided on it once the line was read (no line changed)
    await products.updateOne({ _id: a }, { $set: { stock: 3 } });
    expect(await commandsOf(add(customer.token, a), 409)).toEqual([
      'find products',
      'findAndModify carts',
      'findAndModify carts',
      'find carts',
    ]);
    const after = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(after.body.products.map((l: { quantity: number }) => l.quantity)).toEqual([3, 1]);
    // an account write forgets what the instance remembered: the next request checks the token again
    await request(t.http).put('/api/users/profile').set(auth(customer.token)).send({ name: 'Trip Renamed' });
    expect((await commandsOf(add(customer.token, b), 200))[0]).toBe('find users');
    // a wrong guess (the line removed elsewhere since this instance saw the cart) costs the other
    // update, not a read of the cart
    await t.app
      .get<Model<{ user: unknown }>>(getModelToken('Cart'))
      .collection.updateOne({ user: new Types.ObjectId(customer.id) }, { $set: { items: [] } });
    expect(await commandsOf(add(customer.token, b), 200)).toEqual([
      'findAndModify carts',
      'findAndModify carts',
    ]);
  });

  it('places an order with an Idempotency-Key in 7 commands after an add, and answers a retry without a transaction', async () => {
    const customer = await newCustomer();
    const id = await makeProduct('Trip Oil', 20);
    await add(customer.token, id, 2)(); // checks the token (and reads the profile phone and language)
    const placed = await commandsOf(place(customer.token, 'trip-1'), 201);
    expect(placed).toEqual([
      'insert order_requests', // the key's claim
      'findAndModify counters', // the order number (the settings are remembered: SettingsService.get)
      'findAndModify carts', // the transaction: take the cart's lines...
      'findAndModify products', // ...reserve each line's stock...
      'insert orders', // ...write the order...
      'update notifications', // ...and its messages, in one command
      'commitTransaction',
    ]);
    const retry = await commandsOf(place(customer.token, 'trip-1'), 200);
    expect(retry).toEqual(['insert order_requests', 'delete order_requests', 'find orders']);
    expect(await orders.countDocuments({ user: customer.id })).toBe(1);
    expect((await products.findById(id).lean())!.stock).toBe(18);
    // the placed order's claim stays (no delete on the way out) until the sweep finds it old
    const service = t.app.get(OrdersService);
    expect(await service.sweepClaims()).toBe(0);
    expect(await service.sweepClaims(Date.now() + 61_000)).toBe(1);
    // and without its claim the key still answers the same order, making nothing new
    const again = await place(customer.token, 'trip-1')();
    expect(again.status).toBe(200);
    expect(await orders.countDocuments({ user: customer.id })).toBe(1);
    expect((await products.findById(id).lean())!.stock).toBe(18);
  });

  it('reads the settings again once they are written, by any path', async () => {
    const customer = await newCustomer();
    const id = await makeProduct('Trip Mask', 20);
    const settings = t.app.get(getModelToken(Settings.name)) as Model<Settings>;
    await add(customer.token, id)();
    await settings.updateOne(
      { key: SETTINGS_KEY },
      { $set: { standardShippingSantim: 9_900 } },
      { upsert: true },
    );
    const placed = await commandsOf(place(customer.token, 'trip-settings'), 201);
    expect(placed.filter((c) => c === 'find settings')).toHaveLength(1);
    expect(placed).toHaveLength(8);
    const order = await orders.findOne({ idempotencyKey: 'trip-settings' }).lean();
    expect(order!.shippingCostSantim).toBe(9_900); // priced with what was just written
  });
});
