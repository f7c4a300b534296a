import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { loadConfig } from '../src/config';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { metricsAllowed } from '../src/observability/metrics-endpoint';
import { auth, customerFactory } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const root = path.resolve(__dirname, '../../..');
const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
const TOKEN = 'a-metrics-token-of-at-least-32-characters-x';
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-production-jwt-secret-of-at-least-32-chars',
  ADMIN_SECRET_KEY: 'a-production-admin-secret',
  ALLOW_NO_MAIL: 'true',
  ALLOW_TEST_PAYMENTS: 'true',
};

/** The value of one series in Prometheus text (0 when absent): `name{a="b",...}` exactly as written. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics (GET /api/metrics)', () => {
  let t: TestApp;
  let products: Model<Product>;
  const newCustomer = customerFactory(() => t, 'metrics', 'Metrics Customer');
  const scrape = async () => (await request(t.http).get('/api/metrics').expect(200)).text;
  const makeProduct = async (name: string, stock: number) =>
    String(
      (
        await products.create({
          name,
          description: `${name} for the metrics test`,
          priceSantim: 25_000,
          stock,
          category: 'skincare',
          images: ['/api/assets/products/x.svg'],
          active: true,
        })
      )._id,
    );
  const order = async (token: string, productId: string, paymentMethod: string) => {
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity: 1 }).expect(200);
    return request(t.http)
      .post('/api/orders')
      .set(auth(token))
      .send({ shippingAddress: address, paymentMethod });
  };

  beforeAll(async () => {
    t = await startTestApp({ HOT_CACHE_TTL_MS: '5000' });
    products = t.app.get(getModelToken(Product.name));
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers Prometheus text on loopback in development and tests: request durations, Node’s defaults, the shop’s own', async () => {
    const res = await request(t.http).get('/api/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const name of [
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'http_request_duration_seconds',
      'shop_orders_placed_total',
      'shop_payments_total',
      'shop_stock_reservations_refused_total',
      'shop_cache_requests_total',
      'shop_outbox_messages',
    ])
      expect(res.text).toContain(`# TYPE ${name} `);
    // every payment method and outcome has its series from the start (rate() needs a first sample)
    expect(res.text).toContain('shop_orders_placed_total{payment_method="cash_on_delivery"} 0');
    expect(res.text).toContain('shop_payments_total{outcome="declined"} 0');
  });

  it('is closed to a client behind a proxy (X-Forwarded-For) outside production too, with the 404 of an unknown route', async () => {
    const res = await request(t.http).get('/api/metrics').set('X-Forwarded-For', '196.188.1.1').expect(404);
    expect(res.text).not.toContain('http_request_duration_seconds');
    expect(res.body).toMatchObject({ success: false, statusCode: 404 });
  });

  it('labels requests by route template, never by the raw URL, and groups unknown routes', async () => {
    const id = await makeProduct('Shea Butter Cream', 5);
    await request(t.http).get(`/api/products/${id}`).expect(200);
    await request(t.http).get(`/api/products/${id}?lang=am`).expect(200);
    await request(t.http).get(`/api/products/${id}`).expect(200); // a hot hit, answered before Express
    await request(t.http).get('/api/no-such-thing/12345').expect(404);
    await request(t.http).get('/api/orders/64b7f0c2a1b2c3d4e5f60718').expect(401);
    const text = await scrape();
    expect(text).not.toContain(id);
    expect(text).not.toContain('12345');
    expect(text).not.toContain('64b7f0c2a1b2c3d4e5f60718');
    const count = (route: string, status: number) =>
      valueOf(
        text,
        `http_request_duration_seconds_count{method="GET",route="${route}",status_code="${status}"}`,
      );
    expect(count('/api/products/:id', 200)).toBeGreaterThanOrEqual(3);
    expect(count('unmatched', 404)).toBeGreaterThanOrEqual(1);
    expect(count('/api/orders/:id', 401)).toBe(1);
    expect(count('/api/metrics', 200)).toBeGreaterThanOrEqual(1); // the scrapes of the tests before
  });

  it('counts the answer cache’s hits and misses', async () => {
    const id = await makeProduct('Coffee Scrub', 5);
    const before = await scrape();
    await request(t.http).get(`/api/products/${id}`).expect(200);
    await request(t.http).get(`/api/products/${id}`).expect(200);
    await request(t.http).get(`/api/products/${id}`).expect(200);
    const after = await scrape();
    const delta = (result: string) =>
      valueOf(after, `shop_cache_requests_total{cache="answers",result="${result}"}`) -
      valueOf(before, `shop_cache_requests_total{cache="answers",result="${result}"}`);
    expect(delta('miss')).toBe(1);
    expect(delta('hit')).toBe(2);
  });

  it('counts an order by payment method, its outbox messages, and a refused stock reservation (409)', async () => {
    const id = await makeProduct('Last Jar of Honey Mask', 1);
    const [first, second] = [await newCustomer(), await newCustomer()];
    const before = await scrape();
    // both carts hold the last jar; the first order takes it, the second is refused
    await request(t.http).post('/api/cart/add').set(auth(second.token)).send({ productId: id, quantity: 1 });
    const placed = await order(first.token, id, 'telebirr');
    expect(placed.status).toBe(201);
    const refused = await request(t.http)
      .post('/api/orders')
      .set(auth(second.token))
      .send({ shippingAddress: address, paymentMethod: 'chapa' })
      .expect(409);
    expect(refused.body.code).toBe('OUT_OF_STOCK');

    const after = await scrape();
    const delta = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(delta('shop_orders_placed_total{payment_method="telebirr"}')).toBe(1);
    expect(delta('shop_orders_placed_total{payment_method="chapa"}')).toBe(0);
    expect(delta('shop_stock_reservations_refused_total{reason="OUT_OF_STOCK"}')).toBe(1);
    // the order's messages wait in the outbox (the worker is off in tests)
    expect(valueOf(after, 'shop_outbox_messages{channel="email",state="pending"}')).toBeGreaterThan(0);
    expect(after).toContain('shop_outbox_messages{channel="sms",state="failed"} 0');
  });

  it('counts payments by outcome (the offline test provider)', async () => {
    const customer = await newCustomer();
    const pay = async (outcome: 'success' | 'failed') => {
      const id = await makeProduct(`Aloe Gel ${outcome}`, 3);
      const orderId = (await order(customer.token, id, 'chapa')).body.order._id as string;
      const { txRef } = (
        await request(t.http)
          .post('/api/payments/initialize')
          .set(auth(customer.token))
          .send({ orderId })
          .expect(201)
      ).body;
      await request(t.http)
        .post(`/api/payments/test/${txRef}/complete`)
        .set(auth(customer.token))
        .send({ outcome })
        .expect(200);
    };
    const before = await scrape();
    await pay('success');
    await pay('failed');
    const after = await scrape();
    const delta = (outcome: string) =>
      valueOf(after, `shop_payments_total{outcome="${outcome}"}`) -
      valueOf(before, `shop_payments_total{outcome="${outcome}"}`);
    expect(delta('success')).toBe(1);
    expect(delta('declined')).toBe(1);
  });
});

describe('metrics in production', () => {
  it('answers 404 without the token, with a wrong one, and to loopback; 200 with METRICS_TOKEN as Bearer', async () => {
    const t = await startTestApp({ ...PRODUCTION, METRICS_TOKEN: TOKEN });
    try {
      await request(t.http).get('/api/metrics').expect(404);
      await request(t.http).get('/api/metrics').set('Authorization', 'Bearer wrong-token').expect(404);
      await request(t.http)
        .get('/api/metrics')
        .set('Authorization', `Bearer ${TOKEN.slice(0, -1)}`)
        .expect(404);
      await request(t.http).get('/api/metrics').set('Authorization', TOKEN).expect(404);
      const res = await request(t.http)
        .get('/api/metrics')
        .set('Authorization', `Bearer ${TOKEN}`)
        .expect(200);
      expect(res.text).toContain('# TYPE shop_orders_placed_total counter');
    } finally {
      await t.close();
    }
  });

  it('answers 404 to everyone when METRICS_TOKEN is unset', async () => {
    const t = await startTestApp(PRODUCTION);
    try {
      await request(t.http).get('/api/metrics').expect(404);
      await request(t.http).get('/api/metrics').set('Authorization', 'Bearer ').expect(404);
    } finally {
      await t.close();
    }
  });

  it('refuses to start with a short or placeholder token, and takes any token outside production', () => {
    expect(() => loadConfig({ ...PRODUCTION, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() =>
      loadConfig({ ...PRODUCTION, METRICS_TOKEN: 'change-me-change-me-change-me-change-me' }),
    ).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ ...PRODUCTION, METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({ ...PRODUCTION }).metricsToken).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'development', METRICS_TOKEN: 'short' }).metricsToken).toBe('short');
  });

  it('judges loopback by the socket, not by a header', () => {
    const req = (remoteAddress: string, headers: Record<string, string> = {}) =>
      ({ headers, socket: { remoteAddress } }) as unknown as Parameters<typeof metricsAllowed>[1];
    const dev = { nodeEnv: 'development' as const, metricsToken: undefined };
    expect(metricsAllowed(dev, req('127.0.0.1'))).toBe(true);
    expect(metricsAllowed(dev, req('::1'))).toBe(true);
    expect(metricsAllowed(dev, req('::ffff:127.0.0.1'))).toBe(true);
    expect(metricsAllowed(dev, req('10.0.0.7'))).toBe(false);
    expect(metricsAllowed(dev, req('127.0.0.1', { forwarded: 'for=196.188.1.1' }))).toBe(false);
    const prod = { nodeEnv: 'production' as const, metricsToken: TOKEN };
    expect(metricsAllowed(prod, req('127.0.0.1'))).toBe(false);
    expect(metricsAllowed(prod, req('10.0.0.7', { authorization: `Bearer ${TOKEN}` }))).toBe(true);
  });
});

describe('deploy/prometheus and deploy/grafana', () => {
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

  it('alert rules cover payment failures, outbox backlog, 5xx rate and p99 latency, on series the API exports', () => {
    const rules = parse(read('deploy/prometheus/alerts.yml')) as {
      groups: { name: string; rules: { alert: string; expr: string; for?: string; labels: object }[] }[];
    };
    const all = rules.groups.flatMap((g) => g.rules);
    const names = all.map((r) => r.alert);
    expect(names).toEqual(
      expect.arrayContaining([
        'PaymentFailuresRising',
        'OutboxBacklog',
        'HighServerErrorRate',
        'HighP99Latency',
      ]),
    );
    for (const rule of all) {
      expect(rule.expr).toMatch(/\b(shop_|http_request_duration_seconds|up\b|process_)/);
      expect(rule.labels).toHaveProperty('severity');
      expect(rule.for).toMatch(/^\d+[smh]$/);
    }
  });

  it('prometheus.yml scrapes both apps with the token file and loads the alert rules', () => {
    const config = parse(read('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: {
        job_name: string;
        metrics_path: string;
        authorization?: { credentials_file?: string };
      }[];
    };
    expect(config.rule_files).toContain('/etc/prometheus/alerts.yml');
    const jobs = Object.fromEntries(config.scrape_configs.map((c) => [c.job_name, c]));
    expect(jobs.api.metrics_path).toBe('/api/metrics');
    expect(jobs.storefront.metrics_path).toBe('/metrics');
    for (const job of [jobs.api, jobs.storefront])
      expect(job.authorization?.credentials_file).toBe('/prometheus/metrics-token');
  });

  it('the Grafana dashboard is valid JSON whose panels query the exported series', () => {
    const dashboard = JSON.parse(read('deploy/grafana/shop-dashboard.json')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
    for (const series of [
      'http_request_duration_seconds_bucket',
      'shop_orders_placed_total',
      'shop_payments_total',
      'shop_outbox_messages',
      'shop_cache_requests_total',
      'shop_stock_reservations_refused_total',
    ])
      expect(exprs).toContain(series);
  });

  it('docker-compose.yml runs Prometheus only with the monitoring profile, with the rules and the token', () => {
    const compose = parse(read('docker-compose.yml')) as {
      services: Record<
        string,
        { profiles?: string[]; volumes?: string[]; environment?: Record<string, string> }
      >;
    };
    const prometheus = compose.services.prometheus;
    expect(prometheus.profiles).toEqual(['monitoring']);
    const mounted = (prometheus.volumes ?? []).map((v) => v.split(':')[0]);
    expect(mounted).toEqual(
      expect.arrayContaining(['./deploy/prometheus/prometheus.yml', './deploy/prometheus/alerts.yml']),
    );
    expect(prometheus.environment?.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN/);
    expect(compose.services.api.environment?.METRICS_TOKEN).toBe('${METRICS_TOKEN:-}');
    expect(compose.services.storefront.environment?.METRICS_TOKEN).toBe('${METRICS_TOKEN:-}');
    for (const app of ['api', 'storefront', 'admin', 'mongo'])
      expect(compose.services[app].profiles).toBeUndefined();
  });
});
