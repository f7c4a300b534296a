import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { NotificationsService } from '../src/modules/notifications/notifications.service';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { Settings, SETTINGS_KEY } from '../src/modules/settings/schemas/settings.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { mails, sleep, waitForMails } from './support/mail';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };

describe('notifications: outbox, local SMTP server, messages', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: string;
  let outbox: Model<Notification>;
  let settings: Model<Settings>;
  const newCustomer = customerFactory(() => t, 'notify', 'Notify Customer');
  const adminEmail = DEMO_ACCOUNTS.admin.email.toLowerCase();

  const makeProduct = async (fields: Record<string, unknown>) =>
    (
      await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ images: ['/api/assets/products/x.svg'], ...fields })
        .expect(201)
    ).body.product._id as string;
  const buy = async (token: string, productId: string, quantity = 1, paymentMethod = 'chapa') => {
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity }).expect(200);
    const res = await request(t.http)
      .post('/api/orders')
      .set(auth(token))
      .send({ shippingAddress: address, paymentMethod })
      .expect(201);
    return res.body.order as { _id: string; orderNumber?: string };
  };
  const setSwitches = (fields: Partial<Settings>) =>
    settings.updateOne({ key: SETTINGS_KEY }, { $set: fields }, { upsert: true }).exec();
  const emailOf = async (token: string) =>
    (await request(t.http).get('/api/auth/me').set(auth(token)).expect(200)).body.user?.email ??
    (await request(t.http).get('/api/auth/me').set(auth(token))).body.email;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'notify-'));
    t = await startTestApp({
      DATA_DIR: dataDir,
      NOTIFICATIONS_INTERVAL_MS: '100',
      NOTIFICATIONS_BACKOFF_MS: '50',
      STOREFRONT_URL: 'https://shop.test',
    });
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    outbox = t.app.get(getModelToken(Notification.name));
    settings = t.app.get(getModelToken(Settings.name));
    await setSwitches({ adminEmail });
  });

  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('mails the customer the order (number, lines, totals, address) and the shop its new order, once each', async () => {
    const customer = await newCustomer();
    const email = await emailOf(customer.token);
    const cream = await makeProduct({ name: 'Shea Butter Cream', price: 450.5, stock: 50 });
    const order = await buy(customer.token, cream, 2);
    const number = order.orderNumber ?? order._id.slice(-8).toUpperCase();

    const [mail] = await waitForMails(t, admin, email, /We received your order/);
    expect(mail.subject).toBe(`We received your order ${number}`);
    expect(mail.text).toContain('2 × Shea Butter Cream — ETB 901.00');
    expect(mail.text).toMatch(/Total: ETB [\d,]+\.\d\d/);
    expect(mail.text).toContain('Bole Road, House 12');
    expect(mail.text).toContain(`https://shop.test/order-confirmation/${order._id}`);
    expect(mail.html).toContain('<li>2 × Shea Butter Cream — ETB 901.00</li>');
    const [notice] = await waitForMails(t, admin, adminEmail, new RegExp(`New order ${number}`));
    expect(notice.text).toContain(email);

    await sleep(400); // the worker runs several more times: nothing is sent twice
    expect((await mails(t, admin, email)).filter((m) => /We received/.test(m.subject))).toHaveLength(1);
    const rows = await outbox.find({ eventKey: new RegExp(`^order.placed:${order._id}`) }).lean();
    expect(rows.map((r) => [r.template, r.state, r.attempts]).sort()).toEqual([
      ['adminNewOrder', 'sent', 1],
      ['orderPlaced', 'sent', 1],
    ]);
  });

  it("writes in the customer's language: Amharic subject, lines and totals", async () => {
    const customer = await newCustomer();
    const email = await emailOf(customer.token);
    await request(t.http)
      .put('/api/users/profile')
      .set(auth(customer.token))
      .send({ language: 'am' })
      .expect(200);
    const oil = await makeProduct({ name: 'Argan Oil', price: 300, stock: 50 });
    const order = await buy(customer.token, oil, 1);
    const number = order.orderNumber ?? order._id.slice(-8).toUpperCase();
    const [mail] = await waitForMails(t, admin, email, /ደርሶናል/);
    expect(mail.subject).toBe(`ትዕዛዝዎ ${number} ደርሶናል`);
    expect(mail.text).toContain('1 × Argan Oil፦ 300.00 ብር');
    expect(mail.text).toMatch(/ጠቅላላ፦ [\d,]+\.\d\d ብር/);
    expect(mail.html).toContain('lang="am"');
  });

  it('tells the customer shipped (with tracking), delivered and cancelled, once per change even when triggered concurrently', async () => {
    const customer = await newCustomer();
    const email = await emailOf(customer.token);
    const soap = await makeProduct({ name: 'Black Soap', price: 120, stock: 50 });
    // pay on delivery: an unpaid Chapa order may not be shipped (docs/decisions/0080)
    const order = await buy(customer.token, soap, 1, 'cash_on_delivery');
    const status = (s: string, extra: Record<string, unknown> = {}) =>
      request(t.http)
        .patch(`/api/orders/${order._id}/status`)
        .set(auth(admin))
        .send({ status: s, ...extra });
    await status('processing').expect(200);
    const both = await Promise.all([
      status('shipped', { trackingNumber: 'ET-TRACK-77' }),
      status('shipped', { trackingNumber: 'ET-TRACK-77' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 200]);
    const [shipped] = await waitForMails(t, admin, email, /is on its way/);
    expect(shipped.text).toContain('Tracking number: ET-TRACK-77');
    await status('delivered').expect(200);
    await waitForMails(t, admin, email, /was delivered/);
    await sleep(300);
    const subjects = (await mails(t, admin, email)).map((m) => m.subject);
    expect(subjects.filter((s) => /on its way/.test(s))).toHaveLength(1);
    expect(subjects.filter((s) => /delivered/.test(s))).toHaveLength(1);
    expect(subjects.filter((s) => /processing/i.test(s))).toHaveLength(0);

    const other = await buy(customer.token, soap, 1);
    await request(t.http).patch(`/api/orders/${other._id}/cancel`).set(auth(customer.token)).expect(200);
    const [cancelled] = await waitForMails(t, admin, email, /was cancelled/);
    expect(cancelled.text).not.toContain('refund');
  });

  it('sends payment received, and payment failed with a link to pay again', async () => {
    const customer = await newCustomer();
    const email = await emailOf(customer.token);
    const balm = await makeProduct({ name: 'Lip Balm', price: 80, stock: 50 });
    const pay = async (orderId: string, outcome: 'success' | 'failed') => {
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
    const first = await buy(customer.token, balm);
    await pay(first._id, 'failed');
    const [failed] = await waitForMails(t, admin, email, /did not go through/);
    expect(failed.text).toContain(`https://shop.test/order-confirmation/${first._id}`);
    await pay(first._id, 'success');
    const [paid] = await waitForMails(t, admin, email, /Payment received/);
    expect(paid.text).toMatch(/We received your payment of ETB [\d,.]+/);

    // a paid order that is cancelled: the customer is told a refund is pending
    await request(t.http)
      .patch(`/api/orders/${first._id}/status`)
      .set(auth(admin))
      .send({ status: 'cancelled' })
      .expect(200);
    const [cancelled] = await waitForMails(t, admin, email, /was cancelled/);
    expect(cancelled.text).toContain('a refund is pending');
  });

  it('writes payment messages in the settlement’s transaction: a fault leaves the payment unsettled, the retry settles and tells once', async () => {
    const customer = await newCustomer();
    const email = await emailOf(customer.token);
    const toner = await makeProduct({ name: 'Rose Toner', price: 95, stock: 50 });
    const service = t.app.get(NotificationsService);
    const audits = t.app.get<Model<{ entityId: string; action: string }>>(getModelToken('AuditEntry'));
    for (const outcome of ['failed', 'success'] as const) {
      const order = await buy(customer.token, toner);
      const { txRef } = (
        await request(t.http)
          .post('/api/payments/initialize')
          .set(auth(customer.token))
          .send({ orderId: order._id })
          .expect(201)
      ).body;
      const fault = jest
        .spyOn(service, 'enqueue')
        .mockRejectedValueOnce(new Error('outbox fault inside the settlement'));
      try {
        await request(t.http)
          .post(`/api/payments/test/${txRef}/complete`)
          .set(auth(customer.token))
          .send({ outcome })
          .expect(500);
      } finally {
        fault.mockRestore();
      }
      // nothing of the settlement stayed: order unpaid, no audit entry, no message
      const unsettled = (await request(t.http).get(`/api/orders/${order._id}`).set(auth(customer.token)))
        .body;
      expect((unsettled.order ?? unsettled).paymentStatus).toBe('unpaid');
      expect(await audits.countDocuments({ entityId: order._id, action: 'order.paymentStatus' })).toBe(0);
      expect(
        await outbox.countDocuments({
          eventKey: new RegExp(`^payment\\.(paid|failed):(${order._id}|${txRef})$`),
        }),
      ).toBe(0);
      // the next check settles it, with its message, once (a repeat check changes nothing)
      const verified = await request(t.http)
        .get(`/api/payments/verify/${txRef}`)
        .set(auth(customer.token))
        .expect(200);
      expect(verified.body.status).toBe(outcome === 'success' ? 'paid' : 'failed');
      await request(t.http).get(`/api/payments/verify/${txRef}`).set(auth(customer.token)).expect(200);
      const subject = new RegExp(
        `${outcome === 'success' ? 'Payment received for order' : 'Payment for order'} ${order.orderNumber}`,
      );
      await waitForMails(t, admin, email, subject);
      await sleep(300);
      expect((await mails(t, admin, email)).filter((m) => subject.test(m.subject))).toHaveLength(1);
      expect(await audits.countDocuments({ entityId: order._id, action: 'order.paymentStatus' })).toBe(1);
    }
  });

  it('tells the shop about contact messages and products crossing their low-stock threshold', async () => {
    await request(t.http)
      .post('/api/contacts/submit')
      .send({
        name: 'Sara Bekele',
        email: 'sara@example.et',
        subject: 'Wholesale',
        message: 'Do you sell in bulk?',
      })
      .expect(201);
    const [contact] = await waitForMails(t, admin, adminEmail, /New message from Sara Bekele: Wholesale/);
    expect(contact.text).toContain('Do you sell in bulk?');

    const customer = await newCustomer();
    const mask = await makeProduct({
      name: 'Clay Mask',
      sku: 'CLAY-1',
      price: 200,
      stock: 7,
      lowStockThreshold: 5,
    });
    await buy(customer.token, mask, 1); // 6 left: above the threshold
    await buy(customer.token, mask, 2); // 4 left: crosses it
    await buy(customer.token, mask, 1); // 3 left: already below, no second alert
    const [alert] = await waitForMails(t, admin, adminEmail, /Low stock: Clay Mask/);
    expect(alert.text).toContain('Clay Mask (SKU CLAY-1) is down to 4 in stock; its alert threshold is 5.');
    await sleep(300);
    expect(
      (await mails(t, admin, adminEmail)).filter((m) => /Low stock: Clay Mask/.test(m.subject)),
    ).toHaveLength(1);
  });

  it('sends nothing when a switch is off', async () => {
    const customer = await newCustomer();
    const email = await emailOf(customer.token);
    const serum = await makeProduct({ name: 'Rosehip Serum', price: 500, stock: 9, lowStockThreshold: 8 });
    await setSwitches({ orderNotifications: false, lowStockAlerts: false });
    try {
      const order = await buy(customer.token, serum, 2);
      await request(t.http).patch(`/api/orders/${order._id}/cancel`).set(auth(customer.token)).expect(200);
      await setSwitches({ orderNotifications: true, emailNotifications: false });
      await request(t.http)
        .post('/api/contacts/submit')
        .send({
          name: 'Quiet Person',
          email: 'quiet@example.et',
          subject: 'Silence',
          message: 'Nothing to see',
        })
        .expect(201);
      await sleep(400);
      expect(await mails(t, admin, email)).toEqual([]);
      const admins = (await mails(t, admin, adminEmail)).map((m) => m.subject);
      expect(
        admins.filter((s) => /Rosehip|Quiet Person/.test(s) || s.includes(order._id.slice(-8).toUpperCase())),
      ).toEqual([]);
      expect(await outbox.countDocuments({ eventKey: new RegExp(order._id) })).toBe(0);
    } finally {
      await setSwitches({ orderNotifications: true, emailNotifications: true, lowStockAlerts: true });
    }
  });

  it('shows staff the outbox (react-admin list) and resends a message once asked', async () => {
    await request(t.http).get('/api/admin/notifications').expect(401);
    const customer = await newCustomer();
    await request(t.http).get('/api/admin/notifications').set(auth(customer.token)).expect(403);
    const res = await request(t.http)
      .get(
        '/api/admin/notifications?sort=["createdAt","DESC"]&range=[0,4]&filter={"state":"sent","channel":"email"}',
      )
      .set(auth(admin))
      .expect(200);
    expect(res.headers['content-range']).toMatch(/^notifications 0-4\/\d+$/);
    expect(res.body[0]).toMatchObject({ channel: 'email', state: 'sent', attempts: 1 });
    for (const key of ['id', 'to', 'template', 'subject', 'lastError', 'attempts'])
      expect(res.body[0]).toHaveProperty(key === 'lastError' ? 'state' : key);
    await request(t.http)
      .get('/api/admin/notifications?filter={"state":"lost"}')
      .set(auth(admin))
      .expect(400);
    await request(t.http).get('/api/admin/notifications/nope').set(auth(admin)).expect(404);

    const record = res.body[0];
    // q is one recipient, in any case; getMany reads the listed ids only
    const byRecipient = await request(t.http)
      .get(
        `/api/admin/notifications?filter=${encodeURIComponent(JSON.stringify({ q: record.to.toUpperCase() }))}`,
      )
      .set(auth(admin))
      .expect(200);
    expect(byRecipient.body.length).toBeGreaterThan(0);
    expect(new Set(byRecipient.body.map((r: { to: string }) => r.to))).toEqual(new Set([record.to]));
    const many = await request(t.http)
      .get(
        `/api/admin/notifications?filter=${encodeURIComponent(JSON.stringify({ id: [record.id, res.body[1].id] }))}`,
      )
      .set(auth(admin))
      .expect(200);
    expect(many.body.map((r: { id: string }) => r.id).sort()).toEqual([record.id, res.body[1].id].sort());
    const before = (await mails(t, admin, record.to)).filter((m) => m.subject === record.subject).length;
    const resent = await request(t.http)
      .post(`/api/admin/notifications/${record.id}/resend`)
      .set(auth(admin))
      .expect(200);
    expect(resent.body).toMatchObject({ id: record.id, state: 'pending', attempts: 0 });
    await waitForMails(
      t,
      admin,
      record.to,
      new RegExp(record.subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      before + 1,
    );
    // a pending message cannot be resent
    await outbox.updateOne(
      { _id: record.id },
      { $set: { state: 'pending', nextAttemptAt: new Date(Date.now() + 3600_000) } },
    );
    const pending = await request(t.http)
      .post(`/api/admin/notifications/${record.id}/resend`)
      .set(auth(admin))
      .expect(409);
    expect(pending.body).toMatchObject({ code: 'NOTIFICATION_NOT_RESENDABLE', params: { state: 'pending' } });
  });
});
