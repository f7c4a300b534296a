import { getModelToken } from '@nestjs/mongoose';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { Product } from '../src/modules/catalog/schemas/product.schema';

/**
 * Logs (docs/decisions/0072-logs-and-request-ids.md): one JSON line per request with its id, method,
 * route template, status, duration and user id, and nothing personal anywhere in the log of a whole
 * customer journey; X-Request-Id taken when sane, made otherwise, echoed on every answer.
 */
describe('logs: one line per request, request ids, no personal data', () => {
  let app: NestExpressApplication;
  let http: ReturnType<NestExpressApplication['getHttpServer']>;
  let productId: string;
  const chunks: string[] = [];
  const entries = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const requestLines = () => entries().filter((e) => typeof e.route === 'string');
  const lineOf = (requestId: string) => {
    const lines = requestLines().filter((e) => e.requestId === requestId);
    expect(lines).toHaveLength(1);
    return lines[0];
  };
  /** The line is written when the answer has ended, which may be a moment after supertest has it. */
  const settle = () => new Promise((r) => setTimeout(r, 50));

  beforeAll(async () => {
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      EMBEDDED_IN_MEMORY: 'true',
      SEED_ON_EMPTY: 'false',
      AUTH_RATE_LIMIT: '1000',
      MONGODB_DB: `test_${randomBytes(6).toString('hex')}`,
    });
    app = await createApp(config, {
      logging: { format: 'json', level: 'info' },
      logDestination: { write: (chunk: string) => void chunks.push(chunk) },
    });
    await app.init();
    http = app.getHttpServer();
    const products = app.get<Model<Product>>(getModelToken(Product.name));
    const product = await products.create({
      name: 'Shea Butter Cream',
      sku: 'LOG-1',
      brand: 'Abyssinia',
      category: 'skincare',
      description: 'Rich cream',
      priceSantim: 45000,
      stock: 12,
      images: [],
    });
    productId = String(product._id);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('logs a whole journey as request lines with the route template and the user id, and no personal data', async () => {
    const email = `selam.${randomBytes(4).toString('hex')}@example.et`;
    const password = 'Qwerty@2026zz';
    const name = 'Selamawit Logtest';
    const phoneTyped = '0911 47 58 69';
    const phoneStored = '+251911475869';
    const street = 'Ras Desta Street, House 4711';
    const landmark = 'behind the blue pharmacy';
    const sent: string[] = [];
    const id = () => {
      const value = `journey-${sent.length + 1}-${randomBytes(3).toString('hex')}`;
      sent.push(value);
      return value;
    };

    const registered = await request(http)
      .post('/api/auth/register')
      .set('X-Request-Id', id())
      .send({ name, email, password, confirmPassword: password })
      .expect(201);
    const userId = registered.body.user._id as string;
    const login = await request(http)
      .post('/api/auth/login')
      .set('X-Request-Id', id())
      .send({ email, password })
      .expect(200);
    const token = login.body.token as string;
    const bearer = { Authorization: `Bearer ${token}` };
    await request(http).get(`/api/products/${productId}`).set('X-Request-Id', id()).expect(200);
    await request(http)
      .post('/api/cart/add')
      .set(bearer)
      .set('X-Request-Id', id())
      .send({ productId, quantity: 2 })
      .expect(200);
    const order = await request(http)
      .post('/api/orders')
      .set(bearer)
      .set('X-Request-Id', id())
      .send({
        shippingAddress: { street, city: 'Addis Ababa', state: 'Addis Ababa', phone: phoneTyped, landmark },
        paymentMethod: 'chapa',
      })
      .expect(201);
    await request(http)
      .put('/api/users/profile')
      .set(bearer)
      .set('X-Request-Id', id())
      .send({ phone: phoneTyped })
      .expect(200);
    await request(http)
      .post('/api/users/addresses')
      .set(bearer)
      .set('X-Request-Id', id())
      .send({ street, city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' })
      .expect(201);
    await request(http).get('/api/users/profile').set(bearer).set('X-Request-Id', id()).expect(200);
    await request(http)
      .get(`/api/orders/${order.body.order._id}`)
      .set('Cookie', `token=${token}`)
      .set('X-Request-Id', id())
      .expect(200);
    // a refusal is logged the same way (wrong password: 401)
    await request(http)
      .post('/api/auth/login')
      .set('X-Request-Id', id())
      .send({ email, password: `${password}-wrong` })
      .expect(401);
    await settle();

    const expected: [string, string, number, boolean][] = [
      ['POST', '/api/auth/register', 201, false],
      ['POST', '/api/auth/login', 200, false],
      ['GET', '/api/products/:id', 200, false],
      ['POST', '/api/cart/add', 200, true],
      ['POST', '/api/orders', 201, true],
      ['PUT', '/api/users/profile', 200, true],
      ['POST', '/api/users/addresses', 201, true],
      ['GET', '/api/users/profile', 200, true],
      ['GET', '/api/orders/:id', 200, true],
      ['POST', '/api/auth/login', 401, false],
    ];
    expected.forEach(([method, route, status, signedIn], i) => {
      const line = lineOf(sent[i]);
      expect(line).toMatchObject({ method, route, status, level: status >= 500 ? 50 : 30 });
      expect(typeof line.durationMs).toBe('number');
      expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
      expect(line.durationMs as number).toBeLessThan(30000);
      expect(typeof line.time).toBe('string');
      if (signedIn) expect(line.userId).toBe(userId);
      else expect(line).not.toHaveProperty('userId');
      // the raw URL, headers and bodies are never part of a line
      for (const key of ['url', 'req', 'res', 'headers', 'body']) expect(line).not.toHaveProperty(key);
    });

    const everything = chunks.join('');
    expect(everything).toContain(userId);
    for (const secret of [
      email,
      email.split('@')[0],
      password,
      token,
      token.split('.')[2],
      name,
      phoneTyped,
      phoneStored,
      '911475869',
      street,
      'House 4711',
      landmark,
    ])
      expect(everything).not.toContain(secret);
  });

  it('echoes a sane X-Request-Id, and makes a UUID for a missing or unusable one', async () => {
    const given = await request(http).get('/api/categories').set('X-Request-Id', 'edge-42.abc:7').expect(200);
    expect(given.headers['x-request-id']).toBe('edge-42.abc:7');

    const made = await request(http).get('/api/categories').expect(200);
    expect(made.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );

    for (const bad of ['two words', 'x'.repeat(129), 'naïve-id', '']) {
      const res = await request(http).get('/api/categories').set('X-Request-Id', bad).expect(200);
      expect(res.headers['x-request-id']).not.toBe(bad);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // probes (readiness checks every second) are answered with the id but logged at debug only
    const probe = await request(http).get('/api/health/live').set('X-Request-Id', 'probe-1').expect(200);
    expect(probe.headers['x-request-id']).toBe('probe-1');
    const longest = 'y'.repeat(128);
    expect(
      (await request(http).get('/api/health').set('X-Request-Id', longest)).headers['x-request-id'],
    ).toBe(longest);

    // refusals and unknown routes carry it too
    const refused = await request(http)
      .get('/api/users/profile')
      .set('X-Request-Id', 'refused-1')
      .expect(401);
    expect(refused.headers['x-request-id']).toBe('refused-1');
    const unknown = await request(http)
      .get('/api/nothing/here?email=a@b.et')
      .set('X-Request-Id', 'unknown-1')
      .expect(404);
    expect(unknown.headers['x-request-id']).toBe('unknown-1');
    await settle();
    expect(lineOf('refused-1')).toMatchObject({ route: '/api/users/profile', status: 401 });
    expect(lineOf('unknown-1')).toMatchObject({ route: 'unmatched', status: 404 });
    expect(requestLines().some((e) => e.requestId === 'probe-1')).toBe(false);
    expect(chunks.join('')).not.toContain('a@b.et');
  });

  it('gives answers replayed from the hot cache their own request id and a line with the route template', async () => {
    await request(http).get(`/api/products/${productId}`).set('X-Request-Id', 'warm-1').expect(200);
    const first = await request(http)
      .get(`/api/products/${productId}`)
      .set('X-Request-Id', 'hit-1')
      .expect(200);
    const second = await request(http)
      .get(`/api/products/${productId}`)
      .set('X-Request-Id', 'hit-2')
      .expect(200);
    // the later ones are replayed from the stored answer (its strong ETag, or that of its gzip copy)
    expect(second.headers.etag.replace(/-gz"$/, '"')).toBe(first.headers.etag.replace(/-gz"$/, '"'));
    expect(first.headers['x-request-id']).toBe('hit-1');
    expect(second.headers['x-request-id']).toBe('hit-2');
    await settle();
    for (const id of ['warm-1', 'hit-1', 'hit-2'])
      expect(lineOf(id)).toMatchObject({ method: 'GET', route: '/api/products/:id', status: 200 });
  });

  it('leaves the route mapping out of the start-up log (debug level only)', () => {
    const startup = entries().filter((e) => typeof e.context === 'string');
    expect(startup.some((e) => e.context === 'RouterExplorer' || e.context === 'RoutesResolver')).toBe(false);
    expect(startup.some((e) => e.context === 'InstanceLoader')).toBe(false);
  });
});
