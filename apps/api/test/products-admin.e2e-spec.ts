import request from 'supertest';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

describe('catalogue administration', () => {
  let t: TestApp;
  let admin: string;
  let customer: string;

  const login = async (account: { email: string; password: string }) =>
    (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: account.email, password: account.password })
        .expect(200)
    ).body.token;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await login(DEMO_ACCOUNTS.admin);
    customer = await login(DEMO_ACCOUNTS.customer);
  });

  afterAll(async () => {
    await t.close();
  });

  it('creates a product from the spec form: countInStock as stock, one image as images', async () => {
    const res = await request(t.http)
      .post('/api/products')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: 'Teff Body Scrub',
        price: 420.5,
        countInStock: 12,
        image: '/api/assets/products/teff-gentle-exfoliant.svg',
        category: 'skincare',
      })
      .expect(201);
    expect(res.body.success).toBe(true);
    expect(res.body.product).toMatchObject({
      name: 'Teff Body Scrub',
      price: 420.5,
      stock: 12,
      countInStock: 12,
      images: [`${t.config.publicUrl}/api/assets/products/teff-gentle-exfoliant.svg`],
      active: true,
    });
    const fetched = await request(t.http).get(`/api/products/${res.body.product._id}`).expect(200);
    expect(fetched.body.price).toBe(420.5);
  });

  it('keeps customers and guests out', async () => {
    const body = { name: 'X', price: 1, stock: 1 };
    await request(t.http).post('/api/products').send(body).expect(401);
    const forbidden = await request(t.http)
      .post('/api/products')
      .set('Authorization', `Bearer ${customer}`)
      .send(body)
      .expect(403);
    expect(forbidden.body).toEqual({
      success: false,
      statusCode: 403,
      message: 'Access denied',
      code: 'ACCESS_DENIED',
      params: {},
    });
    const list = await request(t.http).get('/api/products?limit=1');
    await request(t.http)
      .delete(`/api/products/${list.body.products[0]._id}`)
      .set('Authorization', `Bearer ${customer}`)
      .expect(403);
  });

  it('refuses a negative price, a missing stock, a string price, unknown fields and operator objects, writing nothing', async () => {
    const before = (await request(t.http).get('/api/products?limit=1')).body.totalProducts;
    const auth = { Authorization: `Bearer ${admin}` };
    const negative = await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: 'N', price: -5, stock: 1 })
      .expect(400);
    expect(negative.body.errors.map((e: { field: string }) => e.field)).toEqual(['price']);
    const noStock = await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: 'N', price: 5 })
      .expect(400);
    expect(noStock.body.errors[0].field).toBe('stock');
    await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: 'N', price: '5', stock: 1 })
      .expect(400);
    await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: 'N', price: 5, stock: 1, priceSantim: 1 })
      .expect(400);
    await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: { $gt: '' }, price: 5, stock: 1 })
      .expect(400);
    await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: 'N', price: 5, stock: 1.5 })
      .expect(400);
    await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: 'N', price: 10, originalPrice: 8, stock: 1 })
      .expect(400);
    expect((await request(t.http).get('/api/products?limit=1')).body.totalProducts).toBe(before);
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await request(t.http)
      .post('/api/products')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'Big', price: 1, stock: 1, description: 'x'.repeat(2 * 1024 * 1024) })
      .expect(413);
    expect(res.body).toMatchObject({ success: false, statusCode: 413 });
  });

  it('updates a product with PUT and answers 404 for unknown or malformed ids', async () => {
    const created = await request(t.http)
      .post('/api/products')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'Old', price: 100, stock: 3 })
      .expect(201);
    const id = created.body.product._id;
    const updated = await request(t.http)
      .put(`/api/products/${id}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'New', price: 80, originalPrice: 100, stock: 7 })
      .expect(200);
    expect(updated.body.product).toMatchObject({
      name: 'New',
      price: 80,
      originalPrice: 100,
      discount: 20,
      stock: 7,
    });
    await request(t.http)
      .put('/api/products/000000000000000000000000')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'N', price: 1, stock: 1 })
      .expect(404);
    await request(t.http)
      .put('/api/products/nope')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'N', price: 1, stock: 1 })
      .expect(404);
  });

  it('accepts the product back as the API answered it (the spec form with _id), ignoring read-only fields', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    const list = await request(t.http).get('/api/products?limit=1').expect(200);
    const product = (await request(t.http).get(`/api/products/${list.body.products[0]._id}`).expect(200))
      .body;
    const saved = await request(t.http)
      .put(`/api/products/${product._id}`)
      .set(auth)
      .send({ ...product, price: 321.5, countInStock: product.stock + 3, rating: 1, reviewCount: 999 })
      .expect(200);
    expect(saved.body.product).toMatchObject({
      _id: product._id,
      price: 321.5,
      stock: product.stock + 3,
      rating: product.rating,
      reviewCount: product.reviewCount,
    });
  });

  it('refuses image values that are not http(s) URLs or the API own image paths', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    for (const image of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '../../etc/passwd']) {
      const res = await request(t.http)
        .post('/api/products')
        .set(auth)
        .send({ name: 'Bad image', price: 5, stock: 1, images: [image] })
        .expect(400);
      expect(res.body.errors[0].message).toBe('images must be http(s) URLs or /api/uploads/... paths');
    }
    await request(t.http)
      .post('/api/products')
      .set(auth)
      .send({ name: 'Good image', price: 5, stock: 1, image: 'https://cdn.example.et/a.png' })
      .expect(201);
  });

  it('withdraws a deleted product from the shop', async () => {
    const created = await request(t.http)
      .post('/api/products')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'Gone soon', price: 10, stock: 1 })
      .expect(201);
    const id = created.body.product._id;
    const res = await request(t.http)
      .delete(`/api/products/${id}`)
      .set('Authorization', `Bearer ${admin}`)
      .expect(200);
    expect(res.body).toEqual({ success: true, message: 'Product deleted successfully' });
    await request(t.http).get(`/api/products/${id}`).expect(404);
    const search = await request(t.http).get('/api/products?search=Gone%20soon').expect(200);
    expect(search.body.totalProducts).toBe(0);
    await request(t.http).delete(`/api/products/${id}`).set('Authorization', `Bearer ${admin}`).expect(404);
  });
});
