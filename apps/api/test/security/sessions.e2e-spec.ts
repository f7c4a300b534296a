import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { SessionCache } from '../../src/cache/session-cache';
import { PASSWORD, startSecurityShop, type Account, type SecurityShop } from './support';

/** Sessions that can be ended, CSRF defence of cookie writes, and no-store on personal answers (issue 16). */
describe('sessions, cookie writes and caching (issue 16)', () => {
  let shop: SecurityShop;
  beforeAll(async () => {
    shop = await startSecurityShop();
  });
  afterAll(() => shop.close());

  const me = (token: string) => request(shop.t.http).get('/api/auth/me').set(shop.auth(token));
  const login = async (account: Account, password = PASSWORD) => {
    const res = await request(shop.t.http).post('/api/auth/login').send({ email: account.email, password });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };

  it('a password change ends every earlier token and hands this session a new one', async () => {
    const customer = await shop.customer();
    const otherDevice = await login(customer);
    // both tokens in use a moment ago: the instance remembers them (session-cache.ts), and must forget
    expect((await me(customer.token)).status).toBe(200);
    expect((await me(otherDevice)).status).toBe(200);
    const res = await request(shop.t.http)
      .put('/api/users/profile/password')
      .set(shop.auth(customer.token))
      .send({ currentPassword: PASSWORD, newPassword: 'Injera@2027x' })
      .expect(200);
    expect(typeof res.body.token).toBe('string');
    expect((await me(customer.token)).status).toBe(401);
    expect((await me(otherDevice)).status).toBe(401);
    expect((await me(res.body.token)).status).toBe(200);
  });

  it('a plain logout ends only its own token; "everywhere" ends them all', async () => {
    const customer = await shop.customer();
    const second = await login(customer);
    const third = await login(customer);
    for (const token of [customer.token, second, third]) expect((await me(token)).status).toBe(200);
    await request(shop.t.http).post('/api/auth/logout').set(shop.auth(customer.token)).expect(200);
    expect((await me(customer.token)).status).toBe(401);
    expect((await me(second)).status).toBe(200);
    const everywhere = await request(shop.t.http)
      .post('/api/auth/logout')
      .set(shop.auth(second))
      .send({ everywhere: true })
      .expect(200);
    expect(everywhere.body.message).toBe('Signed out on every device');
    expect((await me(second)).status).toBe(401);
    expect((await me(third)).status).toBe(401);
    // signing in again works, and a logout without a session is still a success
    expect((await me(await login(customer))).status).toBe(200);
    await request(shop.t.http).post('/api/auth/logout').expect(200);
    await request(shop.t.http).post('/api/auth/logout').send({ everywhere: true }).expect(401);
  });

  it('deactivation ends every session for good, and a role change ends the old ones', async () => {
    const customer = await shop.customer();
    const active = (isActive: boolean) =>
      request(shop.t.http)
        .put(`/api/admin/users/${customer.id}/active`)
        .set(shop.auth(shop.admin.token))
        .send({ isActive })
        .expect(200);
    expect((await me(customer.token)).status).toBe(200);
    await active(false);
    expect((await me(customer.token)).status).toBe(401);
    await active(true);
    expect((await me(customer.token)).status).toBe(401);
    const fresh = await login(customer);
    expect((await me(fresh)).status).toBe(200);
    await request(shop.t.http)
      .put(`/api/admin/users/${customer.id}/role`)
      .set(shop.auth(shop.admin.token))
      .send({ role: 'admin' })
      .expect(200);
    expect((await me(fresh)).status).toBe(401);
    const promoted = await login(customer);
    expect((await me(promoted)).body.user.role).toBe('admin');
  });

  it("forgets a remembered token at once on the domain's account change, and within the TTL on a write it did not hear of", async () => {
    const cache = shop.t.app.get(SessionCache);
    const customer = await shop.customer();
    expect((await me(customer.token)).status).toBe(200);
    expect(cache.get(customer.token)?.id).toBe(customer.id); // remembered by this instance
    expect((await me(customer.token)).status).toBe(200);
    // a profile edit is an account change too (the signed-in identity carries name, email, phone)
    await request(shop.t.http)
      .put('/api/users/profile')
      .set(shop.auth(customer.token))
      .send({ name: 'Renamed Customer' })
      .expect(200);
    expect(cache.get(customer.token)).toBeUndefined();
    expect((await me(customer.token)).body.user.name).toBe('Renamed Customer');
    expect(cache.get(customer.token)?.name).toBe('Renamed Customer');
    // a write around the services (a script, or another instance) shows within SESSION_CACHE_TTL_MS
    const { getModelToken } = await import('@nestjs/mongoose');
    await shop.t.app
      .get(getModelToken('User'))
      .updateOne({ _id: customer.id }, { $set: { isActive: false } });
    await new Promise((resolve) => setTimeout(resolve, shop.t.config.sessionCacheTtlMs + 50));
    expect((await me(customer.token)).status).toBe(401);
  });

  it('keeps tokens issued before versions valid until their user ends them, and refuses forged versions', async () => {
    const customer = await shop.customer();
    const jwt = shop.t.app.get(JwtService);
    const legacy = await jwt.signAsync({ sub: customer.id });
    expect((await me(legacy)).status).toBe(200);
    const future = await jwt.signAsync({ sub: customer.id, ver: 7 });
    expect((await me(future)).status).toBe(401);
    const odd = await jwt.signAsync({ sub: customer.id, ver: 'x' });
    expect((await me(odd)).status).toBe(401);
    // a legacy token has no id of its own: its logout ends every session
    await request(shop.t.http).post('/api/auth/logout').set(shop.auth(legacy)).expect(200);
    expect((await me(legacy)).status).toBe(401);
    expect((await me(customer.token)).status).toBe(401);
  });

  it('refuses cookie-authenticated form and text bodies (415) and foreign origins (403); Bearer is unaffected', async () => {
    const customer = await shop.customer();
    const cookie = `token=${customer.token}`;
    const put = () => request(shop.t.http).put('/api/users/profile').set('Cookie', cookie);
    const form = await put().type('form').send('name=Forged');
    expect([form.status, form.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const text = await put().set('Content-Type', 'text/plain').send('{"name":"Forged"}');
    expect([text.status, text.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const foreign = await put().set('Origin', 'https://evil.example').send({ name: 'Forged' });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    const foreignReferer = await put().set('Referer', 'https://evil.example/page').send({ name: 'Forged' });
    expect(foreignReferer.status).toBe(403);
    const upload = await request(shop.t.http)
      .post('/api/uploads')
      .set('Cookie', `token=${shop.admin.token}`)
      .attach('image', Buffer.from('GIF89a'), 'x.gif');
    expect([upload.status, upload.body.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    const user = (await shop.model('User').findById(customer.id).lean()) as unknown as { name: string };
    expect(user.name).not.toBe('Forged');
    // our own origins and same-origin JSON pass; reads need no origin
    await put().set('Origin', shop.t.config.storefrontUrl).send({ name: 'From Storefront' }).expect(200);
    await put().set('Origin', shop.t.config.corsOrigins[0]).send({ name: 'From Admin' }).expect(200);
    await put().send({ name: 'No Origin' }).expect(200);
    await request(shop.t.http)
      .get('/api/users/profile')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .expect(200);
    // a Bearer token cannot be sent by another site: its form-encoded writes are read as before
    const bearer = await request(shop.t.http)
      .put('/api/users/profile')
      .set(shop.auth(customer.token))
      .set('Origin', 'https://evil.example')
      .type('form')
      .send('name=Bearer+Form');
    expect(bearer.status).toBe(200);
  });

  it('marks personal answers no-store, successes and refusals alike, and leaves the catalogue cacheable', async () => {
    const customer = await shop.customer();
    for (const path of [
      '/api/auth/me',
      '/api/cart',
      '/api/wishlist',
      '/api/orders/my-orders',
      '/api/users/profile',
      '/api/users/addresses',
    ]) {
      const signedIn = await request(shop.t.http).get(path).set(shop.auth(customer.token));
      expect([path, signedIn.status, signedIn.headers['cache-control']]).toEqual([path, 200, 'no-store']);
      const anonymous = await request(shop.t.http).get(path);
      expect([path, anonymous.headers['cache-control']]).toEqual([path, 'no-store']);
    }
    const admin = await request(shop.t.http)
      .get('/api/admin/users')
      .set(shop.auth(shop.admin.token))
      .expect(200);
    expect(admin.headers['cache-control']).toBe('no-store');
    const signIn = await request(shop.t.http)
      .post('/api/auth/login')
      .send({ email: customer.email, password: PASSWORD });
    expect(signIn.headers['cache-control']).toBe('no-store');
    const catalogue = await request(shop.t.http).get('/api/products').expect(200);
    expect(catalogue.headers['cache-control']).not.toBe('no-store');
  });
});
