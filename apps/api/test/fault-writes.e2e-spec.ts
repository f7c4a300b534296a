import { getConnectionToken } from '@nestjs/mongoose';
import { MongoNetworkError, MongoServerSelectionError } from 'mongodb';
import { Types, type Connection } from 'mongoose';
import request from 'supertest';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };

/**
 * The driver runs every command through this module's `executeOperation` (`Collection.insertOne`, the
 * bulk writes of `Collection.bulkWrite`, `findOneAndUpdate`, ...). A fault injected there goes through
 * every layer the driver and Mongoose put on top of it (a bulkWrite wraps it in a MongoBulkWriteError),
 * as a real dropped connection does.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver's internal module, patched in place
const driverExecution = require('mongodb/lib/operations/execute_operation') as {
  executeOperation: (client: unknown, operation: DriverOperation, ...rest: unknown[]) => Promise<unknown>;
};
interface DriverOperation {
  commandName?: string;
  ns?: { collection?: string };
  collection?: { collectionName?: string };
}
const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify']);
const targetOf = (operation: DriverOperation) =>
  operation.commandName === 'findAndModify' ? operation.collection?.collectionName : operation.ns?.collection;

const UNAVAILABLE = {
  success: false,
  statusCode: 503,
  message: 'Service temporarily unavailable',
  code: 'DATABASE_UNAVAILABLE',
  params: {},
};

/** The two ways the driver says the database is gone: the connection dropped, or no server to pick. */
const faults = {
  'a dropped connection': () => new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed'),
  'no server to select': () =>
    new MongoServerSelectionError('Server selection timed out after 1500 ms', {
      type: 'ReplicaSetNoPrimary',
      servers: new Map(),
    } as unknown as ConstructorParameters<typeof MongoServerSelectionError>[1]),
};

describe('fault: the connection drops inside a module write', () => {
  let t: TestApp;
  let db: Connection;
  let adminToken: string;
  let productId: string;
  const newCustomer = customerFactory(() => t, 'faultwrite', 'Fault Customer');
  const spies: jest.SpyInstance[] = [];

  /**
   * Makes every driver write to `collections` fail as the driver fails when the database goes away
   * (the reads still work, so the request gets as far as its writes); other collections write as usual.
   */
  const failWritesTo = (collections: string[], fault: () => Error) => {
    const original = driverExecution.executeOperation;
    spies.push(
      jest.spyOn(driverExecution, 'executeOperation').mockImplementation((client, operation, ...rest) => {
        if (
          WRITE_COMMANDS.has(operation.commandName ?? '') &&
          collections.includes(targetOf(operation) ?? '')
        )
          return Promise.reject(fault());
        return original(client, operation, ...rest);
      }),
    );
  };
  const count = (collection: string, filter: object = {}) => db.collection(collection).countDocuments(filter);

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    db = t.app.get(getConnectionToken());
    adminToken = await loginAs(t, DEMO_ACCOUNTS.admin);
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(adminToken))
      .send({ name: 'Fault Test Serum', price: 500, stock: 10, category: 'skincare' })
      .expect(201);
    productId = res.body.product._id;
  });

  afterEach(() => {
    while (spies.length) spies.pop()!.mockRestore();
  });

  afterAll(async () => {
    await t.close();
  });

  describe.each(Object.entries(faults))('%s', (_name, fault) => {
    it('placing an order: the outbox write fails, the order answers 503 and nothing of it is kept', async () => {
      const customer = await newCustomer();
      await request(t.http)
        .post('/api/cart/add')
        .set(auth(customer.token))
        .send({ productId, quantity: 2 })
        .expect(200);
      const stock = (await db.collection('products').findOne({ _id: new Types.ObjectId(productId) }))!.stock;
      const [orders, messages] = [await count('orders'), await count('notifications')];

      failWritesTo(['notifications'], fault);
      const res = await request(t.http)
        .post('/api/orders')
        .set(auth(customer.token))
        .send({ shippingAddress: address, paymentMethod: 'chapa' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      // the transaction took the cart's lines, reserved the stock and wrote the order before the outbox: all undone
      expect(await count('orders')).toBe(orders);
      expect(await count('notifications')).toBe(messages);
      expect((await db.collection('products').findOne({ _id: new Types.ObjectId(productId) }))!.stock).toBe(
        stock,
      );
      const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
      expect(JSON.stringify(cart.body)).toContain(productId);

      // the database back, the same order goes through
      while (spies.length) spies.pop()!.mockRestore();
      await request(t.http)
        .post('/api/orders')
        .set(auth(customer.token))
        .send({ shippingAddress: address, paymentMethod: 'chapa' })
        .expect(201);
      expect(await count('orders')).toBe(orders + 1);
    });

    it('placing an order: the order write itself fails with 503, and a retry with the same key places it once', async () => {
      const customer = await newCustomer();
      await request(t.http).post('/api/cart/add').set(auth(customer.token)).send({ productId }).expect(200);
      const orders = await count('orders');
      const key = `fault-${Math.random()}`;
      const place = () =>
        request(t.http)
          .post('/api/orders')
          .set(auth(customer.token))
          .set('Idempotency-Key', key)
          .send({ shippingAddress: address, paymentMethod: 'chapa' });
      failWritesTo(['orders'], fault);
      const res = await place();
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(await count('orders')).toBe(orders);

      while (spies.length) spies.pop()!.mockRestore();
      const retried = await place();
      expect(retried.status).toBe(201);
      expect(retried.body.order._id).toEqual(expect.any(String));
      expect((await place()).body.order._id).toBe(retried.body.order._id);
      expect(await count('orders')).toBe(orders + 1);
    });

    it('adding to the cart answers 503 and leaves the cart as it was', async () => {
      const customer = await newCustomer();
      failWritesTo(['carts', 'guestcarts'], fault);
      const res = await request(t.http)
        .post('/api/cart/add')
        .set(auth(customer.token))
        .send({ productId, quantity: 1 });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      const guest = await request(t.http).post('/api/cart/add').send({ productId, quantity: 1 });
      expect(guest.status).toBe(503);
      expect(guest.body).toEqual(UNAVAILABLE);
      while (spies.length) spies.pop()!.mockRestore();
      const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
      expect(JSON.stringify(cart.body)).not.toContain(productId);
    });

    it('a contact message answers 503 when its outbox write fails, and neither the message nor its mail is kept', async () => {
      const subject = `Fault ${Math.random()}`;
      const messages = await count('notifications');
      failWritesTo(['notifications'], fault);
      const res = await request(t.http)
        .post('/api/contacts/submit')
        .set('X-Forwarded-For', `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`)
        .send({ name: 'Selam Tadesse', email: 'selam@example.et', subject, message: 'Please call me back.' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(await count('contacts', { subject })).toBe(0);
      expect(await count('notifications')).toBe(messages);
    });

    it('a contact message answers 503 when its own write fails', async () => {
      const subject = `Fault ${Math.random()}`;
      failWritesTo(['contacts'], fault);
      const res = await request(t.http)
        .post('/api/contacts/submit')
        .set('X-Forwarded-For', `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`)
        .send({ name: 'Selam Tadesse', email: 'selam@example.et', subject, message: 'Please call me back.' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(await count('contacts', { subject })).toBe(0);
    });

    it('a review answers 503 and neither the review nor the rating moves', async () => {
      const customer = await newCustomer();
      const before = (await request(t.http).get(`/api/products/${productId}`).expect(200)).body;
      const reviews = await count('reviews');
      failWritesTo(['reviews'], fault);
      const res = await request(t.http)
        .post(`/api/reviews/product/${productId}`)
        .set(auth(customer.token))
        .send({ rating: 2, comment: 'Did not suit me' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(await count('reviews')).toBe(reviews);
      const after = (await request(t.http).get(`/api/products/${productId}`).expect(200)).body;
      expect({ rating: after.rating, reviewCount: after.reviewCount }).toEqual({
        rating: before.rating,
        reviewCount: before.reviewCount,
      });
    });

    it('registering answers 503 and no account exists', async () => {
      const email = `fault-register-${Math.floor(Math.random() * 1e9)}@example.et`;
      failWritesTo(['users'], fault);
      const res = await request(t.http)
        .post('/api/auth/register')
        .send({ name: 'Hana Girma', email, password: 'Buna@2026x', confirmPassword: 'Buna@2026x' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(await count('users', { email })).toBe(0);
    });

    it('adding to the wishlist answers 503', async () => {
      const customer = await newCustomer();
      failWritesTo(['wishlists'], fault);
      const res = await request(t.http)
        .post(`/api/wishlist/add/${productId}`)
        .set(auth(customer.token))
        .send({});
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
    });
  });
});
