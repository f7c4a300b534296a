import request from 'supertest';
import { expectErrorShape, startSecurityShop, type SecurityShop } from './support';
import { SearchIndex } from '../../src/modules/catalog/search-index';

const ALLOWED = 'https://shop.example';

/** OWASP API8:2023 Security Misconfiguration: headers, CORS and error bodies. */
describe('API8 security misconfiguration', () => {
  let shop: SecurityShop;

  beforeAll(async () => {
    shop = await startSecurityShop({ CORS_ORIGINS: `${ALLOWED},https://admin.shop.example` });
  });

  afterAll(() => shop.close());

  it('sends the helmet security headers and no x-powered-by, on answers and on errors', async () => {
    for (const path of ['/api/products', '/api/health', '/api/does-not-exist', '/api/auth/me']) {
      const res = await request(shop.t.http).get(path);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('allows credentialed CORS for the configured origins only', async () => {
    const ok = await request(shop.t.http).get('/api/products').set('Origin', ALLOWED).expect(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(ok.headers.vary).toMatch(/Origin/i);

    for (const origin of [
      'https://evil.example',
      'null',
      `${ALLOWED}.evil.example`,
      'https://shop.example:8443',
      'http://shop.example',
    ]) {
      const res = await request(shop.t.http).get('/api/products').set('Origin', origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await request(shop.t.http)
        .options('/api/orders')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-origin']).not.toBe('*');
    }
  });

  it('never reflects an arbitrary origin, even with the default configuration', async () => {
    const plain = await startSecurityShop();
    try {
      const res = await request(plain.t.http).get('/api/products').set('Origin', 'https://attacker.example');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('answers errors in the one shape, without stack traces, internal paths or driver messages', async () => {
    const http = shop.t.http;
    const cases: Array<[request.Test, number]> = [
      [request(http).get('/api/nothing-here'), 404],
      [request(http).get('/api/products/not-an-id'), 404],
      [request(http).get('/api/products/0123456789abcdef01234567'), 404],
      [request(http).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":'), 400],
      [request(http).post('/api/auth/login').send({ email: 'x' }), 400],
      [request(http).get('/api/orders/my-orders'), 401],
      [request(http).get('/api/orders/my-orders').set('Authorization', 'Bearer a.b.c'), 401],
      [request(http).get('/api/products?page=%7B%24gt%7D'), 400],
      [request(http).get('/api/products?sort[$ne]=1'), 400],
      // guests have carts (docs/decisions/0024-cart-and-guest-cart.md): the body itself is refused
      [request(http).post('/api/cart/add').set('Content-Type', 'application/json').send('[1,2,3]'), 400],
      [request(http).put('/api/users/profile').set('Content-Type', 'text/plain').send('hello'), 401],
    ];
    for (const [req, status] of cases) {
      const res = await req;
      expect(res.status).toBe(status);
      expectErrorShape(res.body, status);
      expect(JSON.stringify(res.body)).not.toMatch(/Mongo|Mongoose|CastError|ObjectId|SyntaxError|BSON/);
    }
  });

  it('does not send internal details in a malformed JSON error to a signed-in user either', async () => {
    const customer = await shop.customer();
    const res = await request(shop.t.http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .set('Content-Type', 'application/json')
      .send('{"productId": "abc", "quantity": }');
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 400);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'params', 'statusCode', 'success']);
    expect(res.body).toMatchObject({ code: 'MALFORMED_JSON', params: {} });
  });

  it('lets shared caches keep public catalogue reads only, never personal answers or errors', async () => {
    const productId = await shop.product();
    for (const path of [
      '/api/products',
      `/api/products/${productId}`,
      '/api/categories',
      '/api/api/products',
    ]) {
      const res = await request(shop.t.http).get(path).expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    }
    const customer = await shop.customer();
    for (const path of ['/api/cart', '/api/auth/me', '/api/users/profile', '/api/orders/my-orders']) {
      const res = await request(shop.t.http).get(path).set(shop.auth(customer.token)).expect(200);
      expect(res.headers['cache-control'] ?? '').not.toMatch(/public/);
    }
    const missing = await request(shop.t.http).get('/api/products/0123456789abcdef01234567').expect(404);
    expect(missing.headers['cache-control'] ?? '').not.toMatch(/public/);
    const admin = await request(shop.t.http)
      .get('/api/admin/products')
      .set(shop.auth(shop.admin.token))
      .expect(200);
    expect(admin.headers['cache-control'] ?? '').not.toMatch(/public/);
  });

  describe('catalogue micro-cache (on outside tests)', () => {
    let live: SecurityShop;

    beforeAll(async () => {
      live = await startSecurityShop({ NODE_ENV: 'development', HOT_CACHE_MAX_AGE_MS: '2500' });
    });

    afterAll(() => live.close());

    it('shows a change made through the API on the very next read', async () => {
      const id = await live.product({ name: 'Cached Cream', price: 100 });
      expect((await request(live.t.http).get(`/api/products/${id}`).expect(200)).body.price).toBe(100);
      await request(live.t.http)
        .put(`/api/products/${id}`)
        .set(live.auth(live.admin.token))
        .send({ name: 'Cached Cream', price: 150, stock: 5 })
        .expect(200);
      expect((await request(live.t.http).get(`/api/products/${id}`).expect(200)).body.price).toBe(150);
    });

    it("answers a burst of identical anonymous reads with one request's database reads", async () => {
      await live.product({ name: 'Stampede Serum' });
      await live.product({ name: 'Lone Lotion' });
      // the search index reads the new products first (not counted: the listing's reads are)
      await live.t.app.get(SearchIndex).current();
      const products = live.model('Product');
      // the listing reads through the model or sends the find command itself: count both
      const db = products.db.db!;
      const find = jest.spyOn(products, 'find');
      const command = jest.spyOn(db, 'command');
      const productFinds = () =>
        find.mock.calls.length +
        command.mock.calls.filter(
          ([c]) => (c as { find?: string }).find === products.collection.collectionName,
        ).length;
      try {
        // what one uncached read of a search costs
        const single = await request(live.t.http).get('/api/products?search=lone').expect(200);
        expect(single.body.totalProducts).toBe(1);
        const one = productFinds();
        expect(one).toBeGreaterThan(0);
        // twenty identical uncached reads at once cost the same: one handler run answers them all
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => request(live.t.http).get('/api/products?search=stampede')),
        );
        for (const a of answers) expect(a.body.totalProducts).toBe(1);
        expect(productFinds() - one).toBe(one);
      } finally {
        find.mockRestore();
        command.mockRestore();
      }
    });

    it('serves anonymous reads from memory, never signed-in ones, and never an error', async () => {
      const id = await live.product({ name: 'Memory Cream', price: 200 });
      await request(live.t.http).get(`/api/products/${id}`).expect(200);
      // A write that bypasses the API (a script, another instance) is not seen by the cached anonymous read...
      await live.model('Product').updateOne({ _id: id }, { $set: { priceSantim: 25000 } });
      expect((await request(live.t.http).get(`/api/products/${id}`).expect(200)).body.price).toBe(200);
      // ...but a signed-in read is always fresh, and so is an anonymous read once the entry expires
      // (HOT_CACHE_MAX_AGE_MS for a write that does not move the shared version; another instance's does).
      const customer = await live.customer();
      expect(
        (await request(live.t.http).get(`/api/products/${id}`).set(live.auth(customer.token)).expect(200))
          .body.price,
      ).toBe(250);
      await new Promise((r) => setTimeout(r, live.t.config.hotCacheMaxAgeMs + 100));
      expect((await request(live.t.http).get(`/api/products/${id}`).expect(200)).body.price).toBe(250);
      await request(live.t.http).delete(`/api/products/${id}`).set(live.auth(live.admin.token)).expect(200);
      await request(live.t.http).get(`/api/products/${id}`).expect(404);
      await request(live.t.http).get(`/api/products/${id}`).expect(404);
    });
  });
});
