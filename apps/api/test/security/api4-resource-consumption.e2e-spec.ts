import request from 'supertest';
import { buildOpenApiDocument } from '../../src/bootstrap';
import { expectErrorShape, startSecurityShop, type SecurityShop } from './support';

/** A valid 1x1 PNG: uploads judge the type by content. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** OWASP API4:2023 Unrestricted Resource Consumption: every input has a bound, and exceeding it is a clear 4xx. */
describe('API4 resource consumption', () => {
  let shop: SecurityShop;

  beforeAll(async () => {
    shop = await startSecurityShop({ CONTACT_RATE_LIMIT: '3' });
    for (let i = 0; i < 3; i++) await shop.product({ name: `Bounded Product ${i}` });
  });

  afterAll(() => shop.close());

  it('answers 413 in the error shape to a JSON body over the limit, on public and private routes', async () => {
    const huge = { name: 'x'.repeat(1024 * 1024 + 10), email: 'big@example.et', password: 'Buna@2026x' };
    const res = await request(shop.t.http).post('/api/auth/register').send(huge).expect(413);
    expect(res.body).toEqual({
      success: false,
      statusCode: 413,
      message: 'Request body is too large',
      code: 'PAYLOAD_TOO_LARGE',
      params: {},
    });
    const customer = await shop.customer();
    await request(shop.t.http)
      .put('/api/users/profile')
      .set(shop.auth(customer.token))
      .send({ name: 'y'.repeat(2 * 1024 * 1024) })
      .expect(413);
    const form = await request(shop.t.http)
      .post('/api/contacts/submit')
      .type('form')
      .send(`message=${'z'.repeat(1024 * 1024 + 10)}`);
    expect(form.status).toBe(413);
  });

  it('limits uploads: a file over 5 MB is 413, more than 5 files is 400', async () => {
    const admin = shop.auth(shop.admin.token);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const tooBig = await request(shop.t.http)
      .post('/api/uploads')
      .set(admin)
      .attach('images', big, 'big.png');
    expect(tooBig.status).toBe(413);
    expectErrorShape(tooBig.body, 413);
    let many = request(shop.t.http).post('/api/uploads').set(admin);
    for (let i = 0; i < 6; i++) many = many.attach('images', PNG, `p${i}.png`);
    const tooMany = await many;
    expect(tooMany.status).toBe(400);
    expectErrorShape(tooMany.body, 400);
    const ok = await request(shop.t.http)
      .post('/api/uploads')
      .set(admin)
      .attach('images', PNG, 'ok.png')
      .expect(201);
    expect(ok.body.urls).toHaveLength(1);
  });

  it('caps the catalogue page size at 100 and validates page bounds', async () => {
    const http = shop.t.http;
    for (const query of [
      'limit=101',
      'limit=1000000',
      'limit=0',
      'limit=-5',
      'limit=abc',
      'page=0',
      'page=-1',
      'page=1e9',
      'page=abc',
      'limit=1.5',
    ]) {
      const res = await request(http).get(`/api/products?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expectErrorShape(res.body, 400);
    }
    const max = await request(http).get('/api/products?limit=100').expect(200);
    expect(max.body.products.length).toBeLessThanOrEqual(100);
    const beyond = await request(http).get('/api/products?page=99999&limit=100').expect(200);
    expect(beyond.body.products).toEqual([]);
    const long = await request(http).get(`/api/products?search=${'a'.repeat(5000)}`);
    expect(long.status).toBe(400);
  });

  it('bounds every documented `limit` query parameter: a huge value is refused or capped at 100', async () => {
    const doc = buildOpenApiDocument(shop.t.app);
    const productId = await shop.product({ name: 'Limit Probe' });
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const params = (item.get?.parameters ?? []) as Array<{ name?: string; in?: string }>;
      if (!params.some((p) => p.in === 'query' && p.name === 'limit')) continue;
      const url = path.replace(/\{[^}]+\}/g, productId);
      const res = await request(shop.t.http)
        .get(url)
        .query({ limit: 1000000 })
        .set(shop.auth(shop.admin.token));
      checked.push(`${path} -> ${res.status}`);
      expect(res.status).toBeLessThan(500);
      if (res.status === 200) {
        const lists = Object.values(res.body as Record<string, unknown>).filter(Array.isArray) as unknown[][];
        for (const list of lists) expect(list.length).toBeLessThanOrEqual(100);
      } else {
        expect(res.status).toBe(400);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(3);
  });

  it('caps back-office list ranges at 100 records', async () => {
    const admin = shop.auth(shop.admin.token);
    for (const path of [
      '/api/admin/products',
      '/api/admin/users',
      '/api/admin/orders',
      '/api/admin/reviews',
      '/api/admin/contacts',
    ]) {
      const res = await request(shop.t.http).get(path).query({ range: '[0,1000000]' }).set(admin);
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) expect(res.body.length).toBeLessThanOrEqual(100);
      await request(shop.t.http).get(path).query({ range: '[-1,5]' }).set(admin).expect(400);
      await request(shop.t.http).get(path).query({ range: '[0,1e400]' }).set(admin).expect(400);
    }
  });

  it('rate-limits public contact submissions per client with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(shop.t.http)
        .post('/api/contacts/submit')
        .send({
          name: 'Spammer',
          email: 'spam@example.et',
          subject: 'Hello',
          message: `Message number ${i}`,
        });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 3).every((s) => s === 200 || s === 201)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
