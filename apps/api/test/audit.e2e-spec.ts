import request from 'supertest';
import { AuditService } from '../src/modules/audit/audit.service';
import { startTestApp, type TestApp } from './support/test-app';

describe('audit trail', () => {
  let t: TestApp;
  let admin: { token: string; id: string };
  let customer: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await startTestApp();
    const a = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Abebe Admin',
        email: 'abebe@shop.et',
        password: 'Admin@12345',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = { token: a.body.token, id: a.body.user._id };
    customer = (
      await request(t.http)
        .post('/api/auth/register')
        .send({ name: 'Hanna', email: 'hanna@example.et', password: 'Buna@2026' })
        .expect(201)
    ).body.token;
    const audit = t.app.get(AuditService);
    const actor = { id: admin.id, email: 'abebe@shop.et' };
    await audit.record(actor, {
      entity: 'order',
      entityId: 'o1',
      action: 'order.status',
      from: 'pending',
      to: 'processing',
    });
    await audit.record(actor, {
      entity: 'order',
      entityId: 'o1',
      action: 'order.status',
      from: 'processing',
      to: 'shipped',
    });
    await audit.record(undefined, {
      entity: 'order',
      entityId: 'o2',
      action: 'order.paymentStatus',
      from: 'unpaid',
      to: 'paid',
    });
    await audit.record(actor, {
      entity: 'product',
      entityId: 'p1',
      action: 'product.price',
      from: 100,
      to: 90,
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('is readable by admins only', async () => {
    await request(t.http).get('/api/admin/audit').expect(401);
    await request(t.http).get('/api/admin/audit').set(auth(customer)).expect(403);
  });

  it('lists who changed what and when, newest first, with Content-Range', async () => {
    const res = await request(t.http).get('/api/admin/audit').set(auth(admin.token)).expect(200);
    expect(res.headers['content-range']).toBe('audit 0-3/4');
    expect(res.body[0]).toMatchObject({
      id: res.body[0]._id,
      entity: 'product',
      action: 'product.price',
      from: 100,
      to: 90,
      actor: admin.id,
      actorEmail: 'abebe@shop.et',
      createdAt: expect.any(String),
    });
    const system = res.body.find((e: { entityId: string }) => e.entityId === 'o2');
    expect(system).toMatchObject({ actor: null, actorEmail: null });
    const one = await request(t.http)
      .get(`/api/admin/audit/${res.body[0].id}`)
      .set(auth(admin.token))
      .expect(200);
    expect(one.body.action).toBe('product.price');
    await request(t.http).get('/api/admin/audit/000000000000000000000000').set(auth(admin.token)).expect(404);
  });

  it('filters by entity, entity id, action and actor', async () => {
    const q = (filter: object) =>
      request(t.http)
        .get('/api/admin/audit')
        .query({ filter: JSON.stringify(filter), sort: '["createdAt","ASC"]' })
        .set(auth(admin.token));
    const o1 = await q({ entity: 'order', entityId: 'o1' }).expect(200);
    expect(o1.body.map((e: { to: string }) => e.to)).toEqual(['processing', 'shipped']);
    expect((await q({ action: 'order.paymentStatus' }).expect(200)).body).toHaveLength(1);
    expect((await q({ actor: admin.id }).expect(200)).body).toHaveLength(3);
    await q({ entity: 'galaxy' }).expect(400);
    await q({ entityId: { $ne: null } }).expect(400);
    await q({ who: 'me' }).expect(400);
  });

  it("keeps the admin's name and what made a change without anyone signed in", async () => {
    const audit = t.app.get(AuditService);
    await audit.record(
      { id: admin.id, email: 'abebe@shop.et', name: 'Abebe Admin' },
      { entity: 'user', entityId: 'u9', action: 'user.role', from: 'customer', to: 'admin' },
    );
    await audit.record(undefined, {
      entity: 'order',
      entityId: 'o9',
      action: 'order.paymentStatus',
      from: 'unpaid',
      to: 'paid',
      source: 'webhook',
    });
    const list = (filter: object) =>
      request(t.http)
        .get('/api/admin/audit')
        .query({ filter: JSON.stringify(filter) })
        .set(auth(admin.token))
        .expect(200);
    expect((await list({ entityId: 'u9' })).body[0]).toMatchObject({
      actorName: 'Abebe Admin',
      actorEmail: 'abebe@shop.et',
      source: null,
    });
    expect((await list({ entityId: 'o9' })).body[0]).toMatchObject({
      actor: null,
      actorName: null,
      source: 'webhook',
    });
  });
});
