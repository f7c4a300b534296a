import request from 'supertest';
import { startTestApp, type TestApp } from './support/test-app';

const MAINTENANCE = 'The shop is under maintenance. Please try again later.';

describe('maintenance mode', () => {
  let t: TestApp;
  let admin: string;
  let customer: string;
  let productId: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const setMaintenance = (on: boolean) =>
    request(t.http).put('/api/admin/settings').set(auth(admin)).send({ maintenanceMode: on }).expect(200);

  beforeAll(async () => {
    t = await startTestApp();
    admin = (
      await request(t.http)
        .post('/api/auth/register-admin')
        .send({
          name: 'Abebe Admin',
          email: 'abebe@shop.et',
          password: 'Admin@12345',
          adminSecretKey: t.config.adminSecretKey,
        })
        .expect(201)
    ).body.token;
    customer = (
      await request(t.http)
        .post('/api/auth/register')
        .send({ name: 'Hanna', email: 'hanna@example.et', password: 'Buna@2026' })
        .expect(201)
    ).body.token;
    productId = (
      await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name: 'Moringa Serum', price: 890, stock: 10 })
        .expect(201)
    ).body.product._id;
  });

  afterAll(async () => {
    await t.close();
  });

  it('lets customers write while maintenance is off', async () => {
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer))
      .send({ productId, quantity: 1 })
      .expect(200);
  });

  it('answers 503 to non-admin writes while it is on; reads keep working', async () => {
    await setMaintenance(true);
    const cart = await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer))
      .send({ productId, quantity: 1 })
      .expect(503);
    expect(cart.body).toEqual({
      success: false,
      statusCode: 503,
      message: MAINTENANCE,
      code: 'MAINTENANCE',
      params: {},
    });
    const register = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'New', email: 'new@example.et', password: 'Buna@2026' })
      .expect(503);
    expect(register.body.message).toBe(MAINTENANCE);
    // a customer's forged-looking or garbage token is just a non-admin
    await request(t.http)
      .post('/api/cart/add')
      .set(auth('garbage'))
      .send({ productId, quantity: 1 })
      .expect(503);
    await request(t.http)
      .post('/api/products')
      .set(auth(customer))
      .send({ name: 'X', price: 1, stock: 1 })
      .expect(503);

    await request(t.http).get('/api/products').expect(200);
    await request(t.http).get(`/api/products/${productId}`).expect(200);
    await request(t.http).get('/api/cart').set(auth(customer)).expect(200);
    const pub = await request(t.http).get('/api/settings/public').expect(200);
    expect(pub.body.settings.maintenanceMode).toBe(true);
  });

  it('keeps sign-in and sign-out open, and admins unaffected', async () => {
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'hanna@example.et', password: 'Buna@2026' })
      .expect(200);
    expect(login.body.success).toBe(true);
    await request(t.http)
      .post('/api/auth/logout')
      .set(auth(login.body.token))
      .expect((res) => expect(res.status).toBeLessThan(300));
    const adminLogin = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'abebe@shop.et', password: 'Admin@12345', role: 'admin' })
      .expect(200);
    // an admin writes to the shop (not only the back office), by Bearer token or by the sign-in cookie
    await request(t.http)
      .put(`/api/products/${productId}`)
      .set(auth(adminLogin.body.token))
      .send({ name: 'Moringa Serum', price: 900, stock: 9 })
      .expect(200);
    await request(t.http)
      .put(`/api/products/${productId}`)
      .set('Cookie', `token=${admin}`)
      .send({ name: 'Moringa Serum', price: 910, stock: 9 })
      .expect(200);
    await request(t.http)
      .post('/api/admin/products')
      .set(auth(admin))
      .send({ name: 'Teff Scrub', price: 120, stock: 4 })
      .expect(201);
  });

  it('treats a deactivated admin as a non-admin', async () => {
    const other = await request(t.http)
      .post('/api/admin/users')
      .set(auth(admin))
      .send({ name: 'Dawit Admin', email: 'dawit@shop.et', password: 'Admin@12345', role: 'admin' })
      .expect(201);
    const otherId = other.body.user._id ?? other.body.user.id;
    const otherToken = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: 'dawit@shop.et', password: 'Admin@12345', role: 'admin' })
        .expect(200)
    ).body.token;
    await request(t.http)
      .put(`/api/products/${productId}`)
      .set(auth(otherToken))
      .send({ name: 'Moringa Serum', price: 920, stock: 9 })
      .expect(200);
    await request(t.http)
      .put(`/api/admin/users/${otherId}/active`)
      .set(auth(admin))
      .send({ isActive: false })
      .expect(200);
    const res = await request(t.http)
      .put(`/api/products/${productId}`)
      .set(auth(otherToken))
      .send({ name: 'Moringa Serum', price: 930, stock: 9 })
      .expect(503);
    expect(res.body.message).toBe(MAINTENANCE);
  });

  it('does not block the payment provider webhook', async () => {
    const res = await request(t.http)
      .post('/api/payments/webhook')
      .send({ tx_ref: 'nope', status: 'success' });
    expect(res.status).not.toBe(503);
  });

  it('lifts the 503 as soon as an admin turns maintenance off', async () => {
    await setMaintenance(false);
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(customer))
      .send({ productId, quantity: 1 })
      .expect(200);
  });
});
