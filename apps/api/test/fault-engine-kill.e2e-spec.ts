import { getModelToken } from '@nestjs/mongoose';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Model, Types } from 'mongoose';
import request from 'supertest';
import { DEV_ADMIN_SECRET_KEY } from '../src/config';
import { freePort, spawnTs, stopProcess, type TsProcess } from './fault-support';
import { startTestApp, type TestApp } from './support/test-app';

interface StoredOrder {
  _id: Types.ObjectId;
  orderItems: Array<{ product: Types.ObjectId; quantity: number }>;
}
interface StoredProduct {
  stock: number;
}

const ADDRESS = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
const INITIAL_STOCK = 100000;
const CUSTOMERS = 12;

describe('fault: the embedded engine is killed (SIGKILL) during a burst of orders', () => {
  let dir: string;
  let port: number;
  let engine: TsProcess | undefined;
  let t: TestApp;

  const startEngine = async () => {
    engine = spawnTs('libs/embedded-mongo/src/cli.ts', ['--port', String(port), '--dbpath', dir]);
    await engine.waitFor(/embedded-mongo listening/);
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-kill-'));
    port = await freePort();
    await startEngine();
    t = await startTestApp({
      MONGODB_URI: `mongodb://127.0.0.1:${port}/?replicaSet=rs0&serverSelectionTimeoutMS=1500&heartbeatFrequencyMS=500`,
    });
  }, 60000);

  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await stopProcess(engine);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged order and never oversells after kill -9 and a restart', async () => {
    const http = t.http;
    const pw = 'Buna@2026x';
    const admin = await request(http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Fault Admin',
        email: 'fault.admin@example.et',
        password: pw,
        adminSecretKey: t.config.adminSecretKey ?? DEV_ADMIN_SECRET_KEY,
      })
      .expect(201);
    const created = await request(http)
      .post('/api/products')
      .set('Authorization', `Bearer ${admin.body.token}`)
      .send({ name: 'Durable Shea Butter', price: 120, stock: INITIAL_STOCK })
      .expect(201);
    const productId: string = created.body.product._id;
    const tokens: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const res = await request(http)
        .post('/api/auth/register')
        .send({ name: `Buyer ${i}`, email: `buyer${i}@example.et`, password: pw })
        .expect(201);
      tokens.push(res.body.token);
    }

    // Each customer fills the cart and checks out again and again until the database goes away.
    const acknowledged: Array<{ id: string; quantity: number }> = [];
    let killed = false;
    const shopper = async (token: string, n: number) => {
      for (let round = 0; round < 500 && !killed; round++) {
        const quantity = 1 + ((n + round) % 3);
        const add = await request(http)
          .post('/api/cart/add')
          .set('Authorization', `Bearer ${token}`)
          .send({ productId, quantity });
        if (add.status !== 200) return;
        const res = await request(http)
          .post('/api/orders')
          .set('Authorization', `Bearer ${token}`)
          .set('Idempotency-Key', `buyer-${n}-round-${round}`)
          .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' });
        if (res.status === 201)
          acknowledged.push({ id: res.body.order._id, quantity: res.body.order.orderItems[0].quantity });
        else return;
      }
    };
    const shoppers = tokens.map((token, n) => shopper(token, n));
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 10));
    engine!.child.kill('SIGKILL');
    killed = true;
    await engine!.exited;
    await Promise.all(shoppers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);

    // While the engine is down the API says so; then the engine restarts on the same data folder.
    const down = await request(http).get('/api/products');
    expect(down.status).toBe(503);
    await startEngine();
    for (let i = 0; i < 200; i++) {
      if ((await request(http).get('/api/health')).status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await request(http).get('/api/health').expect(200);

    const orders = t.app.get<Model<StoredOrder>>(getModelToken('Order'));
    const products = t.app.get<Model<StoredProduct>>(getModelToken('Product'));
    const stored = await orders.find({}).lean();
    const storedIds = new Set(stored.map((o) => String(o._id)));
    const lost = acknowledged.filter((a) => !storedIds.has(a.id));
    expect(lost).toEqual([]);
    for (const a of acknowledged) {
      const order = stored.find((o) => String(o._id) === a.id)!;
      expect(order.orderItems.map((i) => i.quantity)).toEqual([a.quantity]);
    }
    // Reservation, order and cart change are one transaction, journalled as one record: every order
    // that exists (acknowledged, or committed just before the crash with its answer lost) holds its
    // stock, and no stock is held by an order that does not exist. Exactly, with no gap.
    const ordered = stored
      .flatMap((o) => o.orderItems)
      .filter((i) => String(i.product) === productId)
      .reduce((sum, i) => sum + i.quantity, 0);
    const remaining = (await products.findById(productId).lean())!.stock;
    expect(ordered).toBeGreaterThanOrEqual(acknowledged.reduce((sum, a) => sum + a.quantity, 0));
    expect(remaining).toBe(INITIAL_STOCK - ordered);
  }, 90000);
});
