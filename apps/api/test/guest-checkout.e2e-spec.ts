import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { GuestCart } from '../src/modules/cart/schemas/cart.schema';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

/** Guest checkout and order lookup (docs/decisions/0062-guest-checkout-and-order-lookup.md), on the real engine. */
describe('guest checkout and order lookup', () => {
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;
  let orders: Model<Order>;
  let outbox: Model<Notification>;
  let guestCarts: Model<GuestCart>;
  const newCustomer = customerFactory(() => t, 'guestbuyer', 'Guest Buyer');

  const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa' };
  const guest = { name: 'Hana Tesfaye', phone: '0911 23 45 67' };
  const PHONE = '+251911234567';
  let ip = 0;
  /** A client address of its own (the API trusts the loopback proxy's X-Forwarded-For), so limits do not mix. */
  const newClient = () => `10.29.0.${++ip}`;

  const makeProduct = async (name: string, price: number, stock: number) => {
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ brand: 'Habesha Naturals', name, price, stock })
      .expect(201);
    return res.body.product._id as string;
  };
  /** A new guest cart holding `quantity` of the product; answers its id. */
  const guestCart = async (productId: string, quantity = 1) => {
    const res = await request(t.http).post('/api/cart/add').send({ productId, quantity }).expect(200);
    return res.body.cartId as string;
  };
  const placeAsGuest = (cartId: string, body: Record<string, unknown> = {}) =>
    request(t.http)
      .post('/api/orders')
      .set('X-Cart-Id', cartId)
      .send({ shippingAddress: address, paymentMethod: 'chapa', guest, ...body });
  const stockOf = async (id: string) => (await products.findById(id).lean())!.stock;
  const lookup = (number: string, phone: string, client: string) =>
    request(t.http).get('/api/orders/lookup').query({ number, phone }).set('X-Forwarded-For', client);

  /** A guest's placed order with its token. */
  const guestOrder = async (body: Record<string, unknown> = {}) => {
    const product = await makeProduct(`Guest Oil ${Math.random().toString(36).slice(2, 8)}`, 200, 5);
    const cartId = await guestCart(product);
    const res = await placeAsGuest(cartId, body).expect(201);
    return { order: res.body.order, token: res.body.guestAccessToken as string, product, cartId };
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    products = t.app.get(getModelToken(Product.name));
    orders = t.app.get(getModelToken(Order.name));
    outbox = t.app.get(getModelToken(Notification.name));
    guestCarts = t.app.get(getModelToken(GuestCart.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('places a guest order from a guest cart: no account, the guest as customer, a token, the cart emptied', async () => {
    const product = await makeProduct('Guest Shea Butter', 300, 4);
    const cartId = await guestCart(product, 2);
    const res = await placeAsGuest(cartId).expect(201);
    expect(res.body.success).toBe(true);
    expect(res.body.guestAccessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const order = res.body.order;
    expect(order.user).toBeUndefined();
    expect(order.customer).toEqual({ name: 'Hana Tesfaye', phone: PHONE });
    expect(order.shippingAddress.phone).toBe(PHONE);
    expect(order).toMatchObject({ status: 'pending', paymentStatus: 'unpaid', totalAmount: 840 });
    expect(await stockOf(product)).toBe(2);
    const cart = await request(t.http).get('/api/cart').set('X-Cart-Id', cartId).expect(200);
    expect(cart.body.itemCount).toBe(0);
    const stored = await orders.findById(order._id).lean();
    expect(stored?.user).toBeUndefined();
    // its message goes to the phone by SMS (no email given)
    const sms = await outbox.find({ eventKey: new RegExp(`^order\\.placed:${order._id}(:sms)?$`) }).lean();
    expect(sms.map((m) => [m.channel, m.to])).toEqual([['sms', PHONE]]);
    expect(sms[0].text).toContain(order.orderNumber);
    // the guest's way back: the order lookup with the number filled in
    expect(sms[0].text).toContain(`/track-order?number=${order.orderNumber}`);
    // the shop's own message names the guest and its phone
    const staff = await outbox.findOne({ eventKey: `order.placed:${order._id}:admin` }).lean();
    expect(staff?.text).toContain(`Hana Tesfaye (${PHONE})`);
  });

  it('sends a guest with an email both an SMS and an email; pay on delivery says what to have ready', async () => {
    const { order } = await guestOrder({
      paymentMethod: 'cash_on_delivery',
      guest: { ...guest, email: 'Hana@Example.com' },
    });
    expect(order.customer).toEqual({ name: 'Hana Tesfaye', email: 'hana@example.com', phone: PHONE });
    const messages = await outbox
      .find({ eventKey: new RegExp(`^order\\.placed:${order._id}(:sms)?$`) })
      .lean();
    expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    for (const m of messages)
      expect(m.text).toContain(`Pay on delivery: ETB ${order.totalAmount.toFixed(2)}`);
  });

  it('asks a guest who it is, and keeps out a request with neither a token nor a guest cart (401)', async () => {
    const product = await makeProduct('Guest Lotion', 100, 3);
    const cartId = await guestCart(product);
    const missing = await request(t.http)
      .post('/api/orders')
      .set('X-Cart-Id', cartId)
      .send({ shippingAddress: address })
      .expect(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toContain('guest');
    const badPhone = await placeAsGuest(cartId, { guest: { name: 'Hana', phone: '12345' } }).expect(400);
    expect(badPhone.body.code).toBe('INVALID_PHONE');
    await placeAsGuest(cartId, { guest: { name: '', phone: PHONE } }).expect(400);
    await request(t.http).post('/api/orders').send({ shippingAddress: address, guest }).expect(401);
    await request(t.http)
      .post('/api/orders')
      .set('X-Cart-Id', 'not-a-cart')
      .send({ shippingAddress: address, guest })
      .expect(401);
    // nothing was taken
    expect(await stockOf(product)).toBe(3);
    // an unknown (or expired) cart is an empty cart
    const empty = await placeAsGuest('0'.repeat(32)).expect(400);
    expect(empty.body.code).toBe('EMPTY_CART');
  });

  it('ignores `guest` with a token: an account order as before', async () => {
    const customer = await newCustomer();
    const product = await makeProduct('Account Soap', 100, 3);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId: product })
      .expect(200);
    const res = await request(t.http)
      .post('/api/orders')
      .set(auth(customer.token))
      .send({ shippingAddress: address, guest })
      .expect(201);
    expect(res.body.guestAccessToken).toBeUndefined();
    expect(res.body.order.user).toBe(customer.id);
    expect(res.body.order.customer.name).toBe('Guest Buyer 1');
  });

  it('opens a guest order with its own token only: another order’s token and no token are refused', async () => {
    const mine = await guestOrder();
    const other = await guestOrder();
    const read = await request(t.http)
      .get(`/api/orders/${mine.order._id}`)
      .set('X-Order-Token', mine.token)
      .expect(200);
    expect(read.body).toMatchObject({ _id: mine.order._id, orderNumber: mine.order.orderNumber });
    expect(read.headers['cache-control']).toBe('no-store');

    const crossed = await request(t.http)
      .get(`/api/orders/${mine.order._id}`)
      .set('X-Order-Token', other.token)
      .expect(404);
    expect(crossed.body.code).toBe('ORDER_NOT_FOUND');
    await request(t.http)
      .get(`/api/orders/${mine.order._id}`)
      .set('X-Order-Token', 'x'.repeat(43))
      .expect(404);
    // no credentials at all: 401 as before; a signed-in stranger without the token: 404
    await request(t.http).get(`/api/orders/${mine.order._id}`).expect(401);
    const stranger = await newCustomer();
    await request(t.http).get(`/api/orders/${mine.order._id}`).set(auth(stranger.token)).expect(404);
    // staff see it, and the admin lists and dashboard show it without an account
    await request(t.http).get(`/api/orders/${mine.order._id}`).set(auth(admin)).expect(200);
    const list = await request(t.http)
      .get('/api/admin/orders')
      .query({ sort: '["createdAt","DESC"]', range: '[0,49]' })
      .set(auth(admin))
      .expect(200);
    expect(list.body.some((o: { _id: string }) => o._id === mine.order._id)).toBe(true);
    const spec = await request(t.http).get('/api/admin/orders').set(auth(admin)).expect(200);
    const rows = (spec.body.orders ?? spec.body.data) as { _id: string; user: unknown }[];
    expect(rows.find((o) => o._id === mine.order._id)?.user).toEqual({
      _id: '',
      name: 'Hana Tesfaye',
      email: '',
    });
    await request(t.http).get('/api/admin/dashboard/stats').set(auth(admin)).expect(200);
  });

  it('lets a guest cancel its own order with its token: stock back once, nobody else, not once shipped', async () => {
    const mine = await guestOrder({ paymentMethod: 'cash_on_delivery' });
    const other = await guestOrder();
    expect(await stockOf(mine.product)).toBe(4);
    const cancel = (token?: string) => {
      const req = request(t.http).patch(`/api/orders/${mine.order._id}/cancel`);
      return token ? req.set('X-Order-Token', token) : req;
    };
    // no credentials: 401; another order's token or a signed-in stranger: 404; nothing changed
    await cancel().expect(401);
    expect((await cancel(other.token).expect(404)).body.code).toBe('ORDER_NOT_FOUND');
    const stranger = await newCustomer();
    await cancel().set(auth(stranger.token)).expect(404);
    expect((await orders.findById(mine.order._id).lean())!.status).toBe('pending');
    expect(await stockOf(mine.product)).toBe(4);

    const done = await cancel(mine.token).expect(200);
    expect(done.body).toMatchObject({
      success: true,
      order: { status: 'cancelled', paymentStatus: 'unpaid' },
    });
    expect(await stockOf(mine.product)).toBe(5);
    const stored = (await orders.findById(mine.order._id).lean())!;
    expect(stored.statusHistory.at(-1)).toMatchObject({ status: 'cancelled' });
    expect(stored.statusHistory.at(-1)!.by).toBeUndefined();
    // a second cancel is refused and gives nothing back twice
    expect((await cancel(mine.token).expect(409)).body.code).toBe('CANNOT_CANCEL');
    expect(await stockOf(mine.product)).toBe(5);

    // once staff have shipped it, the guest can no longer cancel
    const shipped = await guestOrder({ paymentMethod: 'cash_on_delivery' });
    for (const status of ['processing', 'shipped'])
      await request(t.http)
        .patch(`/api/orders/${shipped.order._id}/status`)
        .set(auth(admin))
        .send({ status })
        .expect(200);
    const late = await request(t.http)
      .patch(`/api/orders/${shipped.order._id}/cancel`)
      .set('X-Order-Token', shipped.token)
      .expect(409);
    expect(late.body.code).toBe('CANNOT_CANCEL');
  });

  it('lets a guest pay with its token (initialize, verify, test checkout) and nobody else', async () => {
    const mine = await guestOrder();
    const other = await guestOrder();
    await request(t.http)
      .post('/api/payments/initialize')
      .set('X-Order-Token', other.token)
      .send({ orderId: mine.order._id })
      .expect(404);
    await request(t.http).post('/api/payments/initialize').send({ orderId: mine.order._id }).expect(401);
    const init = await request(t.http)
      .post('/api/payments/initialize')
      .set('X-Order-Token', mine.token)
      .send({ orderId: mine.order._id })
      .expect(201);
    expect(init.body).toMatchObject({ success: true, amount: mine.order.totalAmount });
    const txRef = init.body.txRef as string;

    await request(t.http).get(`/api/payments/verify/${txRef}`).set('X-Order-Token', other.token).expect(404);
    await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set('X-Order-Token', other.token)
      .send({ outcome: 'success' })
      .expect(404);
    const done = await request(t.http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set('X-Order-Token', mine.token)
      .send({ outcome: 'success' })
      .expect(200);
    expect(done.body).toMatchObject({ status: 'paid' });
    const verified = await request(t.http)
      .get(`/api/payments/verify/${txRef}`)
      .set('X-Order-Token', mine.token)
      .expect(200);
    expect(verified.body).toMatchObject({ status: 'paid', order: { paymentStatus: 'paid' } });
  });

  it('replays a guest Idempotency-Key with the same order and token; the key is scoped by the guest cart', async () => {
    const product = await makeProduct('Guest Replay Balm', 150, 6);
    const cartId = await guestCart(product);
    const first = await placeAsGuest(cartId).set('Idempotency-Key', 'guest-key-1').expect(201);
    const again = await placeAsGuest(cartId).set('Idempotency-Key', 'guest-key-1').expect(200);
    expect(again.body.order._id).toBe(first.body.order._id);
    expect(again.body.guestAccessToken).toBe(first.body.guestAccessToken);
    expect(await stockOf(product)).toBe(5);
    // the same key with another request: refused, as for accounts
    const reused = await placeAsGuest(cartId, { guest: { ...guest, name: 'Someone Else' } })
      .set('Idempotency-Key', 'guest-key-1')
      .expect(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // another guest cart with the same key places its own order
    const otherCart = await guestCart(product);
    const other = await placeAsGuest(otherCart).set('Idempotency-Key', 'guest-key-1').expect(201);
    expect(other.body.order._id).not.toBe(first.body.order._id);
    expect(await stockOf(product)).toBe(4);
  });

  it('answers a lookup with both right, and the same 404 for a wrong number or a wrong phone', async () => {
    const { order } = await guestOrder();
    const client = newClient();
    const ok = await lookup(order.orderNumber.toLowerCase(), '0911234567', client).expect(200);
    expect(ok.body.success).toBe(true);
    expect(ok.body.order).toMatchObject({
      orderNumber: order.orderNumber,
      status: 'pending',
      paymentStatus: 'unpaid',
      paymentMethod: 'chapa',
      totalAmount: order.totalAmount,
      shipping: { city: 'Addis Ababa', region: 'Addis Ababa' },
      items: [{ name: order.orderItems[0].name, quantity: 1 }],
    });
    const text = JSON.stringify(ok.body);
    for (const secret of ['Bole Road', PHONE, '0911234567', 'Hana', order._id])
      expect(text).not.toContain(secret);

    const wrongPhone = await lookup(order.orderNumber, '0911000000', client).expect(404);
    const wrongNumber = await lookup('AN-99999999', '0911234567', client).expect(404);
    const garbage = await lookup('nothing', 'nothing', client).expect(404);
    for (const res of [wrongPhone, wrongNumber, garbage])
      expect(res.body).toMatchObject({ code: 'ORDER_NOT_FOUND', message: 'Order not found' });
    expect(wrongPhone.body).toEqual(wrongNumber.body);
    await request(t.http).get('/api/orders/lookup').query({ number: order.orderNumber }).expect(400);
  });

  it('refuses lookups with 429 after 5 failures a minute from one client, and for one order number', async () => {
    const { order } = await guestOrder();
    const client = newClient();
    // successes do not count
    for (let i = 0; i < 6; i++) await lookup(order.orderNumber, PHONE, client).expect(200);
    for (let i = 0; i < 5; i++) await lookup(`AN-9${i}000000`, PHONE, client).expect(404);
    const blocked = await lookup(order.orderNumber, PHONE, client).expect(429);
    expect(blocked.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // another client still gets its answer
    await lookup(order.orderNumber, PHONE, newClient()).expect(200);

    // one order number guessed at from many clients
    const target = (await guestOrder()).order;
    // however the number is written, it is one counter
    const spellings = [target.orderNumber, target.orderNumber.toLowerCase(), target.orderNumber.slice(3)];
    for (let i = 0; i < 5; i++) await lookup(spellings[i % 3], `091100000${i}`, newClient()).expect(404);
    const perOrder = await lookup(target.orderNumber, PHONE, newClient()).expect(429);
    expect(perOrder.body.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('sells the last unit to exactly one of 20 guests checking out at the same moment', async () => {
    const product = await makeProduct('Last Guest Jar', 250, 20);
    const carts = [];
    for (let i = 0; i < 20; i++) carts.push(await guestCart(product));
    await products.updateOne({ _id: product }, { $set: { stock: 1 } });
    const answers = await Promise.all(carts.map((cartId) => placeAsGuest(cartId)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 201)) {
      expect(r.status).toBe(409);
      expect(['OUT_OF_STOCK', 'INSUFFICIENT_STOCK', 'SHOP_BUSY']).toContain(r.body.code);
    }
    expect(await stockOf(product)).toBe(0);
    expect(await orders.countDocuments({ 'orderItems.product': product })).toBe(1);
    // the losers' carts still hold their line (their transactions were undone)
    const losers = carts.filter((_, i) => answers[i].status !== 201);
    const kept = await guestCarts.find({ guestId: { $in: losers } }).lean();
    expect(kept.map((c) => c.items.length)).toEqual(losers.map(() => 1));
  });
});
