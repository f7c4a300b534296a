import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { NotificationsWorker } from '../src/modules/notifications/notifications.worker';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * An instance with no way to send a channel (no SMTP_HOST under ALLOW_NO_MAIL, no AFROMESSAGE_TOKEN)
 * leaves that channel's messages in the outbox as they are, as its start-up warning says, instead of
 * taking them, failing each attempt and giving them up before a transport is configured.
 */
describe('outbox: channels the instance cannot send on', () => {
  let t: TestApp;

  beforeAll(async () => {
    // the worker's timer is off (no NOTIFICATIONS_INTERVAL_MS) and it set up no transport: no SMTP, no SMS gateway
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('leaves email and SMS messages pending with their attempts untouched', async () => {
    const outbox = t.app.get<Model<Notification>>(getModelToken(Notification.name));
    const tag = randomBytes(4).toString('hex');
    const due = { template: 'orderPlaced', language: 'en', text: 'Your order', state: 'pending' as const };
    await outbox.create([
      { ...due, eventKey: `email:${tag}`, channel: 'email', to: 'selam@example.et', subject: 'Order' },
      { ...due, eventKey: `sms:${tag}`, channel: 'sms', to: '+251911223344' },
    ]);
    expect(await t.app.get(NotificationsWorker).drain()).toBe(0);
    const rows = await outbox.find({ eventKey: { $in: [`email:${tag}`, `sms:${tag}`] } }).lean();
    expect(rows.map((r) => [r.channel, r.state, r.attempts, r.lastError]).sort()).toEqual([
      ['email', 'pending', 0, undefined],
      ['sms', 'pending', 0, undefined],
    ]);
  });
});
