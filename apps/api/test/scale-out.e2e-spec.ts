import type { NestExpressApplication } from '@nestjs/platform-express';
import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import request from 'supertest';
import { startRoundRobinProxy } from '../src/cluster/round-robin-proxy';
import { Leases } from '../src/common/lease';
import { RateCounters } from '../src/common/rate-limit';
import { REVERIFY_LEASE } from '../src/modules/payments/payments.module';
import { PaymentReverification } from '../src/modules/payments/payment-reverification.service';
import { auth } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const PNG = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: '#2e7d32' } })
    .png()
    .toBuffer();
const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa' };
const HOT_CACHE_TTL_MS = 1000;

/**
 * Two API instances over one database, as `npm run start:cluster` and a load-balanced deployment
 * run them: each is a whole Nest app listening on its own 127.0.0.1 port, the database a separate
 * embedded engine. Nothing is shared between them but the database.
 */
describe('scale-out: two API instances over one database', () => {
  let engine: EmbeddedMongo;
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  let admin: string;
  const reverifyRuns = { a: 0, b: 0 };
  const closedApps: TestApp[] = [];

  const listen = async (t: TestApp) => {
    await (t.app as NestExpressApplication).listen(0, '127.0.0.1');
    return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    // instance a reaches the engine over TCP, instance b over its Unix socket (as `npm run start:cluster`)
    engine = await startEmbeddedMongo({
      port: 0,
      inMemory: true,
      socketPath: path.join(tmpdir(), `scale-out-${randomBytes(4).toString('hex')}.sock`),
    });
    const env = {
      MONGODB_URI: engine.uri,
      MONGODB_DB: `scale_${randomBytes(4).toString('hex')}`,
      AUTH_RATE_LIMIT: '3',
      HOT_CACHE_TTL_MS: String(HOT_CACHE_TTL_MS),
      PUBLIC_API_URL: 'http://shop-api.test',
    };
    // the re-verification job reads its interval from the environment when the app boots
    process.env.PAYMENT_REVERIFY_INTERVAL_MS = '150';
    try {
      a = await startTestApp(env);
      b = await startTestApp({ ...env, MONGODB_URI: engine.socketUri! });
    } finally {
      delete process.env.PAYMENT_REVERIFY_INTERVAL_MS;
    }
    for (const [t, key] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      jest.spyOn(t.app.get(PaymentReverification), 'reverifyPending').mockImplementation(async () => {
        reverifyRuns[key] += 1;
        return { checked: 0, paid: 0, failed: 0, pending: 0, errors: 0 };
      });
    }
    urlA = await listen(a);
    urlB = await listen(b);
    admin = (
      await request(urlA)
        .post('/api/auth/register-admin')
        .send({
          name: 'Selam Admin',
          email: 'scale.admin@example.et',
          password: 'Buna@2026x',
          adminSecretKey: a.config.adminSecretKey,
        })
        .expect(201)
    ).body.token;
  });

  afterAll(async () => {
    // app.close(), not TestApp.close(): the database is the engine's, stopped below
    const closed = new Set(closedApps);
    for (const t of [a, b]) if (t && !closed.has(t)) await t.app.close();
    await engine?.stop();
  });

  it('serves an image uploaded through one instance from the other, with its type and caching', async () => {
    const upload = await request(urlA)
      .post('/api/uploads')
      .set(auth(admin))
      .attach('images', await PNG(), 'serum.png')
      .expect(201);
    const url = upload.body.urls[0] as string;
    // the photo's largest WebP copy, named by its content (docs/decisions/0093-photo-variants.md)
    expect(url).toMatch(/^http:\/\/shop-api\.test\/api\/uploads\/[0-9a-f]{24}-400x300-[0-9a-f]{6}\.webp$/);
    const fromA = await request(urlA).get(new URL(url).pathname).buffer(true).expect(200);
    const served = await request(urlB).get(new URL(url).pathname).buffer(true).expect(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(served.body as Buffer, fromA.body as Buffer)).toBe(0);
  });

  it('holds the sign-in limit across both instances', async () => {
    const attempt = (url: string) =>
      request(url).post('/api/auth/login').send({ email: 'guess@example.et', password: 'Wrong@12345' });
    // three attempts spread over both instances use up the limit of 3 ...
    expect((await attempt(urlA)).status).toBe(401);
    expect((await attempt(urlB)).status).toBe(401);
    expect((await attempt(urlA)).status).toBe(401);
    // ... so the fourth is refused by either of them
    const limited = await attempt(urlB).expect(429);
    expect(limited.body).toEqual({
      success: false,
      statusCode: 429,
      message: 'Too many attempts, please try again in a minute',
      code: 'TOO_MANY_REQUESTS',
      params: {},
    });
    expect(Number(limited.headers['retry-after-auth'])).toBeGreaterThan(0);
    await attempt(urlA).expect(429);
  });

  it('counts the contact form limit across both instances', async () => {
    const send = (url: string, i: number) =>
      request(url)
        .post('/api/contacts/submit')
        .set('X-Forwarded-For', '192.0.2.77')
        .send({ name: 'Almaz', email: 'almaz@example.et', subject: `Hello ${i}`, message: 'A question.' });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(i % 2 ? urlB : urlA, i)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]); // CONTACT_RATE_LIMIT defaults to 5 an hour
  });

  it('makes one order when the same Idempotency-Key reaches both instances at once', async () => {
    const product = await request(urlA)
      .post('/api/products')
      .set(auth(admin))
      .send({ name: 'Twin Request Oil', price: 80, stock: 5, images: ['/api/assets/products/x.svg'] })
      .expect(201);
    const id = product.body.product._id as string;
    const customer = (
      await request(urlB)
        .post('/api/auth/register')
        .send({ name: 'Twin Buyer', email: 'twin@example.et', password: 'Buna@2026x' })
        .expect(201)
    ).body.token as string;
    await request(urlA)
      .post('/api/cart/add')
      .set(auth(customer))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    const place = (url: string) =>
      request(url)
        .post('/api/orders')
        .set(auth(customer))
        .set('Idempotency-Key', 'twin-instances-1')
        .send({ shippingAddress: address, paymentMethod: 'chapa' });
    const answers = await Promise.all([place(urlA), place(urlB), place(urlA), place(urlB)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.body.order._id)).size).toBe(1);
    const mine = await request(urlB).get('/api/orders/my-orders').set(auth(customer)).expect(200);
    expect(mine.body.orders).toHaveLength(1);
    const after = await request(urlB).get(`/api/products/${id}`).expect(200);
    expect(after.body.stock).toBe(3); // taken once
  });

  it('shows a product edit made through one instance on the other within the hot cache TTL', async () => {
    const created = await request(urlA)
      .post('/api/products')
      .set(auth(admin))
      .send({ name: 'Coherent Soap', price: 50, stock: 9, images: ['/api/assets/products/x.svg'] })
      .expect(201);
    const id = created.body.product._id as string;
    const priceOn = async (url: string) =>
      (await request(url).get(`/api/products/${id}`).expect(200)).body.price;
    // b has the old answer in its hot cache (asked twice: the second is answered from the cache)
    expect(await priceOn(urlB)).toBe(50);
    expect(await priceOn(urlB)).toBe(50);
    const editedAt = Date.now();
    await request(urlA)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({ name: 'Coherent Soap', price: 65, stock: 9 })
      .expect(200);
    expect(await priceOn(urlA)).toBe(65); // the writing instance forgets its cache at once
    // b cached its answer before the edit, so once the TTL has passed since the edit, b answers the new price
    await new Promise((r) => setTimeout(r, Math.max(0, editedAt + HOT_CACHE_TTL_MS - Date.now())));
    expect(await priceOn(urlB)).toBe(65);
  });

  it('runs the payment re-verification on one instance at a time, and hands it over on shutdown', async () => {
    const leases = b.app.get(Leases);
    // wait for a few ticks of both instances' timers (every 150 ms)
    await new Promise((r) => setTimeout(r, 900));
    const holder = await leases.holderOf(REVERIFY_LEASE);
    expect([a.app.get(Leases).holder, b.app.get(Leases).holder]).toContain(holder);
    const [holding, idle] =
      holder === a.app.get(Leases).holder ? (['a', 'b'] as const) : (['b', 'a'] as const);
    expect(reverifyRuns[holding]).toBeGreaterThanOrEqual(2);
    expect(reverifyRuns[idle]).toBe(0);
    // the holder stops: it releases the lease, and the other takes the job over at its next tick
    const apps = { a, b };
    await apps[holding].app.close();
    closedApps.push(apps[holding]);
    const runsBefore = reverifyRuns[idle];
    await new Promise((r) => setTimeout(r, 600));
    expect(await apps[idle].app.get(Leases).holderOf(REVERIFY_LEASE)).toBe(apps[idle].app.get(Leases).holder);
    expect(reverifyRuns[idle]).toBeGreaterThan(runsBefore);
  });
});

describe('scale-out building blocks', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('RateCounters: one window per key from its first hit, concurrent hits each counted once', async () => {
    const counters = t.app.get(RateCounters);
    const hits = await Promise.all(Array.from({ length: 20 }, () => counters.hit('test:burst', 60_000)));
    expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(Math.min(...hits.map((h) => h.resetInMs))).toBeGreaterThan(55_000);
    expect((await counters.hit('test:other', 60_000)).count).toBe(1);
    // a window that is over starts again at 1
    const short = await counters.hit('test:short', 100);
    expect(short.count).toBe(1);
    expect((await counters.hit('test:short', 100)).count).toBe(2);
    await new Promise((r) => setTimeout(r, 150));
    expect((await counters.hit('test:short', 100)).count).toBe(1);
    // closed windows are swept
    expect(await counters.sweep(Date.now() + 10 * 60_000)).toBeGreaterThanOrEqual(3);
    expect((await counters.hit('test:burst', 60_000)).count).toBe(1);
  });

  it('Leases: one holder at a time, renewed by its holder, taken over when expired or released', async () => {
    const mine = t.app.get(Leases);
    const model = (mine as unknown as { leases: ConstructorParameters<typeof Leases>[0] }).leases;
    const theirs = new Leases(model); // another instance: a different holder id over the same collection
    expect(theirs.holder).not.toBe(mine.holder);
    expect(await mine.acquire('job', 200)).toBe(true);
    expect(await theirs.acquire('job', 200)).toBe(false);
    expect(await mine.acquire('job', 200)).toBe(true); // renewal
    expect(await mine.holderOf('job')).toBe(mine.holder);
    await new Promise((r) => setTimeout(r, 250));
    expect(await mine.holderOf('job')).toBeUndefined();
    expect(await theirs.acquire('job', 10_000)).toBe(true); // expired: taken over
    expect(await mine.acquire('job', 10_000)).toBe(false);
    await mine.release('job'); // not the holder: changes nothing
    expect(await theirs.holderOf('job')).toBe(theirs.holder);
    await theirs.release('job');
    expect(await mine.acquire('job', 10_000)).toBe(true);
  });
});

describe('round-robin proxy (npm run start:cluster)', () => {
  const servers: Server[] = [];
  const startUpstream = (name: string) =>
    new Promise<number>((resolve) => {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': name });
          res.end(
            JSON.stringify({
              name,
              method: req.method,
              url: req.url,
              body: Buffer.concat(chunks).toString(),
              forwardedFor: req.headers['x-forwarded-for'],
              cookie: req.headers.cookie,
            }),
          );
        });
      });
      servers.push(server);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('alternates between instances, forwards method, path, body and headers, and routes around one that is down', async () => {
    const one = await startUpstream('one');
    const two = await startUpstream('two');
    const down = (await startUpstream('gone')) as number;
    await new Promise((r) => servers.pop()!.close(r)); // nothing listens on `down` any more
    const proxy = await startRoundRobinProxy({
      upstreams: [one, two, down].map((port) => ({ host: '127.0.0.1', port })),
      port: 0,
      host: '127.0.0.1',
    });
    try {
      const base = `http://127.0.0.1:${proxy.port}`;
      const names: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await request(base).get(`/api/products?page=${i}`).set('Cookie', 'token=abc');
        expect(res.status).toBe(201); // the one that refused: sent on to the next (never a 502)
        expect(res.body).toMatchObject({ url: `/api/products?page=${i}`, cookie: 'token=abc' });
        expect(res.body.forwardedFor).toBe('127.0.0.1');
        names.push(res.body.name);
      }
      expect(names).toEqual(['one', 'two', 'one', 'two']);
      // the instance that refused is out of the rotation until its health check passes: the others alternate
      const next = [];
      for (let i = 0; i < 4; i++) next.push((await request(base).get('/x')).body.name);
      expect(next.filter((n) => n === 'one')).toHaveLength(2);
      expect(next.filter((n) => n === 'two')).toHaveLength(2);
      const posted = await request(base).post('/api/contacts').send({ hello: 'world' }).expect(201);
      expect(posted.body).toMatchObject({ method: 'POST', body: JSON.stringify({ hello: 'world' }) });
    } finally {
      await proxy.close();
    }
  });
});
