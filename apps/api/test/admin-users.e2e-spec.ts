import request from 'supertest';
import { startTestApp, type TestApp } from './support/test-app';

describe('admin API: users', () => {
  let t: TestApp;
  let owner: { token: string; id: string };
  let customer: { token: string; id: string };
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const asOwner = () => auth(owner.token);

  beforeAll(async () => {
    t = await startTestApp();
    const a = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Abebe Owner',
        email: 'owner@shop.et',
        password: 'Admin@12345',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    owner = { token: a.body.token, id: a.body.user._id };
    const c = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'Hanna Tesfaye', email: 'hanna@example.et', password: 'Buna@2026' })
      .expect(201);
    customer = { token: c.body.token, id: c.body.user._id };
    for (const [name, email] of [
      ['Dawit Alemu', 'dawit@example.et'],
      ['Meron Haile', 'meron+test@example.et'],
      ['Tigist Bekele', 'tigist@example.et'],
    ]) {
      await request(t.http)
        .post('/api/auth/register')
        .send({ name, email, password: 'Buna@2026' })
        .expect(201);
    }
  });

  afterAll(async () => {
    await t.close();
  });

  it('keeps guests (401) and customers (403) out of every user route', async () => {
    const id = customer.id;
    const routes = [
      () => request(t.http).get('/api/admin/users'),
      () => request(t.http).get(`/api/admin/users/${id}`),
      () =>
        request(t.http)
          .post('/api/admin/users')
          .send({ name: 'X', email: 'x@example.et', password: 'Buna@2026' }),
      () => request(t.http).put(`/api/admin/users/${id}/role`).send({ role: 'admin' }),
      () => request(t.http).put(`/api/admin/users/${id}/active`).send({ isActive: false }),
      () => request(t.http).delete(`/api/admin/users/${id}`),
    ];
    for (const route of routes) {
      await route().expect(401);
      await route().set(auth(customer.token)).expect(403);
    }
    expect((await request(t.http).get(`/api/admin/users/${id}`).set(asOwner()).expect(200)).body.role).toBe(
      'customer',
    );
  });

  it('lists users react-admin style with role and text filters, sort and range', async () => {
    const all = await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{}' })
      .set(asOwner())
      .expect(200);
    expect(all.body).toHaveLength(5);
    expect(all.headers['content-range']).toBe('users 0-4/5');
    expect(all.body[0]).toMatchObject({
      id: all.body[0]._id,
      role: expect.stringMatching(/customer|admin/),
      isActive: true,
    });
    expect(all.body[0]).not.toHaveProperty('passwordHash');

    const admins = await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{"role":"admin"}' })
      .set(asOwner())
      .expect(200);
    expect(admins.body.map((u: { email: string }) => u.email)).toEqual(['owner@shop.et']);
    const customers = await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{"role":"user"}' })
      .set(asOwner())
      .expect(200);
    expect(customers.headers['content-range']).toBe('users 0-3/4');

    const byName = await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{"q":"meron"}' })
      .set(asOwner())
      .expect(200);
    expect(byName.body.map((u: { name: string }) => u.name)).toEqual(['Meron Haile']);
    // '+' and '.' are literal text, not regular expression syntax
    const literal = await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{"q":"meron+test@"}' })
      .set(asOwner())
      .expect(200);
    expect(literal.body).toHaveLength(1);
    const regex = await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{"q":"^.*$"}' })
      .set(asOwner())
      .expect(200);
    expect(regex.body).toEqual([]);

    const sorted = await request(t.http)
      .get('/api/admin/users')
      .query({ sort: '["name","ASC"]', range: '[0,1]' })
      .set(asOwner())
      .expect(200);
    expect(sorted.body.map((u: { name: string }) => u.name)).toEqual(['Abebe Owner', 'Dawit Alemu']);
    expect(sorted.headers['content-range']).toBe('users 0-1/5');

    await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{"role":"root"}' })
      .set(asOwner())
      .expect(400);
    await request(t.http)
      .get('/api/admin/users')
      .query({ filter: '{"email":{"$regex":".*"}}' })
      .set(asOwner())
      .expect(400);
    await request(t.http)
      .get('/api/admin/users')
      .query({ sort: '["passwordHash","ASC"]' })
      .set(asOwner())
      .expect(400);
  });

  it('creates users with a role ("user" read as customer), the password rule and 409 on duplicates', async () => {
    const created = await request(t.http)
      .post('/api/admin/users')
      .set(asOwner())
      .send({ name: 'Sara Girma', email: 'Sara@Example.et', password: 'Buna@2026', role: 'user' })
      .expect(201);
    expect(created.body).toMatchObject({
      success: true,
      message: 'User created',
      user: { email: 'sara@example.et', role: 'customer', isActive: true },
    });
    expect(created.body.id).toBe(created.body.user.id);
    const login = await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'sara@example.et', password: 'Buna@2026' })
      .expect(200);
    expect(login.body.user.role).toBe('customer');

    const adminUser = await request(t.http)
      .post('/api/admin/users')
      .set(asOwner())
      .send({ name: 'Second Admin', email: 'second@shop.et', password: 'Admin@12345', role: 'admin' })
      .expect(201);
    expect(adminUser.body.user.role).toBe('admin');

    const weak = await request(t.http)
      .post('/api/admin/users')
      .set(asOwner())
      .send({ name: 'Weak', email: 'weak@example.et', password: 'abc' })
      .expect(400);
    expect(weak.body.message).toBe('Please choose a stronger password');
    const dup = await request(t.http)
      .post('/api/admin/users')
      .set(asOwner())
      .send({ name: 'Dup', email: 'SARA@example.et', password: 'Buna@2026' })
      .expect(409);
    expect(dup.body).toMatchObject({ success: false, statusCode: 409 });
    await request(t.http)
      .post('/api/admin/users')
      .set(asOwner())
      .send({ name: 'Bad', email: 'bad@example.et', password: 'Buna@2026', role: 'root' })
      .expect(400);
    await request(t.http)
      .post('/api/admin/users')
      .set(asOwner())
      .send({ name: 'Bad', email: 'bad@example.et', password: 'Buna@2026', isActive: false })
      .expect(400);
    await request(t.http)
      .post('/api/admin/users')
      .set(asOwner())
      .send({ name: 'Bad', email: { $gt: '' }, password: 'Buna@2026' })
      .expect(400);
    expect(
      (await request(t.http).get('/api/admin/users').query({ filter: '{"q":"bad@"}' }).set(asOwner())).body,
    ).toEqual([]);
  });

  it('changes roles and activation with the spec messages, audited', async () => {
    const role = await request(t.http)
      .put(`/api/admin/users/${customer.id}/role`)
      .set(asOwner())
      .send({ role: 'admin' })
      .expect(200);
    expect(role.body).toMatchObject({
      success: true,
      message: 'User role updated successfully',
      user: { id: customer.id, role: 'admin' },
    });
    const back = await request(t.http)
      .put(`/api/admin/users/${customer.id}/role`)
      .set(asOwner())
      .send({ role: 'user' })
      .expect(200);
    expect(back.body.user.role).toBe('customer');

    const off = await request(t.http)
      .put(`/api/admin/users/${customer.id}/active`)
      .set(asOwner())
      .send({ isActive: false })
      .expect(200);
    expect(off.body).toMatchObject({
      success: true,
      message: 'User status updated successfully',
      user: { isActive: false },
    });
    // a deactivated user's token stops working
    await request(t.http).get('/api/auth/me').set(auth(customer.token)).expect(401);
    await request(t.http)
      .put(`/api/admin/users/${customer.id}/active`)
      .set(asOwner())
      .send({ isActive: true })
      .expect(200);
    // reactivation does not revive the tokens the deactivation ended: the customer signs in again
    await request(t.http).get('/api/auth/me').set(auth(customer.token)).expect(401);
    customer.token = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: 'hanna@example.et', password: 'Buna@2026' })
        .expect(200)
    ).body.token;
    await request(t.http).get('/api/auth/me').set(auth(customer.token)).expect(200);

    await request(t.http)
      .put(`/api/admin/users/${customer.id}/active`)
      .set(asOwner())
      .send({ isActive: 'no' })
      .expect(400);
    await request(t.http)
      .put(`/api/admin/users/${customer.id}/role`)
      .set(asOwner())
      .send({ role: 'root' })
      .expect(400);
    await request(t.http)
      .put('/api/admin/users/000000000000000000000000/role')
      .set(asOwner())
      .send({ role: 'admin' })
      .expect(404);

    const audit = await request(t.http)
      .get('/api/admin/audit')
      .query({
        filter: JSON.stringify({ entity: 'user', entityId: customer.id }),
        sort: '["createdAt","ASC"]',
      })
      .set(asOwner())
      .expect(200);
    expect(
      audit.body.map((e: { action: string; from: unknown; to: unknown }) => [e.action, e.from, e.to]),
    ).toEqual([
      ['user.role', 'customer', 'admin'],
      ['user.role', 'admin', 'customer'],
      ['user.active', true, false],
      ['user.active', false, true],
    ]);
    expect(audit.body[0]).toMatchObject({ actor: owner.id, actorEmail: 'owner@shop.et' });
  });

  it('never lets an admin delete, deactivate or demote themself', async () => {
    const demote = await request(t.http)
      .put(`/api/admin/users/${owner.id}/role`)
      .set(asOwner())
      .send({ role: 'customer' })
      .expect(409);
    expect(demote.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'You cannot change your own role',
      code: 'OWN_ROLE',
      params: {},
    });
    const deactivate = await request(t.http)
      .put(`/api/admin/users/${owner.id}/active`)
      .set(asOwner())
      .send({ isActive: false })
      .expect(409);
    expect(deactivate.body.message).toBe('You cannot deactivate your own account');
    const remove = await request(t.http).delete(`/api/admin/users/${owner.id}`).set(asOwner()).expect(409);
    expect(remove.body.message).toBe('You cannot delete your own account');
    expect((await request(t.http).get(`/api/admin/users/${owner.id}`).set(asOwner())).body).toMatchObject({
      role: 'admin',
      isActive: true,
    });
  });

  it('never removes, deactivates or demotes the last active admin', async () => {
    const second = (
      await request(t.http).get('/api/admin/users').query({ filter: '{"q":"second@shop.et"}' }).set(asOwner())
    ).body[0];
    const secondToken = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: 'second@shop.et', password: 'Admin@12345' })
        .expect(200)
    ).body.token;
    // two active admins: the second may deactivate the owner...
    await request(t.http)
      .put(`/api/admin/users/${owner.id}/active`)
      .set(auth(secondToken))
      .send({ isActive: false })
      .expect(200);
    // ...after which the second is the last active admin, and the (inactive) owner's token no longer works
    await request(t.http).get('/api/admin/users').set(asOwner()).expect(401);
    const [demote, off, gone] = await Promise.all([
      request(t.http)
        .put(`/api/admin/users/${second.id}/role`)
        .set(auth(secondToken))
        .send({ role: 'customer' }),
      request(t.http)
        .put(`/api/admin/users/${second.id}/active`)
        .set(auth(secondToken))
        .send({ isActive: false }),
      request(t.http).delete(`/api/admin/users/${second.id}`).set(auth(secondToken)),
    ]);
    expect([demote.status, off.status, gone.status]).toEqual([409, 409, 409]);
    // an inactive admin is not counted: promoting a customer makes the owner removable
    await request(t.http)
      .put(`/api/admin/users/${customer.id}/role`)
      .set(auth(secondToken))
      .send({ role: 'admin' })
      .expect(200);
    const demoteOwner = await request(t.http)
      .put(`/api/admin/users/${owner.id}/role`)
      .set(auth(secondToken))
      .send({ role: 'customer' })
      .expect(200);
    expect(demoteOwner.body.user.role).toBe('customer');
    await request(t.http)
      .put(`/api/admin/users/${owner.id}/active`)
      .set(auth(secondToken))
      .send({ isActive: true })
      .expect(200);
    await request(t.http)
      .put(`/api/admin/users/${owner.id}/role`)
      .set(auth(secondToken))
      .send({ role: 'admin' })
      .expect(200);
    // the owner's sessions ended with the deactivation and the role changes: signing in again works
    await request(t.http).get('/api/admin/users').set(asOwner()).expect(401);
    owner.token = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: 'owner@shop.et', password: 'Admin@12345' })
        .expect(200)
    ).body.token;
    await request(t.http).get('/api/admin/users').set(asOwner()).expect(200);
  });

  it('deletes a user with the spec message; 404 afterwards', async () => {
    const victim = (
      await request(t.http).get('/api/admin/users').query({ filter: '{"q":"tigist@"}' }).set(asOwner())
    ).body[0];
    const res = await request(t.http).delete(`/api/admin/users/${victim.id}`).set(asOwner()).expect(200);
    expect(res.body).toEqual({ success: true, message: 'User deleted successfully', id: victim.id });
    await request(t.http).get(`/api/admin/users/${victim.id}`).set(asOwner()).expect(404);
    await request(t.http).delete(`/api/admin/users/${victim.id}`).set(asOwner()).expect(404);
    await request(t.http).delete('/api/admin/users/not-an-id').set(asOwner()).expect(404);
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'tigist@example.et', password: 'Buna@2026' })
      .expect(401);
  });
});
