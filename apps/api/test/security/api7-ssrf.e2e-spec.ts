import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ADDRESS, placeOrder, startSecurityShop, type SecurityShop } from './support';

/** OWASP API7:2023 Server Side Request Forgery: no URL a client sends is ever fetched by the server. */
describe('API7 server side request forgery', () => {
  let shop: SecurityShop;
  let canary: http.Server;
  let canaryUrl: string;
  const hits: string[] = [];

  beforeAll(async () => {
    canary = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    shop = await startSecurityShop({
      PUBLIC_API_URL: 'https://api.shop.example',
      STOREFRONT_URL: 'https://shop.example',
    });
  });

  afterAll(async () => {
    await shop.close();
    await new Promise((resolve) => canary.close(resolve));
  });

  it('stores product image URLs as given and never fetches them', async () => {
    const images = [
      `${canaryUrl}/a.png`,
      `${canaryUrl}/latest/meta-data/`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    const productId = await shop.product({ images });
    const detail = await request(shop.t.http).get(`/api/products/${productId}`).expect(200);
    expect(detail.body.images).toEqual(images);
    await request(shop.t.http)
      .put(`/api/products/${productId}`)
      .set(shop.auth(shop.admin.token))
      .send({ name: 'Canary Cream', price: 100, stock: 3, image: `${canaryUrl}/b.png` })
      .expect(200);
    await request(shop.t.http).get('/api/products').expect(200);
    await request(shop.t.http).get(`/api/products/${productId}`).expect(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toEqual([]);
  });

  it('never fetches URLs written in reviews, contact messages, profiles or addresses', async () => {
    const customer = await shop.customer();
    const productId = await shop.product();
    const url = `${canaryUrl}/from-text`;
    await request(shop.t.http)
      .post(`/api/reviews/product/${productId}`)
      .set(shop.auth(customer.token))
      .send({ rating: 4, comment: `See ${url}` })
      .expect(201);
    await request(shop.t.http)
      .post('/api/contacts/submit')
      .send({ name: 'Curious', email: 'c@example.et', subject: url, message: `Look at ${url}` });
    await request(shop.t.http).put('/api/users/profile').set(shop.auth(customer.token)).send({ name: url });
    await request(shop.t.http)
      .post('/api/users/addresses')
      .set(shop.auth(customer.token))
      .send({ ...ADDRESS, street: url });
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toEqual([]);
  });

  it('builds payment callback and return URLs from configuration, not from request headers', async () => {
    const customer = await shop.customer();
    const productId = await shop.product({ stock: 5 });
    const placed = await placeOrder(shop, customer, productId, 1);
    const init = await request(shop.t.http)
      .post('/api/payments/initialize')
      .set(shop.auth(customer.token))
      .set('Host', '127.0.0.1:1')
      .set('Origin', canaryUrl)
      .set('X-Forwarded-Host', 'evil.example')
      .set('Referer', `${canaryUrl}/return`)
      .send({ orderId: placed.body.order._id })
      .expect(201);
    const text = JSON.stringify(init.body);
    expect(text).not.toContain(canaryUrl);
    expect(text).not.toContain('evil.example');
    expect(init.body.hostedForm.fields.callback_url).toMatch(/^https:\/\/api\.shop\.example\//);
    expect(init.body.hostedForm.fields.return_url).toMatch(/^https:\/\/shop\.example\//);
    // A client cannot name its own callback or return URL.
    await request(shop.t.http)
      .post('/api/payments/initialize')
      .set(shop.auth(customer.token))
      .send({
        orderId: placed.body.order._id,
        callback_url: `${canaryUrl}/cb`,
        return_url: `${canaryUrl}/ret`,
      })
      .expect(400);
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toEqual([]);
  });
});
