import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { sleep } from './support/mail';
import { startTestApp, type TestApp } from './support/test-app';

/** The mails one instance's local SMTP server kept under its DATA_DIR/mail. */
function keptMails(dataDir: string): { to: string; subject: string; messageId?: string }[] {
  try {
    return readdirSync(path.join(dataDir, 'mail'))
      .filter((n) => n.endsWith('.json'))
      .map((n) => JSON.parse(readFileSync(path.join(dataDir, 'mail', n), 'utf8')));
  } catch {
    return [];
  }
}

/**
 * Two API instances over one database, each with its own outbox worker and its own SMTP server (a
 * mail shows which instance delivered it): every message goes out exactly once, and an event
 * triggered on both instances at once makes one message.
 */
describe('notifications: two workers over one database', () => {
  let a: TestApp;
  let b: TestApp;
  const dirA = mkdtempSync(path.join(tmpdir(), 'worker-a-'));
  const dirB = mkdtempSync(path.join(tmpdir(), 'worker-b-'));
  let outbox: Model<Notification>;
  const workerEnv = { NOTIFICATIONS_INTERVAL_MS: '20', NOTIFICATIONS_BACKOFF_MS: '50' };
  const both = () => [...keptMails(dirA), ...keptMails(dirB)];

  beforeAll(async () => {
    a = await startTestApp({ ...workerEnv, DATA_DIR: dirA });
    // the second instance uses the first one's database server (the embedded engine speaks the wire protocol)
    b = await startTestApp({
      ...workerEnv,
      DATA_DIR: dirB,
      MONGODB_URI: a.engine.uri,
      MONGODB_DB: a.engine.dbName,
    });
    await a.app.get(SeedService).seed();
    outbox = a.app.get(getModelToken(Notification.name));
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  });

  it('shares one database between the instances', async () => {
    expect(b.engine.dbName).toBe(a.engine.dbName);
    const viaB: Model<Notification> = b.app.get(getModelToken(Notification.name));
    await outbox.create({
      eventKey: 'test.shared',
      channel: 'email',
      to: 'shared@example.et',
      template: 'test',
      language: 'en',
      text: 'x',
      state: 'failed',
      nextAttemptAt: new Date(),
    });
    expect(await viaB.countDocuments({ eventKey: 'test.shared' })).toBe(1);
  });

  it('delivers each of 60 messages falling due at once exactly once, from both workers', async () => {
    const due = new Date(Date.now() + 600); // both workers poll every 20 ms: they race for every message
    const count = 60;
    await outbox.insertMany(
      Array.from({ length: count }, (_, i) => ({
        eventKey: `test.two-workers:${i}`,
        channel: 'email',
        to: `two-workers-${i}@example.et`,
        template: 'test',
        language: 'en',
        subject: `Two workers ${i}`,
        text: `Message ${i}`,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: due,
      })),
    );
    for (let i = 0; i < 400; i++) {
      if ((await outbox.countDocuments({ eventKey: /^test\.two-workers:/, state: 'sent' })) === count) break;
      await sleep(50);
    }
    await sleep(500); // later runs of both workers find nothing more to send
    const rows = await outbox.find({ eventKey: /^test\.two-workers:/ }).lean();
    expect(rows.map((r) => [r.state, r.attempts])).toEqual(Array(count).fill(['sent', 1]));
    const mails = both().filter((m) => m.subject.startsWith('Two workers '));
    expect(mails.map((m) => m.subject).sort()).toEqual(
      Array.from({ length: count }, (_, i) => `Two workers ${i}`).sort(),
    );
    const fromA = keptMails(dirA).filter((m) => m.subject.startsWith('Two workers ')).length;
    const fromB = keptMails(dirB).filter((m) => m.subject.startsWith('Two workers ')).length;
    expect(fromA + fromB).toBe(count);
    // both really took part: a test where one worker did everything would prove nothing about the lease
    expect(fromA).toBeGreaterThan(0);
    expect(fromB).toBeGreaterThan(0);
  });

  it('makes one message of one event triggered on both instances at once', async () => {
    const admin = await loginAs(a, DEMO_ACCOUNTS.admin);
    const customer = await customerFactory(() => a, 'twoworkers', 'Two Workers')();
    const product = (
      await request(a.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name: 'Shared Shea Butter', price: 200, stock: 20, images: ['/api/assets/products/x.svg'] })
        .expect(201)
    ).body.product._id as string;
    await request(b.http)
      .post('/api/cart/add')
      .set(auth(customer.token))
      .send({ productId: product })
      .expect(200);
    const order = (
      await request(b.http)
        .post('/api/orders')
        .set(auth(customer.token))
        .send({
          shippingAddress: { street: 'Piassa 3', city: 'Addis Ababa', state: 'Addis Ababa' },
          // pay on delivery: an unpaid Chapa order may not be shipped (docs/decisions/0080)
          paymentMethod: 'cash_on_delivery',
        })
        .expect(201)
    ).body.order as { _id: string; orderNumber: string };
    await request(a.http)
      .patch(`/api/orders/${order._id}/status`)
      .set(auth(admin))
      .send({ status: 'processing' })
      .expect(200);
    const shipped = await Promise.all(
      [a, b].map((app) =>
        request(app.http)
          .patch(`/api/orders/${order._id}/status`)
          .set(auth(admin))
          .send({ status: 'shipped', trackingNumber: 'ET-2W-1' }),
      ),
    );
    expect(shipped.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(shipped.some((r) => r.status === 200)).toBe(true);
    const subject = `Your order ${order.orderNumber} is on its way`;
    for (let i = 0; i < 200 && !both().some((m) => m.subject === subject); i++) await sleep(50);
    await sleep(500);
    expect(both().filter((m) => m.subject === subject)).toHaveLength(1);
    expect(both().filter((m) => m.subject === `We received your order ${order.orderNumber}`)).toHaveLength(1);
    expect(await outbox.countDocuments({ eventKey: `order.status:${order._id}:shipped` })).toBe(1);
  });
});
