import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Contact } from '../src/modules/contacts/schemas/contact.schema';
import { startTestApp, type TestApp } from './support/test-app';

describe('contact messages', () => {
  let t: TestApp;
  let admin: string;
  let customer: string;
  let contacts: Model<Contact>;
  let ipCounter = 1;
  /** Each test speaks from its own client address (the API trusts X-Forwarded-For from loopback). */
  const freshIp = () => `198.51.100.${ipCounter++}`;

  const valid = {
    name: 'Hana Tesfaye',
    email: 'hana@example.et',
    subject: 'Shea butter',
    message: 'Is it good for dry skin?',
  };

  const submit = (body: unknown, ip = freshIp()) =>
    request(t.http)
      .post('/api/contacts/submit')
      .set('X-Forwarded-For', ip)
      .send(body as object);

  beforeAll(async () => {
    t = await startTestApp({ CONTACT_RATE_LIMIT: '3' });
    contacts = t.app.get(getModelToken(Contact.name));
    admin = (
      await request(t.http)
        .post('/api/auth/register-admin')
        .send({
          name: 'Selam Admin',
          email: 'selam@beauty.et',
          password: 'Admin@12345',
          confirmPassword: 'Admin@12345',
          adminSecretKey: t.config.adminSecretKey,
        })
        .expect(201)
    ).body.token;
    customer = (
      await request(t.http)
        .post('/api/auth/register')
        .send({
          name: 'Abebe Kebede',
          email: 'abebe@example.et',
          password: 'Buna@2026x',
          confirmPassword: 'Buna@2026x',
        })
        .expect(201)
    ).body.token;
  });

  afterAll(async () => {
    await t.close();
  });

  it('accepts a message from a guest, stores it unread with the sender IP', async () => {
    const res = await submit(valid, '203.0.113.7').expect(201);
    expect(res.body).toEqual({
      success: true,
      message: "Your message has been sent. We'll get back to you soon.",
    });
    const stored = await contacts.findOne({ subject: 'Shea butter' }).lean();
    expect(stored).toMatchObject({
      name: 'Hana Tesfaye',
      email: 'hana@example.et',
      status: 'unread',
      ipAddress: '203.0.113.7',
    });
  });

  it('answers on the doubled /api/api prefix as well', async () => {
    await request(t.http)
      .post('/api/api/contacts/submit')
      .set('X-Forwarded-For', freshIp())
      .send({ ...valid, subject: 'Doubled prefix' })
      .expect(201);
    expect(await contacts.countDocuments({ subject: 'Doubled prefix' })).toBe(1);
  });

  it('refuses missing fields, a bad email, over-long text, operator objects and unknown fields, writing nothing', async () => {
    const before = await contacts.countDocuments();
    const missing = await submit({}).expect(400);
    expect(missing.body).toMatchObject({ success: false, statusCode: 400, message: 'Validation failed' });
    expect(new Set(missing.body.errors.map((e: { field: string }) => e.field))).toEqual(
      new Set(['name', 'email', 'subject', 'message']),
    );
    const badEmail = await submit({ ...valid, email: 'not-an-email' }).expect(400);
    expect(badEmail.body.errors.map((e: { field: string }) => e.field)).toEqual(['email']);
    await submit({ ...valid, name: '   ' }).expect(400);
    await submit({ ...valid, message: 'x'.repeat(5001) }).expect(400);
    await submit({ ...valid, subject: 's'.repeat(201) }).expect(400);
    await submit({ ...valid, email: { $gt: '' } }).expect(400);
    await submit({ ...valid, message: { $ne: null } }).expect(400);
    await submit({ ...valid, status: 'replied' }).expect(400);
    await submit({ ...valid, ipAddress: '1.2.3.4' }).expect(400);
    expect(await contacts.countDocuments()).toBe(before);
  });

  it('limits submissions per client IP per hour with 429, other addresses unaffected', async () => {
    const ip = '192.0.2.99';
    for (let i = 0; i < 3; i++) await submit({ ...valid, subject: `Limit ${i}` }, ip).expect(201);
    const limited = await submit({ ...valid, subject: 'Limit 3' }, ip).expect(429);
    expect(limited.body).toMatchObject({ success: false, statusCode: 429 });
    expect(typeof limited.body.message).toBe('string');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await contacts.countDocuments({ subject: 'Limit 3' })).toBe(0);
    await submit({ ...valid, subject: 'Other sender' }, '192.0.2.100').expect(201);
  });

  it('keeps the admin routes from guests and customers', async () => {
    const id = String((await contacts.findOne().lean())!._id);
    await request(t.http).get('/api/contacts').expect(401);
    await request(t.http).get(`/api/contacts/${id}`).expect(401);
    await request(t.http).patch(`/api/contacts/${id}/status`).send({ status: 'read' }).expect(401);
    await request(t.http).delete(`/api/contacts/${id}`).expect(401);
    const auth = { Authorization: `Bearer ${customer}` };
    const forbidden = await request(t.http).get('/api/contacts').set(auth).expect(403);
    expect(forbidden.body).toEqual({
      success: false,
      statusCode: 403,
      message: 'Access denied',
      code: 'ACCESS_DENIED',
      params: {},
    });
    await request(t.http).get(`/api/contacts/${id}`).set(auth).expect(403);
    await request(t.http).patch(`/api/contacts/${id}/status`).set(auth).send({ status: 'read' }).expect(403);
    await request(t.http).delete(`/api/contacts/${id}`).set(auth).expect(403);
    expect((await contacts.findById(id).lean())!.status).toBe('unread');
  });

  it('lists messages newest first for the admin, optionally by status', async () => {
    await submit({ ...valid, subject: 'Newest of all' }).expect(201);
    const res = await request(t.http)
      .get('/api/contacts')
      .set('Authorization', `Bearer ${admin}`)
      .expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.contacts.length).toBe(await contacts.countDocuments());
    expect(res.body.contacts[0]).toMatchObject({
      subject: 'Newest of all',
      status: 'unread',
      email: 'hana@example.et',
    });
    expect(typeof res.body.contacts[0]._id).toBe('string');
    expect(res.body.contacts[0].ipAddress).toMatch(/^198\.51\.100\./);
    const times = res.body.contacts.map((c: { createdAt: string }) => Date.parse(c.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    await request(t.http)
      .patch(`/api/contacts/${res.body.contacts[0]._id}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'replied' })
      .expect(200);
    const replied = await request(t.http)
      .get('/api/contacts?status=replied')
      .set('Authorization', `Bearer ${admin}`)
      .expect(200);
    expect(replied.body.contacts.map((c: { subject: string }) => c.subject)).toEqual(['Newest of all']);
    await request(t.http)
      .get('/api/contacts?status=archived')
      .set('Authorization', `Bearer ${admin}`)
      .expect(400);
    await request(t.http)
      .get('/api/contacts?status[$ne]=read')
      .set('Authorization', `Bearer ${admin}`)
      .expect(400);
  });

  it('shows one message, updates its status and deletes it', async () => {
    await submit({ ...valid, subject: 'Lifecycle' }).expect(201);
    const id = String((await contacts.findOne({ subject: 'Lifecycle' }).lean())!._id);
    const auth = { Authorization: `Bearer ${admin}` };
    const one = await request(t.http).get(`/api/contacts/${id}`).set(auth).expect(200);
    expect(one.body).toMatchObject({
      success: true,
      contact: { _id: id, subject: 'Lifecycle', status: 'unread', message: valid.message },
    });

    for (const status of ['read', 'replied', 'unread']) {
      const updated = await request(t.http)
        .patch(`/api/contacts/${id}/status`)
        .set(auth)
        .send({ status })
        .expect(200);
      expect(updated.body).toMatchObject({ success: true, contact: { _id: id, status } });
    }
    const bad = await request(t.http)
      .patch(`/api/contacts/${id}/status`)
      .set(auth)
      .send({ status: 'archived' })
      .expect(400);
    expect(bad.body.errors[0].field).toBe('status');
    await request(t.http)
      .patch(`/api/contacts/${id}/status`)
      .set(auth)
      .send({ status: { $ne: 'x' } })
      .expect(400);
    await request(t.http).patch(`/api/contacts/${id}/status`).set(auth).send({}).expect(400);
    expect((await contacts.findById(id).lean())!.status).toBe('unread');

    const deleted = await request(t.http).delete(`/api/contacts/${id}`).set(auth).expect(200);
    expect(deleted.body).toEqual({ success: true, message: 'Contact deleted successfully' });
    expect(await contacts.findById(id).lean()).toBeNull();
    const again = await request(t.http).delete(`/api/contacts/${id}`).set(auth).expect(404);
    expect(again.body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Contact not found',
      code: 'CONTACT_NOT_FOUND',
      params: {},
    });
  });

  it('answers 404 for unknown and malformed ids', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    for (const id of ['000000000000000000000000', 'nope']) {
      await request(t.http).get(`/api/contacts/${id}`).set(auth).expect(404);
      await request(t.http)
        .patch(`/api/contacts/${id}/status`)
        .set(auth)
        .send({ status: 'read' })
        .expect(404);
      await request(t.http).delete(`/api/contacts/${id}`).set(auth).expect(404);
    }
  });
});
