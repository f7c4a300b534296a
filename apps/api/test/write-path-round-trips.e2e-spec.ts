import { getModelToken } from '@nestjs/mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import { Types, type Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Settings, SETTINGS_KEY } from '../src/modules/settings/schemas/settings.schema';
import { OrderIdempotency } from '../src/modules/orders/orders.module';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';
import { startWireCounter, type WireCounter } from './support/wire-count';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };

/**
 * Database round trips of the write path (issue 18 point 2), counted on the wire between the API and
 * the engine: every command the API sends for one request, whoever sends it (the token check, Mongoose,
 * the transaction's commit). Each request has a budget: at most so many commands, and per kind of
 * command where it matters (no read of the cart on a growing add, one transaction per order); a
 * refactor that keeps the cost passes, a change that adds a round trip to these hot requests fails
 * here and has to say why (docs/quality.md).
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
  /**
   * A request's budget: at most `total` commands; `atMost` and `exactly` bound commands of one kind
   * (`name collection`, e.g. `find carts`). Unlisted kinds count only towards the total.
   */
  const expectWithin = (
    commands: string[],
    budget: { total: number; atMost?: Record<string, number>; exactly?: Record<string, number> },
  ) => {
    const count = (kind: string) => commands.filter((c) => c === kind).length;
    const over = [
      ...(commands.length > budget.total ? [`${commands.length} commands > ${budget.total}`] : []),
      ...Object.entries(budget.atMost ?? {})
        .filter(([kind, max]) => count(kind) > max)
        .map(([kind, max]) => `${count(kind)} × ${kind} > ${max}`),
      ...Object.entries(budget.exactly ?? {})
        .filter(([kind, n]) => count(kind) !== n)
        .map(([kind, n]) => `${count(kind)} × ${kind} ≠ ${n}`),
    ];
    // the commands are shown with what went over, so a failure says where the cost went
    expect({ over, commands }).toEqual({ over: [], commands });
  };
  /** Cart updates: conditional ones answering the cart (findAndModify) or plain ones, whichever a refactor chooses. */
  const cartWrites = (commands: string[]) =>
    commands.filter((c) => /^(findAndModify|update) (carts|guestcarts)$/.test(c)).length;
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

  it('adds to a signed-in cart in 1 conditional update (+ the products not read moments ago), never reading the cart on the way', async () => {
    const customer = await newCustomer();
    const [a, b] = [await makeProduct('Trip Serum', 50), await makeProduct('Trip Balm', 50)];
    // the first add ever: a token not seen yet is checked, the product read; the cart is created by
    // the add's own update(s), not read
    const first = await commandsOf(add(customer.token, a), 200);
    expectWithin(first, { total: 4, atMost: { 'find users': 1, 'find products': 1, 'find carts': 0 } });
    expect(cartWrites(first)).toBeLessThanOrEqual(2);
    // a new line: its product is read (the other line's is kept from moments ago), one cart update
    const second = await commandsOf(add(customer.token, b), 200);
    expectWithin(second, { total: 2, atMost: { 'find products': 1, 'find carts': 0, 'find users': 0 } });
    expect(cartWrites(second)).toBe(1);
    // a line that grows: one conditional update, which answers the cart; every product kept
    const grown = await commandsOf(add(customer.token, a, 2), 200);
    expectWithin(grown, { total: 1, atMost: { 'find carts': 0, 'find products': 0 } });
    expect(cartWrites(grown)).toBe(1);
    const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(cart.body.products.map((l: { quantity: number }) => l.quantity)).toEqual([3, 1]);
    // a product write forgets what was kept: the refusal is decided on the product read again from
    // the database (and the line), and no line changed
    await request(t.http)
      .put(`/api/products/${a}`)
      .set(auth(admin))
      .send({ name: 'Trip Serum', price: 120, stock: 3 })
      .expect(200);
    const refused = await commandsOf(add(customer.token, a), 409);
    expectWithin(refused, { total: 4, exactly: { 'find products': 1 }, atMost: { 'find carts': 1 } });
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
    const guessed = await commandsOf(add(customer.token, b), 200);
    expectWithin(guessed, { total: 2, atMost: { 'find carts': 0, 'find products': 0 } });
    expect(cartWrites(guessed)).toBe(2);
  });

  it('places an order with an Idempotency-Key in at most 8 commands after an add, one transaction, and answers a retry without one', async () => {
    const customer = await newCustomer();
    const id = await makeProduct('Trip Oil', 20);
    await add(customer.token, id, 2)(); // checks the token (and reads the profile phone and language)
    // the key's claim, the order number, then one transaction: the cart's lines taken, each line's
    // stock reserved (one product here), the order written with its messages, the commit; the
    // settings and the customer's profile are remembered, nothing is read twice; with a key, the cart's
    // coupon code is read once before the claim, because it is part of the key's fingerprint
    // (docs/decisions/0096-coupon-codes.md)
    const placed = await commandsOf(place(customer.token, 'trip-1'), 201);
    expectWithin(placed, {
      total: 8,
      exactly: { commitTransaction: 1, 'insert orders': 1, 'insert order_requests': 1 },
      atMost: {
        'find settings': 0,
        'find users': 0,
        'find carts': 1,
        'find products': 0,
        'find orders': 0,
        'findAndModify products': 1,
      },
    });
    // a retry answers the order the key made, without a transaction and without writing an order (the
    // cart's coupon code read for the fingerprint again)
    const retry = await commandsOf(place(customer.token, 'trip-1'), 200);
    expectWithin(retry, {
      total: 4,
      exactly: { 'find orders': 1 },
      atMost: {
        commitTransaction: 0,
        'insert orders': 0,
        'findAndModify carts': 0,
        'findAndModify products': 0,
      },
    });
    expect(await orders.countDocuments({ user: customer.id })).toBe(1);
    expect((await products.findById(id).lean())!.stock).toBe(18);
    // the placed order's claim stays (no delete on the way out) until the sweep finds it old
    const service = t.app.get(OrderIdempotency);
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
    // the settings once, and otherwise the order's usual budget
    expectWithin(placed, { total: 9, exactly: { 'find settings': 1, commitTransaction: 1 } });
    const order = await orders.findOne({ idempotencyKey: 'trip-settings' }).lean();
    expect(order!.shippingCostSantim).toBe(9_900); // priced with what was just written
  });
});
