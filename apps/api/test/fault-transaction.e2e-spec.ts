import { getConnectionToken } from '@nestjs/mongoose';
import { MongoNetworkError } from 'mongodb';
import { Types, type Connection } from 'mongoose';
import request from 'supertest';
import { TRANSACTION_RETRY } from '../src/common/mongo';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };

/**
 * The driver's connection, where every command goes over the wire. A failure thrown here goes back
 * through the driver's server layer, which labels a network error inside a transaction
 * TransientTransactionError (as a dropped connection is labelled), clears the pool and marks the
 * server unknown: what `withTransaction` would retry for 120 s.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver's internal class, patched in place
const { Connection: WireConnection } = require('mongodb/lib/cmap/connection') as {
  Connection: { prototype: { command: (...args: unknown[]) => Promise<unknown> } };
};
interface WireSession {
  inTransaction(): boolean;
  id?: { id: { toString(encoding: string): string } };
  serverSession?: { txnNumber: number };
}
/** The transaction a command is part of (its statements, commit and abort), if any. */
const transactionOf = (options: unknown): string | undefined => {
  const session = (options as { session?: WireSession } | undefined)?.session;
  if (!session?.inTransaction()) return undefined;
  return `${session.id?.id.toString('hex')}:${session.serverSession?.txnNumber}`;
};

describe('fault: the connection to the database fails inside an order transaction', () => {
  let t: TestApp;
  let db: Connection;
  let productId: string;
  let spy: jest.SpyInstance | undefined;
  const newCustomer = customerFactory(() => t, 'faulttxn', 'Transaction Customer');
  /** The transactions that met the fault. */
  const failed = new Set<string>();

  /** Every transactional command fails with a network error (`times` of them, or all while on). */
  const failTransactions = (times = Infinity) => {
    let left = times;
    const original = WireConnection.prototype.command;
    spy = jest.spyOn(WireConnection.prototype, 'command').mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      const transaction = transactionOf(args[2]);
      if (transaction && left > 0) {
        failed.add(transaction);
        left -= 1;
        return Promise.reject(new MongoNetworkError('connection 7 to 127.0.0.1:27017 closed'));
      }
      return original.apply(this, args);
    });
  };
  const stockOf = async () =>
    (await db.collection('products').findOne({ _id: new Types.ObjectId(productId) }))!.stock as number;
  const count = (collection: string) => db.collection(collection).countDocuments();

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    db = t.app.get(getConnectionToken());
    const admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({ name: 'Transaction Fault Oil', price: 300, stock: 50, category: 'skincare' })
      .expect(201);
    productId = res.body.product._id;
  });

  afterEach(() => {
    spy?.mockRestore();
    spy = undefined;
    failed.clear();
  });

  afterAll(async () => {
    await t.close();
  });

  it('a database that stays down: the order answers 503 DATABASE_UNAVAILABLE within seconds (a few tries, not 120 s), nothing written', async () => {
    const customer = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId, quantity: 2 })
      .expect(200);
    const [stock, orders, messages] = [await stockOf(), await count('orders'), await count('notifications')];
    const key = `txn-down-${Math.random()}`;
    const place = () =>
      request(t.http)
        .post('/api/orders')
        .set(auth(customer.token))
        .set('Idempotency-Key', key)
        .send({ shippingAddress: address, paymentMethod: 'chapa' });

    failTransactions();
    const startedAt = Date.now();
    const res = await place();
    const tookMs = Date.now() - startedAt;
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      success: false,
      statusCode: 503,
      message: 'Service temporarily unavailable',
      code: 'DATABASE_UNAVAILABLE',
      params: {},
    });
    // the retry rule's own bound, plus one last attempt and its abort
    expect(tookMs).toBeLessThan(TRANSACTION_RETRY.unavailableWindowMs + 3000);
    expect(failed.size).toBe(TRANSACTION_RETRY.unavailableAttempts);
    spy!.mockRestore();
    spy = undefined;

    expect(await stockOf()).toBe(stock);
    expect(await count('orders')).toBe(orders);
    expect(await count('notifications')).toBe(messages);
    const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
    expect(JSON.stringify(cart.body)).toContain(productId);

    // the database back, the client's retry with the same key places the order, once
    const retried = await place();
    expect(retried.status).toBe(201);
    expect((await place()).body.order._id).toBe(retried.body.order._id);
    expect(await count('orders')).toBe(orders + 1);
    expect(await stockOf()).toBe(stock - 2);
  });

  it('a connection that fails once: the transaction is tried again at once and the order is placed, once', async () => {
    const customer = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId, quantity: 1 })
      .expect(200);
    const [stock, orders] = [await stockOf(), await count('orders')];

    failTransactions(1);
    const res = await request(t.http)
      .post('/api/orders')
      .set(auth(customer.token))
      .set('Idempotency-Key', `txn-once-${Math.random()}`)
      .send({ shippingAddress: address, paymentMethod: 'chapa' });
    expect(res.status).toBe(201);
    expect(failed.size).toBe(1); // the failed attempt; the next one went through
    expect(await count('orders')).toBe(orders + 1);
    expect(await stockOf()).toBe(stock - 1);
  });
});
