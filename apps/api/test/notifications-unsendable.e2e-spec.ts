import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import type { Connection, Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { NotificationsService } from '../src/modules/notifications/notifications.service';
import { NotificationsWorker } from '../src/modules/notifications/notifications.worker';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { sleep } from './support/mail';
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

  it('stores each message as the model would (in a transaction and outside one), once per event', async () => {
    const service = t.app.get(NotificationsService);
    const connection = t.app.get<Connection>(getConnectionToken());
    const outbox = t.app.get<Model<Notification>>(getModelToken(Notification.name));
    // this instance's worker is off: the messages stay exactly as written
    const verify = (requestId: string) =>
      ({ type: 'phone.verify', requestId, phone: '+251911000111', code: '123456' }) as const;
    await connection.transaction((session) => service.enqueue(session, verify('stored-in-tx')));
    await service.enqueue(undefined, verify('stored-alone'));
    for (const requestId of ['stored-in-tx', 'stored-alone']) {
      const stored = await outbox.collection.findOne({ eventKey: `phone.verify:${requestId}` });
      expect(stored).not.toBeNull();
      // Mongoose, given the stored document, adds nothing and changes nothing
      expect(new outbox(stored).toObject()).toEqual(stored);
      expect(stored).toMatchObject({
        channel: 'sms',
        template: 'phoneVerify',
        sensitive: true,
        state: 'pending',
        attempts: 0,
        __v: 0,
      });
      expect(stored!.updatedAt).toEqual(stored!.createdAt);
      expect(stored!.nextAttemptAt).toEqual(stored!.createdAt);
      // the event triggered again: still its one message, only touched
      await sleep(5);
      await connection.transaction((session) => service.enqueue(session, verify(requestId)));
      await service.enqueue(undefined, verify(requestId));
      const again = await outbox.collection.find({ eventKey: `phone.verify:${requestId}` }).toArray();
      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject({ _id: stored!._id, createdAt: stored!.createdAt, state: 'pending' });
      expect(again[0].updatedAt.getTime()).toBeGreaterThan(stored!.updatedAt.getTime());
    }
  });
});
