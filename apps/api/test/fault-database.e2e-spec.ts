import { getModelToken } from '@nestjs/mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import type { Model } from 'mongoose';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { freePort } from './fault-support';
import { startTestApp, type TestApp } from './support/test-app';

/** Polls until the API answers 200 again: recovery must happen without restarting the app. */
async function until200(t: TestApp, url: string, deadlineMs: number): Promise<request.Response> {
  const end = Date.now() + deadlineMs;
  let last: request.Response | undefined;
  while (Date.now() < end) {
    last = await request(t.http).get(url);
    if (last.status === 200) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not recover: last answer ${last?.status} ${JSON.stringify(last?.body)}`);
}

describe('fault: the database becomes unreachable during requests', () => {
  let dir: string;
  let port: number;
  let engine: EmbeddedMongo | undefined;
  let t: TestApp;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-db-'));
    port = await freePort();
    engine = await startEmbeddedMongo({ port, dbPath: dir });
    // A short server selection so that the test sees 503 quickly; production uses the 5 s default.
    t = await startTestApp({
      MONGODB_URI: `mongodb://127.0.0.1:${port}/?replicaSet=rs0&serverSelectionTimeoutMS=1500&heartbeatFrequencyMS=500`,
    });
    const products = t.app.get<Model<Product>>(getModelToken(Product.name));
    await products.create({
      name: 'Shea Butter Cream',
      sku: 'FAULT-1',
      brand: 'Abyssinia',
      category: 'skincare',
      description: 'Rich cream',
      priceSantim: 45000,
      stock: 12,
      images: [],
    });
  }, 30000);

  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await engine?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 in the error shape while the database is down, says so in /health, and recovers by itself', async () => {
    const before = await request(t.http).get('/api/products').expect(200);
    expect(before.body.totalProducts).toBe(1);
    await request(t.http).get('/api/health').expect(200);

    await engine!.stop();
    engine = undefined;

    // `/api/products` itself may still be replayed from the hot cache for HOT_CACHE_TTL_MS (that is
    // the cache's job); a listing nobody has asked for yet has to reach the database (a search that
    // matches nothing is answered by the search index alone, so a sort is asked for instead).
    const list = await request(t.http).get('/api/products?sort=newest&limit=7');
    expect(list.status).toBe(503);
    expect(list.body).toEqual({
      success: false,
      statusCode: 503,
      message: 'Service temporarily unavailable',
      code: 'DATABASE_UNAVAILABLE',
      params: {},
    });
    const detail = await request(t.http).get(`/api/products/${before.body.products[0]._id}`);
    expect(detail.status).toBe(503);
    expect(detail.body.success).toBe(false);
    const health = await request(t.http).get('/api/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ success: false, statusCode: 503 });
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'a@example.et', password: 'Buna@2026x' });
    expect(login.status).toBe(503);

    engine = await startEmbeddedMongo({ port, dbPath: dir });
    const after = await until200(t, '/api/products', 20000);
    expect(after.body.totalProducts).toBe(1);
    expect(after.body.products[0].name).toBe('Shea Butter Cream');
    const healthy = await until200(t, '/api/health', 10000);
    expect(healthy.body).toMatchObject({ status: 'ok', database: { ok: true } });
  }, 60000);
});
