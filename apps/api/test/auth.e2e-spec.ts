import request from 'supertest';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

describe('auth', () => {
  let t: TestApp;
  const strong = 'Buna@2026x';

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
  });

  afterAll(async () => {
    await t.close();
  });

  it('registers a customer, answering success, token, user and message, and sets the httpOnly cookie', async () => {
    const res = await request(t.http)
      .post('/api/auth/register')
      .send({
        name: 'Meron Alemu',
        email: 'Meron@Example.et',
        password: strong,
        confirmPassword: strong,
        phone: '0911 23 45 67',
      })
      .expect(201);
    expect(res.body).toMatchObject({ success: true, message: 'Account created' });
    expect(res.body.user).toMatchObject({
      name: 'Meron Alemu',
      firstName: 'Meron',
      lastName: 'Alemu',
      email: 'meron@example.et',
      phone: '+251911234567',
      role: 'customer',
      isActive: true,
    });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    expect(typeof res.body.token).toBe('string');
    expect(res.headers['set-cookie'][0]).toMatch(/^token=.+; .*HttpOnly/);
  });

  it('accepts firstName and lastName and the role "user" as a customer', async () => {
    const res = await request(t.http)
      .post('/api/auth/register')
      .send({
        firstName: 'Abel',
        lastName: 'Tsegaye',
        email: 'abel@example.et',
        password: strong,
        role: 'user',
      })
      .expect(201);
    expect(res.body.user).toMatchObject({ name: 'Abel Tsegaye', role: 'customer' });
  });

  it('refuses a duplicate email with 409 and writes nothing', async () => {
    const res = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'X', email: 'MERON@example.et', password: strong })
      .expect(409);
    expect(res.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'An account with this email already exists',
      code: 'DUPLICATE_EMAIL',
      params: {},
    });
  });

  it('refuses the weak password "abc" and mismatched confirmation with the spec messages', async () => {
    const weak = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'W', email: 'w@example.et', password: 'abc' })
      .expect(400);
    expect(weak.body.message).toBe('Please choose a stronger password');
    const mismatch = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'W', email: 'w@example.et', password: strong, confirmPassword: 'other' })
      .expect(400);
    expect(mismatch.body.message).toBe('Passwords do not match');
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'w@example.et', password: strong })
      .expect(401);
  });

  it('refuses bad input: invalid email, unknown fields, operator objects, a foreign phone', async () => {
    const email = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'A', email: 'not-an-email', password: strong })
      .expect(400);
    expect(email.body.errors[0].field).toBe('email');
    await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'A', email: 'a1@example.et', password: strong, isAdmin: true })
      .expect(400);
    const injection = await request(t.http)
      .post('/api/auth/login')
      .send({ email: { $ne: null }, password: { $ne: null } })
      .expect(400);
    expect(injection.body.success).toBe(false);
    const phone = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'A', email: 'a2@example.et', password: strong, phone: '+254712345678' })
      .expect(400);
    expect(phone.body.errors[0].field).toBe('phone');
    await request(t.http)
      .post('/api/auth/register')
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
  });

  it('signs in with the same answer for a wrong email and a wrong password', async () => {
    const ok = await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.customer.email, password: DEMO_ACCOUNTS.customer.password })
      .expect(200);
    expect(ok.body).toMatchObject({ success: true, message: 'Signed in', user: { role: 'customer' } });
    const wrongPassword = await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.customer.email, password: 'Wrong@12345' })
      .expect(401);
    const wrongEmail = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'nobody@example.et', password: 'Wrong@12345' })
      .expect(401);
    expect(wrongPassword.body).toEqual(wrongEmail.body);
    expect(wrongEmail.body.message).toBe('Invalid email or password');
  });

  it('honours the role choice: a customer cannot sign in as admin, an admin can', async () => {
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.customer.email, password: DEMO_ACCOUNTS.customer.password, role: 'admin' })
      .expect(401);
    const admin = await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password, role: 'admin' })
      .expect(200);
    expect(admin.body.user.role).toBe('admin');
  });

  it('answers /auth/me from the Bearer header or the cookie, and 401 without or with a bad token', async () => {
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.customer.email, password: DEMO_ACCOUNTS.customer.password });
    const bearer = await request(t.http)
      .get('/api/auth/me')
      .set('Authorization', `Bearer ${login.body.token}`)
      .expect(200);
    expect(bearer.body).toMatchObject({ success: true, user: { email: DEMO_ACCOUNTS.customer.email } });
    const cookie = await request(t.http)
      .get('/api/auth/me')
      .set('Cookie', `token=${login.body.token}`)
      .expect(200);
    expect(cookie.body.user.email).toBe(DEMO_ACCOUNTS.customer.email);
    const none = await request(t.http).get('/api/auth/me').expect(401);
    expect(none.body).toMatchObject({ success: false, statusCode: 401 });
    await request(t.http).get('/api/auth/me').set('Authorization', 'Bearer forged.token.value').expect(401);
  });

  it('sets the httpOnly token cookie at sign-in, and the cookie alone authenticates', async () => {
    const res = await request(t.http)
      .post('/api/auth/login')
      .send({ email: DEMO_ACCOUNTS.customer.email, password: DEMO_ACCOUNTS.customer.password })
      .expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(cookie).toMatch(/^token=.+; .*HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const me = await request(t.http).get('/api/auth/me').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(me.body.user).not.toHaveProperty('passwordHash');
  });

  it('refuses self-promotion, weak admin passwords, duplicate admins and huge bodies, writing nothing', async () => {
    await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'Eve', email: 'eve@example.et', password: strong, role: 'admin' })
      .expect(400);
    const weak = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Weak Admin',
        email: 'weak-admin@beauty.et',
        password: 'abc',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(400);
    expect(weak.body.message).toBe('Please choose a stronger password');
    const duplicate = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Dup',
        email: DEMO_ACCOUNTS.customer.email,
        password: strong,
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(409);
    expect(duplicate.body.message).toBe('An account with this email already exists');
    const huge = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'x'.repeat(2 * 1024 * 1024), email: 'big@example.et', password: strong })
      .expect(413);
    expect(huge.body).toMatchObject({ success: false, statusCode: 413 });
    for (const email of ['eve@example.et', 'weak-admin@beauty.et', 'big@example.et']) {
      await request(t.http).post('/api/auth/login').send({ email, password: strong }).expect(401);
    }
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({
        email: DEMO_ACCOUNTS.customer.email,
        password: DEMO_ACCOUNTS.customer.password,
        role: 'customer',
      })
      .expect(200);
    expect(login.body.user.role).toBe('customer');
  });

  it('logs out by clearing the cookie', async () => {
    const res = await request(t.http).post('/api/auth/logout').expect(200);
    expect(res.body).toEqual({ success: true, message: 'Signed out' });
    expect(res.headers['set-cookie'][0]).toMatch(/^token=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('registers an admin only with the configured secret key', async () => {
    const body = { name: 'Second Admin', email: 'admin2@beauty.et', password: strong };
    const missing = await request(t.http).post('/api/auth/register-admin').send(body).expect(400);
    expect(missing.body.message).toBe('Admin secret key is required');
    const wrong = await request(t.http)
      .post('/api/auth/register-admin')
      .send({ ...body, adminSecretKey: 'guess' })
      .expect(403);
    expect(wrong.body.message).toBe('Admin registration failed');
    const ok = await request(t.http)
      .post('/api/auth/register-admin')
      .send({ ...body, adminSecretKey: t.config.adminSecretKey })
      .expect(201);
    expect(ok.body.user.role).toBe('admin');
  });

  it('refuses a deactivated user at sign-in and on an existing token', async () => {
    const reg = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'Gone', email: 'gone@example.et', password: strong })
      .expect(201);
    const { getModelToken } = await import('@nestjs/mongoose');
    await t.app
      .get(getModelToken('User'))
      .updateOne({ email: 'gone@example.et' }, { $set: { isActive: false } });
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'gone@example.et', password: strong })
      .expect(403);
    expect(login.body.message).toBe('This account has been deactivated');
    await request(t.http).get('/api/auth/me').set('Authorization', `Bearer ${reg.body.token}`).expect(401);
  });
});

describe('auth rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_RATE_LIMIT: '3' });
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers 429 in the error shape once a client exceeds the sign-in limit', async () => {
    for (let i = 0; i < 3; i++) {
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: 'nobody@example.et', password: 'Wrong@12345' })
        .expect(401);
    }
    const limited = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'nobody@example.et', password: 'Wrong@12345' })
      .expect(429);
    expect(limited.body).toEqual({
      success: false,
      statusCode: 429,
      message: 'Too many attempts, please try again in a minute',
      code: 'TOO_MANY_REQUESTS',
      params: {},
    });
    // another account from the same address (a shared mobile network) is not locked out by it
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'someone.else@example.et', password: 'Wrong@12345' })
      .expect(401);
    // but one address trying many accounts meets the wider per-address limit (ten times the account limit)
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push(
        (
          await request(t.http)
            .post('/api/auth/login')
            .send({ email: `spray${i}@example.et`, password: 'Wrong@12345' })
        ).status,
      );
    }
    expect(statuses.slice(0, 20)).not.toContain(429);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
  });
});
