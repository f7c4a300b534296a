import { createHmac } from 'node:crypto';
import request from 'supertest';
import { expectErrorShape, PASSWORD, startSecurityShop, type SecurityShop } from './support';

const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An HS256 JWT made by hand, so that every field (alg, exp, signature) is under the test's control. */
function jwt(
  payload: Record<string, unknown>,
  secret: string,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
): string {
  const head = `${b64url(header)}.${b64url(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);

/** OWASP API2:2023 Broken Authentication: only genuine, current tokens of active users open the door. */
describe('API2 authentication', () => {
  let shop: SecurityShop;
  let secret: string;

  beforeAll(async () => {
    shop = await startSecurityShop();
    secret = shop.t.config.jwt.secret;
  });

  afterAll(() => shop.close());

  const me = (token: string) =>
    request(shop.t.http).get('/api/auth/me').set('Authorization', `Bearer ${token}`);
  const adminStats = (token: string) =>
    request(shop.t.http).get('/api/admin/dashboard/stats').set('Authorization', `Bearer ${token}`);

  it('accepts a token it signed (the control case)', async () => {
    const customer = await shop.customer();
    await me(customer.token).expect(200);
    await me(jwt({ sub: customer.id, iat: now(), exp: now() + 600 }, secret)).expect(200);
  });

  it('refuses a token whose payload was altered after signing (customer made admin)', async () => {
    const customer = await shop.customer();
    const [head, , signature] = customer.token.split('.');
    const forged = `${head}.${b64url({ sub: shop.admin.id, role: 'admin', iat: now(), exp: now() + 600 })}.${signature}`;
    const res = await adminStats(forged).expect(401);
    expectErrorShape(res.body, 401);
    await me(forged).expect(401);
  });

  it('refuses alg "none" tokens, with or without a signature part', async () => {
    const payload = { sub: shop.admin.id, iat: now(), exp: now() + 600 };
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
    await adminStats(unsigned).expect(401);
    await adminStats(unsigned.slice(0, -1)).expect(401);
    await adminStats(jwt(payload, secret, { alg: 'none', typ: 'JWT' })).expect(401);
  });

  it('refuses a token signed with another secret', async () => {
    await adminStats(
      jwt({ sub: shop.admin.id, iat: now(), exp: now() + 600 }, 'not-the-server-secret'),
    ).expect(401);
    await adminStats(jwt({ sub: shop.admin.id, iat: now(), exp: now() + 600 }, '')).expect(401);
  });

  it('applies the same checks to the token cookie as to the Authorization header', async () => {
    const customer = await shop.customer();
    const cookie = (token: string) =>
      request(shop.t.http).get('/api/auth/me').set('Cookie', `token=${token}`);
    await cookie(customer.token).expect(200);
    await cookie(jwt({ sub: shop.admin.id, iat: now(), exp: now() + 600 }, 'not-the-server-secret')).expect(
      401,
    );
    await cookie(jwt({ sub: customer.id, iat: now() - 7200, exp: now() - 60 }, secret)).expect(401);
    await cookie(`${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: shop.admin.id })}.`).expect(401);
    await request(shop.t.http).get('/api/admin/users').set('Cookie', `token=${customer.token}`).expect(403);
  });

  it('refuses an expired token signed with the real secret', async () => {
    const expired = jwt({ sub: shop.admin.id, iat: now() - 7200, exp: now() - 60 }, secret);
    const res = await adminStats(expired).expect(401);
    expect(res.body).toEqual({
      success: false,
      statusCode: 401,
      message: 'Invalid or expired token',
      code: 'INVALID_TOKEN',
      params: {},
    });
  });

  it('refuses malformed tokens and ids without a 500', async () => {
    for (const token of [
      'garbage',
      'a.b.c',
      jwt({ sub: 'not-an-object-id' }, secret),
      jwt({ sub: { $ne: null } }, secret),
      jwt({}, secret),
    ]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expectErrorShape(res.body, 401);
    }
  });

  it("refuses a deactivated user's still-valid token, and their sign-in", async () => {
    const customer = await shop.customer();
    await me(customer.token).expect(200);
    await request(shop.t.http)
      .put(`/api/admin/users/${customer.id}/active`)
      .set(shop.auth(shop.admin.token))
      .send({ isActive: false })
      .expect(200);
    await me(customer.token).expect(401);
    await request(shop.t.http).get('/api/cart').set(shop.auth(customer.token)).expect(401);
    const login = await request(shop.t.http)
      .post('/api/auth/login')
      .send({ email: customer.email, password: PASSWORD });
    expect([401, 403]).toContain(login.status);
    expect(login.body.token).toBeUndefined();
  });

  describe('brute force', () => {
    let limited: SecurityShop;

    beforeAll(async () => {
      limited = await startSecurityShop({ AUTH_RATE_LIMIT: '5' });
    });

    afterAll(() => limited.close());

    it('answers 429 in the error shape once a client exceeds the sign-in limit, even with the right password', async () => {
      const customer = await limited.customer();
      const attempt = (password: string) =>
        request(limited.t.http).post('/api/auth/login').send({ email: customer.email, password });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await attempt(`Wrong@${i}xyz`)).status);
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
      const blocked = await attempt(PASSWORD).expect(429);
      expectErrorShape(blocked.body, 429);
      expect(blocked.body.token).toBeUndefined();
    });
  });
});
