import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import request from 'supertest';
import { modelDocument } from '../src/common/model-document';
import { OrderIdempotency, type OrderView } from '../src/modules/orders/orders.module';
import { OrderRequest } from '../src/modules/orders/schemas/order-request.schema';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An Idempotency-Key's claim whose holder died (its process killed mid-order) is taken over once its
 * short lease runs out: the retry places the order within seconds, and still once per key.
 */
describe('fault: the holder of an Idempotency-Key claim dies', () => {
  let t: TestApp;
  let requests: Model<OrderRequest>;
  let orders: Model<Order>;
  let productId: string;
  const newCustomer = customerFactory(() => t, 'faultclaim', 'Claim Customer');

  /** The claim a request of this customer left when its process died, written as the service writes it. */
  const deadClaim = async (
    user: string,
    idempotencyKey: string,
    fields: { createdAt?: Date; heldUntil?: Date },
  ) => {
    const claim = modelDocument<OrderRequest>(requests, {
      user: new Types.ObjectId(user),
      idempotencyKey,
      ...fields,
    });
    await requests.collection.insertOne(claim);
  };
  const customerWithCart = async () => {
    const customer = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId, quantity: 1 })
      .expect(200);
    return customer;
  };
  const place = (token: string, key: string) =>
    request(t.http)
      .post('/api/orders')
      .set(auth(token))
      .set('Idempotency-Key', key)
      .send({ shippingAddress: address, paymentMethod: 'chapa' });
  const ordersOf = (user: string) => orders.countDocuments({ user: new Types.ObjectId(user) });

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    requests = t.app.get(getModelToken(OrderRequest.name));
    orders = t.app.get(getModelToken(Order.name));
    const admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ name: 'Claim Test Butter', price: 300, stock: 50, category: 'skincare' })
      .expect(201);
    productId = res.body.product._id;
  });

  afterAll(async () => {
    await t.close();
  });

  it('takes over a claim whose lease ran out at once: 201, one order', async () => {
    const customer = await customerWithCart();
    const now = Date.now();
    await deadClaim(customer.id, 'dead-1', {
      createdAt: new Date(now - 8000),
      heldUntil: new Date(now - 3000),
    });
    const started = Date.now();
    const res = await place(customer.token, 'dead-1');
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await ordersOf(customer.id)).toBe(1);
    const again = await place(customer.token, 'dead-1').expect(200);
    expect(again.body.order._id).toBe(res.body.order._id);
    expect(await ordersOf(customer.id)).toBe(1);
  });

  it('a retry just after the holder died waits out the lease, seconds not a minute, and places the order once', async () => {
    const customer = await customerWithCart();
    const now = Date.now();
    await deadClaim(customer.id, 'dead-2', { createdAt: new Date(now), heldUntil: new Date(now + 2000) });
    const started = Date.now();
    const res = await place(customer.token, 'dead-2');
    expect(res.status).toBe(201);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1500);
    expect(waited).toBeLessThan(6000);
    expect(await ordersOf(customer.id)).toBe(1);
  });

  it('takes over a claim written before leases (no heldUntil) once it is older than the lease', async () => {
    const customer = await customerWithCart();
    await deadClaim(customer.id, 'dead-3', { createdAt: new Date(Date.now() - 10_000) });
    const res = await place(customer.token, 'dead-3');
    expect(res.status).toBe(201);
    expect(await ordersOf(customer.id)).toBe(1);
  });

  it('renews the lease of a holder that is still working, so a concurrent retry waits for it rather than taking over', async () => {
    const idempotency = t.app.get(OrderIdempotency);
    const user = new Types.ObjectId().toHexString();
    const input = { shippingAddress: address, paymentMethod: 'chapa' } as never;
    const view = { _id: 'first' } as unknown as OrderView;
    let firstDone = 0;
    let secondCalled = 0;
    // the first request takes longer than a whole lease to place its order
    const first = idempotency.once(user, 'slow-1', input, async () => {
      await sleep(7000);
      firstDone = Date.now();
      return view;
    });
    await sleep(300);
    const second = idempotency.once(user, 'slow-1', input, async () => {
      secondCalled = Date.now();
      return { _id: 'second' } as unknown as OrderView;
    });
    await sleep(6000);
    const claim = await requests.findOne({ user: new Types.ObjectId(user), idempotencyKey: 'slow-1' }).lean();
    expect(claim!.heldUntil!.getTime()).toBeGreaterThan(Date.now());
    expect(secondCalled).toBe(0);
    expect((await first).order).toBe(view);
    // (no real order holds the key here: once the finished holder's lease runs out, the waiter takes the key)
    expect((await second).order).toEqual({ _id: 'second' });
    expect(secondCalled).toBeGreaterThanOrEqual(firstDone);
  }, 30000);
});
