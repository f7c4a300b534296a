import request from 'supertest';
import { SeedService } from '../src/seed/seed.service';
import { SEED_PRODUCTS } from '../src/seed/data/products';
import { startTestApp, type TestApp } from './support/test-app';

describe('foundation: health, errors and the seeded catalogue', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers the health check with the database ping and the engine kind', async () => {
    const res = await request(t.http).get('/api/health').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.database.ok).toBe(true);
    expect(['external', 'memory-server', 'embedded']).toContain(res.body.database.engine);
    expect(res.body.database.engine).toBe(t.engine.kind);
    expect(typeof res.body.database.pingMs).toBe('number');
  });

  it('lists seeded products in the spec shape, 20 per page by default', async () => {
    const res = await request(t.http).get('/api/products').expect(200);
    expect(res.body.totalProducts).toBe(SEED_PRODUCTS.length);
    expect(res.body.products).toHaveLength(20);
    expect(res.body.page).toBe(1);
    expect(res.body.totalPages).toBe(Math.ceil(SEED_PRODUCTS.length / 20));
    const product = res.body.products[0];
    expect(product).toMatchObject({ currency: 'ETB' });
    expect(product.countInStock).toBe(product.stock);
    // stored relative, answered absolute from PUBLIC_API_URL
    expect(product.images[0]).toMatch(new RegExp(`^${t.config.publicUrl}/api/assets/products/.+\\.svg$`));
    expect(product).not.toHaveProperty('priceSantim');
  });

  it('serves the product images from the project itself', async () => {
    const res = await request(t.http).get('/api/products?limit=1').expect(200);
    const image = await request(t.http).get(new URL(res.body.products[0].images[0]).pathname).expect(200);
    expect(image.headers['content-type']).toMatch(/image\/svg\+xml/);
  });

  it('seeds three distinct views per product (product, texture, key ingredients), each served and small', async () => {
    const res = await request(t.http).get('/api/products?limit=100').expect(200);
    const seen = new Set<string>();
    for (const product of res.body.products as { images: string[] }[]) {
      expect(product.images).toHaveLength(3);
      const paths = product.images.map((i) => new URL(i, 'http://local').pathname);
      expect(paths[1]).toMatch(/-texture\.svg$/);
      expect(paths[2]).toMatch(/-ingredients\.svg$/);
      for (const path of paths) seen.add(path);
    }
    expect(seen.size).toBe(res.body.products.length * 3);
    for (const path of [...seen].slice(0, 6)) {
      const image = await request(t.http).get(path).expect(200);
      expect(image.headers['content-type']).toMatch(/image\/svg\+xml/);
      expect(Number(image.headers['content-length'] ?? image.body.length)).toBeLessThan(6000);
    }
  });

  it('filters by price range in ETB and sorts by price', async () => {
    const res = await request(t.http)
      .get('/api/products?minPrice=500&maxPrice=1000&sort=price_asc&limit=100')
      .expect(200);
    const prices: number[] = res.body.products.map((p: { price: number }) => p.price);
    const expected = SEED_PRODUCTS.filter((p) => p.price >= 500 && p.price <= 1000).length;
    expect(prices).toHaveLength(expected);
    expect(prices.every((p) => p >= 500 && p <= 1000)).toBe(true);
    expect([...prices].sort((a, b) => a - b)).toEqual(prices);
  });

  it('searches case-insensitively and treats regex characters literally', async () => {
    const word = SEED_PRODUCTS[0].brand.split(' ')[0];
    const res = await request(t.http)
      .get(`/api/products?search=${encodeURIComponent(word.toUpperCase())}`)
      .expect(200);
    expect(res.body.totalProducts).toBeGreaterThan(0);
    const regex = await request(t.http).get('/api/products?search=.*').expect(200);
    expect(regex.body.totalProducts).toBe(0);
  });

  it('filters by category and in-stock availability', async () => {
    const res = await request(t.http)
      .get('/api/products?category=fragrance&inStock=true&limit=100')
      .expect(200);
    const expected = SEED_PRODUCTS.filter((p) => p.category === 'fragrance' && p.stock > 0).length;
    expect(res.body.totalProducts).toBe(expected);
  });

  it('refuses bad query values with the error shape and field errors', async () => {
    const res = await request(t.http).get('/api/products?limit=1000&sort=cheapest').expect(400);
    expect(res.body).toMatchObject({ success: false, statusCode: 400, message: 'Validation failed' });
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'sort']);
    const unknown = await request(t.http).get('/api/products?evil=1').expect(400);
    expect(unknown.body.errors[0].field).toBe('evil');
    const operator = await request(t.http).get('/api/products?search[$ne]=x').expect(400);
    expect(operator.body.success).toBe(false);
  });

  it('answers one product as the document itself, and 404 for unknown or malformed ids', async () => {
    const list = await request(t.http).get('/api/products?limit=1').expect(200);
    const id = list.body.products[0]._id;
    const one = await request(t.http).get(`/api/products/${id}`).expect(200);
    expect(one.body._id).toBe(id);
    expect(one.body.name).toBe(list.body.products[0].name);
    for (const bad of ['000000000000000000000000', 'not-an-id', '1']) {
      const res = await request(t.http).get(`/api/products/${bad}`).expect(404);
      expect(res.body).toEqual({
        success: false,
        statusCode: 404,
        message: 'Product not found',
        code: 'PRODUCT_NOT_FOUND',
        params: {},
      });
    }
  });

  it('lists categories with English and Amharic names and counts', async () => {
    const res = await request(t.http).get('/api/categories').expect(200);
    expect(res.body.categories.map((c: { slug: string }) => c.slug)).toEqual([
      'skincare',
      'makeup',
      'haircare',
      'fragrance',
    ]);
    const skincare = res.body.categories[0];
    expect(skincare.name.am).toMatch(/[\u1200-\u137F]/);
    expect(skincare.productCount).toBe(SEED_PRODUCTS.filter((p) => p.category === 'skincare').length);
    expect(skincare.subCategories.map((s: { slug: string }) => s.slug)).toEqual([
      'serums',
      'treatments',
      'masks',
    ]);
  });

  it('answers the doubled /api/api prefix as the same routes', async () => {
    const res = await request(t.http).get('/api/api/products?limit=2').expect(200);
    expect(res.body.products).toHaveLength(2);
  });

  it('answers unknown routes with the one error shape', async () => {
    const res = await request(t.http).get('/api/nowhere').expect(404);
    expect(res.body).toMatchObject({ success: false, statusCode: 404 });
  });

  it('answers a malformed JSON body with 400 "Malformed JSON body", not the parser text', async () => {
    const res = await request(t.http)
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": bad')
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      statusCode: 400,
      message: 'Malformed JSON body',
      code: 'MALFORMED_JSON',
      params: {},
    });
  });

  it('refuses a deeply nested body with 400 instead of overflowing the validator', async () => {
    const deep = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
    const res = await request(t.http)
      .post('/api/auth/register')
      .set('Content-Type', 'application/json')
      .send(deep)
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      statusCode: 400,
      message: 'Request body is nested too deeply',
      code: 'BODY_TOO_DEEP',
      params: {},
    });
    const fine = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'nobody@example.et', password: 'x' });
    expect(fine.status).toBe(401);
  });

  it('sends security headers and honours the CORS allow-list', async () => {
    const allowed = await request(t.http)
      .get('/api/health')
      .set('Origin', 'http://localhost:3000')
      .expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(allowed.headers['x-content-type-options']).toBe('nosniff');
    expect(allowed.headers['x-powered-by']).toBeUndefined();
    const denied = await request(t.http).get('/api/health').set('Origin', 'http://evil.example').expect(200);
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the Swagger UI and its JSON document', async () => {
    await request(t.http).get('/api/docs').expect(200);
    const json = await request(t.http).get('/api/docs-json').expect(200);
    expect(Object.keys(json.body.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/products', '/api/products/{id}']),
    );
  });
});

describe('seed', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('is idempotent and gives the dashboard two weeks of orders', async () => {
    const seed = t.app.get(SeedService);
    const first = await seed.seed();
    const second = await seed.seed();
    expect(second).toEqual(first);
    expect(first.products).toBeGreaterThanOrEqual(40);
    expect(first.orders).toBeGreaterThanOrEqual(30);
    expect(first.reviews).toBeGreaterThan(0);
    const products = await request(t.http).get('/api/products?limit=100').expect(200);
    const stocks = products.body.products.map((p: { stock: number }) => p.stock);
    expect(stocks.filter((s: number) => s === 0).length).toBeGreaterThan(0);
    expect(stocks.filter((s: number) => s > 0 && s <= 5).length).toBeGreaterThan(0);
    expect(products.body.products.some((p: { discount: number }) => p.discount > 0)).toBe(true);
    expect(products.body.products.some((p: { reviewCount: number }) => p.reviewCount > 0)).toBe(true);
  });
});

describe('health when the database is down', () => {
  it('answers 503 with the error shape', async () => {
    const t = await startTestApp({ MONGODB_URI: '' });
    try {
      if (t.engine.kind === 'external') return; // cannot stop a server we do not own
      await t.engine.stop();
      const res = await request(t.http).get('/api/health').expect(503);
      expect(res.body).toMatchObject({ success: false, statusCode: 503, message: 'Database unavailable' });
    } finally {
      await t.app.close().catch(() => undefined);
    }
  });
});
