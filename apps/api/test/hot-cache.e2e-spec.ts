import { getModelToken } from '@nestjs/mongoose';
import type { Express } from 'express';
import type { Model } from 'mongoose';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { AnswerStore } from '../src/cache/answer-store';
import { CacheVersion } from '../src/cache/shared-version';
import { Changes } from '../src/common/changes';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { auth, customerFactory } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
const ORIGIN = 'http://localhost:3000';

/** Raw bytes and headers of one GET over plain node:http (supertest would decode gzip by itself). */
async function rawGet(server: Server, path: string, headers: Record<string, string>, body?: string) {
  const listening = server.listening
    ? server
    : await new Promise<Server>((r) => server.listen(0, '127.0.0.1', () => r(server)));
  const { port } = listening.address() as AddressInfo;
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The gzip answer of a stored URL, once its gzip copy (made off the request path) is ready. */
async function gzipped(server: Server, path: string, encoding = 'gzip') {
  for (let tries = 0; ; tries++) {
    const answer = await rawGet(server, path, { 'Accept-Encoding': encoding });
    if (answer.headers['content-encoding'] === 'gzip' || tries >= 250) return answer;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Headers of an answer without those that belong to one connection or moment. */
/**
 * The headers two answers must share. Every answer carries its own X-Request-Id (docs/decisions
 * 0072): a replayed answer must never repeat the id of the request it was captured from.
 */
function comparable(headers: IncomingHttpHeaders) {
  const {
    date: _date,
    connection: _connection,
    'keep-alive': _keepAlive,
    'x-request-id': requestId,
    ...rest
  } = headers;
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  return rest;
}

describe('hot cache of anonymous public reads', () => {
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;
  let cache: AnswerStore;
  let changes: Changes;
  /** What a domain write says when it changed a product: the caches forget. */
  const bump = () => changes.publish({ kind: 'product' });
  const newCustomer = customerFactory(() => t, 'hot', 'Hot Customer');

  const makeProduct = async (name: string, stock = 10) =>
    (
      await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name, price: 300, stock, category: 'skincare', images: ['/api/assets/products/x.svg'] })
        .expect(201)
    ).body.product._id as string;

  /** Two anonymous reads: the second must come from the cache (same strong ETag, one entry at least). */
  const warm = async (url: string) => {
    const first = await request(t.http).get(url).set('Accept-Encoding', 'identity').expect(200);
    const second = await request(t.http).get(url).set('Accept-Encoding', 'identity').expect(200);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(cache.size).toBeGreaterThan(0);
    return second;
  };

  beforeAll(async () => {
    t = await startTestApp({ HOT_CACHE_TTL_MS: '60000', CORS_ORIGINS: ORIGIN });
    const a = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Hot Admin',
        email: 'hot-admin@shop.et',
        password: 'Admin@12345',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = a.body.token;
    products = t.app.get<Model<Product>>(getModelToken(Product.name));
    cache = t.app.get(AnswerStore);
    changes = t.app.get(Changes);
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers a strong ETag, then 304 without a body on a matching If-None-Match', async () => {
    const id = await makeProduct('Etag Serum');
    const first = await request(t.http).get(`/api/products/${id}`).expect(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.vary).toMatch(/Accept-Encoding/);
    expect(first.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    const hit = await request(t.http).get(`/api/products/${id}`).expect(200);
    expect(hit.body).toEqual(first.body);
    expect(hit.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(hit.headers['content-type']).toMatch(/^application\/json/);
    const notModified = await request(t.http)
      .get(`/api/products/${id}`)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    expect(notModified.text ?? '').toBe('');
    await request(t.http).get(`/api/products/${id}`).set('If-None-Match', '"something-else"').expect(200);
  });

  it('serves a gzip body that decodes to the same JSON, with its own ETag', async () => {
    await warm('/api/products?limit=5');
    const server = t.http as Server;
    // the gzip copy is made on the first hit that accepts gzip, off the request path: that hit is plain
    const first = await rawGet(server, '/api/products?limit=5', { 'Accept-Encoding': 'gzip' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    const zipped = await gzipped(server, '/api/products?limit=5', 'gzip, br');
    const plain = await rawGet(server, '/api/products?limit=5', { 'Accept-Encoding': 'identity' });
    expect([plain.status, zipped.status]).toEqual([200, 200]);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    await new Promise<void>((r) => server.close(() => r()));
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    await request(t.http)
      .get('/api/products?limit=5')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', String(zipped.headers.etag))
      .expect(304);
  });

  it('keeps helmet and CORS headers on cache hits, per request Origin', async () => {
    await warm('/api/categories');
    const hit = await request(t.http)
      .get('/api/categories')
      .set('Origin', ORIGIN)
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(hit.headers['x-content-type-options']).toBe('nosniff');
    expect(hit.headers['content-security-policy']).toContain("default-src 'self'");
    expect(hit.headers['strict-transport-security']).toBeDefined();
    expect(hit.headers['x-powered-by']).toBeUndefined();
    expect(hit.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(hit.headers['access-control-allow-credentials']).toBe('true');
    const foreign = await request(t.http)
      .get('/api/categories')
      .set('Origin', 'https://evil.example')
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers.etag).toBe(hit.headers.etag);
  });

  it('shows a product edit on the next anonymous read', async () => {
    const id = await makeProduct('Before Edit Cream');
    const before = await warm(`/api/products/${id}`);
    const list = await warm('/api/products?search=Edit%20Cream');
    expect(before.body.name).toBe('Before Edit Cream');
    expect(list.body.products.map((p: { name: string }) => p.name)).toContain('Before Edit Cream');
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({ name: 'After Edit Cream', price: 450, stock: 10, category: 'skincare' })
      .expect(200);
    const after = await request(t.http).get(`/api/products/${id}`).expect(200);
    expect(after.body).toMatchObject({ name: 'After Edit Cream', price: 450 });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await request(t.http).get(`/api/products/${id}`).set('If-None-Match', before.headers.etag).expect(200);
    const relisted = await request(t.http).get('/api/products?search=Edit%20Cream').expect(200);
    expect(relisted.body.products.map((p: { name: string }) => p.name)).toContain('After Edit Cream');
  });

  it('counts a filter once for all its pages, and counts again after a write', async () => {
    await makeProduct('Counted Clay One');
    await makeProduct('Counted Clay Two');
    const total = async (page: number) =>
      (await request(t.http).get(`/api/products?search=counted%20clay&limit=1&page=${page}`).expect(200)).body
        .totalProducts as number;
    expect(await total(1)).toBe(2);
    // a product written behind the API's back (a script) is not counted by the other pages of the filter
    // until a write through the API (or the TTL) ...
    const behind = await makeProduct('Counted Clay Three');
    await products.updateOne({ _id: behind }, { $set: { active: false } });
    bump();
    expect(await total(1)).toBe(2);
    await products.updateOne({ _id: behind }, { $set: { active: true } });
    expect(await total(2)).toBe(2);
    // ... which counts again
    await makeProduct('Counted Clay Four');
    expect(await total(3)).toBe(4);
  });

  it('shows a new review (rating) on the next anonymous read', async () => {
    const id = await makeProduct('Reviewed Butter');
    const before = await warm(`/api/products/${id}`);
    expect(before.body.reviewCount).toBe(0);
    const reviewer = await newCustomer();
    await request(t.http)
      .post(`/api/reviews/product/${id}`)
      .set(auth(reviewer.token))
      .send({ rating: 4, comment: 'Soft and light, smells of shea.' })
      .expect(201);
    const after = await request(t.http).get(`/api/products/${id}`).expect(200);
    expect(after.body).toMatchObject({ reviewCount: 1, rating: 4 });
  });

  it('shows stock taken by an order, and given back by its cancellation, on the next read', async () => {
    const id = await makeProduct('Stocked Oil', 5);
    expect((await warm(`/api/products/${id}`)).body.stock).toBe(5);
    const buyer = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(buyer.token))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    const placed = await request(t.http)
      .post('/api/orders')
      .set(auth(buyer.token))
      .send({ shippingAddress: address, paymentMethod: 'chapa' })
      .expect(201);
    expect((await request(t.http).get(`/api/products/${id}`).expect(200)).body.stock).toBe(3);
    expect((await warm(`/api/products/${id}`)).body.stock).toBe(3);
    await request(t.http)
      .patch(`/api/orders/${placed.body.order._id}/cancel`)
      .set(auth(buyer.token))
      .expect(200);
    expect((await request(t.http).get(`/api/products/${id}`).expect(200)).body.stock).toBe(5);
  });

  it('shows a settings change on the next read of the public settings', async () => {
    const before = await warm('/api/settings/public');
    expect(before.body.settings.siteName).not.toBe('Hot Cache Beauty');
    await request(t.http)
      .put('/api/admin/settings')
      .set(auth(admin))
      .send({ siteName: 'Hot Cache Beauty' })
      .expect(200);
    const after = await request(t.http).get('/api/settings/public').expect(200);
    expect(after.body.settings.siteName).toBe('Hot Cache Beauty');
  });

  it('is bypassed by signed-in requests and guest carts (nothing personal is stored or replayed)', async () => {
    const customer = await newCustomer();
    bump();
    await request(t.http).get('/api/products?limit=3').set(auth(customer.token)).expect(200);
    await request(t.http).get('/api/products?limit=3').set('Cookie', `token=${customer.token}`).expect(200);
    await request(t.http).get('/api/products?limit=3').set('X-Guest-Cart', 'abc').expect(200);
    await request(t.http).get('/api/products?limit=3').set('Cookie', 'guestCartId=abc').expect(200);
    expect(cache.size).toBe(0);
    // a stored anonymous answer is not replayed to a signed-in client either: it goes through the pipeline
    const anonymous = await warm('/api/products?limit=3');
    const id = anonymous.body.products[0]._id as string;
    await products.updateOne({ _id: id }, { $set: { name: 'Changed Behind The Cache' } });
    const signedIn = await request(t.http).get('/api/products?limit=3').set(auth(customer.token)).expect(200);
    expect(signedIn.body.products[0].name).toBe('Changed Behind The Cache');
    const stale = await request(t.http).get('/api/products?limit=3').expect(200);
    expect(stale.body.products[0].name).not.toBe('Changed Behind The Cache');
  });

  it('keeps entries past the TTL until the shared version moves (another instance wrote), at most HOT_CACHE_MAX_AGE_MS', async () => {
    const short = await startTestApp({ HOT_CACHE_TTL_MS: '1000', HOT_CACHE_MAX_AGE_MS: '3000' });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      const a = await request(short.http)
        .post('/api/auth/register-admin')
        .send({
          name: 'Ttl Admin',
          email: 'ttl-admin@shop.et',
          password: 'Admin@12345',
          adminSecretKey: short.config.adminSecretKey,
        })
        .expect(201);
      const versions = short.app.get<Model<CacheVersion>>(getModelToken(CacheVersion.name));
      const version = async () => (await versions.findById('public').lean())?.v ?? 0;
      const before = await version();
      const id = (
        await request(short.http)
          .post('/api/products')
          .set(auth(a.body.token))
          .send({ name: 'Ttl Toner', price: 100, stock: 3, category: 'skincare' })
          .expect(201)
      ).body.product._id as string;
      // a write through this instance moves the shared version for the others
      for (let tries = 0; (await version()) === before && tries < 100; tries++) await sleep(20);
      expect(await version()).toBeGreaterThan(before);
      const stock = async () => (await request(short.http).get(`/api/products/${id}`).expect(200)).body.stock;
      await sleep(400); // the instance has read the version since its own write (every 125 ms)
      expect(await stock()).toBe(3);
      const other = short.app.get<Model<Product>>(getModelToken(Product.name));
      // written behind its back, without moving the version: still the stored answer after the TTL
      await other.updateOne({ _id: id }, { $set: { stock: 9 } });
      await sleep(1300);
      expect(await stock()).toBe(3);
      // another instance's write moves the version: seen within the TTL
      await versions.updateOne({ _id: 'public' }, { $inc: { v: 1 } });
      await sleep(1000);
      expect(await stock()).toBe(9);
      // a write that never moves the version (a script) shows once the entry is HOT_CACHE_MAX_AGE_MS old
      await other.updateOne({ _id: id }, { $set: { stock: 11 } });
      expect(await stock()).toBe(9);
      await sleep(3100);
      expect(await stock()).toBe(11);
    } finally {
      await short.close();
    }
  });

  describe('hits answered before Express', () => {
    let server: Server;
    let handle: jest.SpyInstance;

    beforeAll(async () => {
      server = t.http as Server;
      if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      // Express's app calls app.handle for every request it sees: a hit must never get there
      handle = jest.spyOn(t.app.getHttpAdapter().getInstance() as Express, 'handle' as never);
    });

    afterAll(async () => {
      handle.mockRestore();
      await new Promise<void>((r) => server.close(() => r()));
    });

    it('replays exactly the headers Express sent: helmet, Cache-Control, CORS, Vary, ETag', async () => {
      bump();
      const url = '/api/products?limit=2&sort=newest';
      handle.mockClear();
      // the catalogue list's misses are answered before Express too (its early reader), with the
      // headers Express sent for the route's earlier answers (catalogue-early-reads.e2e-spec.ts)
      const served = await rawGet(server, url, { 'Accept-Encoding': 'identity' });
      const hit = await rawGet(server, url, { 'Accept-Encoding': 'identity' });
      const alias = await rawGet(server, `/api${url}`, { 'Accept-Encoding': 'identity' });
      expect(handle).not.toHaveBeenCalled();
      expect([served.status, hit.status, alias.status]).toEqual([200, 200, 200]);
      expect(hit.body.equals(served.body)).toBe(true);
      expect(alias.body.equals(served.body)).toBe(true);
      expect(comparable(hit.headers)).toEqual(comparable(served.headers));
      expect(comparable(alias.headers)).toEqual(comparable(served.headers));
      const ids = [served, hit, alias].map((r) => r.headers['x-request-id']);
      expect(new Set(ids).size).toBe(3);
      expect(hit.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=60, stale-while-revalidate=300',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'cross-origin-resource-policy': 'cross-origin',
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': 'Content-Range,X-Total-Count',
        vary: 'Origin, Accept-Encoding',
        'content-length': String(served.body.length),
      });
      expect(hit.headers['content-security-policy']).toContain("img-src 'self' data:");
      expect(hit.headers['strict-transport-security']).toContain('max-age=');
      expect(hit.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(hit.headers['x-powered-by']).toBeUndefined();
      expect(hit.headers['access-control-allow-origin']).toBeUndefined();
    });

    it.each([
      ['an allowed Origin', ORIGIN],
      ['a foreign Origin', 'https://evil.example'],
    ])('answers a request with %s with the CORS headers Express gives it', async (_label, origin) => {
      bump();
      const url = '/api/categories';
      handle.mockClear();
      const served = await rawGet(server, url, { 'Accept-Encoding': 'identity', Origin: origin });
      // stored from a request with Origin, replayed to one without: no allowed origin is carried over
      const withoutOrigin = await rawGet(server, url, { 'Accept-Encoding': 'identity' });
      expect(handle).toHaveBeenCalledTimes(1);
      expect(withoutOrigin.headers['access-control-allow-origin']).toBeUndefined();
      // stored from a request without Origin (as most are: server-side rendering), replayed to one with it
      bump();
      await rawGet(server, url, { 'Accept-Encoding': 'identity' });
      expect(handle).toHaveBeenCalledTimes(2);
      const hit = await rawGet(server, url, { 'Accept-Encoding': 'identity', Origin: origin });
      expect(handle).toHaveBeenCalledTimes(2);
      expect(comparable(hit.headers)).toEqual(comparable(served.headers));
      expect(hit.headers['access-control-allow-origin']).toBe(origin === ORIGIN ? ORIGIN : undefined);
      expect(hit.headers.vary).toBe('Origin, Accept-Encoding');
    });

    it('answers 304 to a matching If-None-Match (plain or gzip ETag) without Express', async () => {
      bump();
      const url = '/api/settings/public';
      const served = await rawGet(server, url, { 'Accept-Encoding': 'identity' });
      await rawGet(server, url, { 'Accept-Encoding': 'gzip' }); // makes the gzip copy
      const zipped = await gzipped(server, url);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      handle.mockClear();
      for (const [etag, encoding] of [
        [served.headers.etag, 'identity'],
        [zipped.headers.etag, 'gzip'],
        [`W/${served.headers.etag}, "other"`, 'identity'],
      ]) {
        const notModified = await rawGet(server, url, {
          'Accept-Encoding': String(encoding),
          'If-None-Match': String(etag),
        });
        expect(notModified.status).toBe(304);
        expect(notModified.body.length).toBe(0);
        expect(notModified.headers['content-type']).toBeUndefined();
        expect(notModified.headers['cache-control']).toBe(served.headers['cache-control']);
      }
      const changed = await rawGet(server, url, { 'Accept-Encoding': 'identity', 'If-None-Match': '"x"' });
      expect(changed.status).toBe(200);
      expect(changed.body.equals(served.body)).toBe(true);
      expect(handle).not.toHaveBeenCalled();
    });

    it('lets personal requests and requests with a body through to Express, even with a fresh entry', async () => {
      const customer = await newCustomer();
      bump();
      const url = '/api/products?limit=4';
      const anonymous = await rawGet(server, url, { 'Accept-Encoding': 'identity' });
      const id = JSON.parse(anonymous.body.toString('utf8')).products[0]._id as string;
      await products.updateOne({ _id: id }, { $set: { name: 'Renamed Behind The Cache' } });
      const personal: Record<string, string>[] = [
        { Authorization: `Bearer ${customer.token}` },
        { Cookie: `lang=am; token=${customer.token}` },
        { Cookie: 'guestCartId=abc' },
        { 'X-Guest-Cart': 'abc' },
        { 'X-Cart-Id': 'abc' },
      ];
      for (const headers of personal) {
        handle.mockClear();
        const answer = await rawGet(server, url, { 'Accept-Encoding': 'identity', ...headers });
        expect(handle).toHaveBeenCalledTimes(1);
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body.toString('utf8')).products[0].name).toBe('Renamed Behind The Cache');
      }
      // an unrelated cookie is still anonymous: the stored (stale) answer is replayed
      handle.mockClear();
      const stale = await rawGet(server, url, { 'Accept-Encoding': 'identity', Cookie: 'lang=am' });
      expect(handle).not.toHaveBeenCalled();
      expect(stale.body.equals(anonymous.body)).toBe(true);
      // a GET with a body goes through the body parsers and their limits (here: nesting depth)
      let deep = '1';
      for (let i = 0; i < 40; i++) deep = `{"a":${deep}}`;
      const refused = await rawGet(
        server,
        url,
        { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(deep)) },
        deep,
      );
      expect(handle).toHaveBeenCalledTimes(1);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body.toString('utf8'))).toMatchObject({
        success: false,
        code: 'BODY_TOO_DEEP',
      });
    });
  });

  it('keeps the store within HOT_CACHE_MAX_BYTES, dropping the oldest entries first', async () => {
    const maxBytes = 12000;
    const small = await startTestApp({ HOT_CACHE_TTL_MS: '60000', HOT_CACHE_MAX_BYTES: String(maxBytes) });
    try {
      const a = await request(small.http)
        .post('/api/auth/register-admin')
        .send({
          name: 'Bytes Admin',
          email: 'bytes-admin@shop.et',
          password: 'Admin@12345',
          adminSecretKey: small.config.adminSecretKey,
        })
        .expect(201);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++)
        ids.push(
          (
            await request(small.http)
              .post('/api/products')
              .set(auth(a.body.token))
              .send({
                name: `Bytes Balm ${i}`,
                price: 100,
                stock: 3,
                category: 'skincare',
                description: 'x'.repeat(2000),
              })
              .expect(201)
          ).body.product._id as string,
        );
      const store = small.app.get(AnswerStore);
      expect(store.maxBytes).toBe(maxBytes);
      for (const id of ids) {
        await request(small.http).get(`/api/products/${id}`).set('Accept-Encoding', 'identity').expect(200);
        expect(store.bytes).toBeLessThanOrEqual(maxBytes);
      }
      expect(store.size).toBeGreaterThan(0);
      expect(store.size).toBeLessThan(ids.length);
      const express = small.app.getHttpAdapter().getInstance() as Express;
      const handleSmall = jest.spyOn(express, 'handle' as never);
      await request(small.http)
        .get(`/api/products/${ids[ids.length - 1]}`)
        .expect(200);
      expect(handleSmall).not.toHaveBeenCalled(); // the newest is still there
      await request(small.http).get(`/api/products/${ids[0]}`).expect(200);
      expect(handleSmall).toHaveBeenCalledTimes(1); // the oldest was dropped
      handleSmall.mockRestore();
    } finally {
      await small.close();
    }
  });
});
