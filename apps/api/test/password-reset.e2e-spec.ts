import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { PasswordReset } from '../src/modules/auth/schemas/password-reset.schema';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, loginAs } from './support/accounts';
import { mails, sleep, waitForMails } from './support/mail';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A local stand-in for AfroMessage's send API (https://afromessage.com/developers): POST /api/send with
 * `Authorization: Bearer <token>` and JSON { from, sender, to, message }; answers
 * { acknowledge: 'success', response: { code, message_id, message, to, status } }. `failNext` makes the
 * next calls answer as AfroMessage does on an error.
 */
async function startAfroMessageStub(token: string) {
  const received: { to: string; message: string; sender?: string; from?: string }[] = [];
  const stub = {
    url: '',
    received,
    failNext: 0,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/api/send') return send(404, { acknowledge: 'error' });
      if (req.headers.authorization !== `Bearer ${token}`)
        return send(401, { acknowledge: 'error', response: { errors: ['Unauthorized'] } });
      if (stub.failNext > 0) {
        stub.failNext--;
        return send(500, { acknowledge: 'error', response: { errors: ['Temporary failure'] } });
      }
      const body = JSON.parse(raw) as { to: string; message: string; sender?: string; from?: string };
      if (!/^\+2519\d{8}$|^\+2517\d{8}$/.test(body.to) || !body.message)
        return send(400, { acknowledge: 'error', response: { errors: ['Invalid phone or message'] } });
      received.push(body);
      send(200, {
        acknowledge: 'success',
        response: {
          code: '202',
          message_id: `m-${received.length}`,
          message: 'SMS is queued for delivery',
          to: body.to,
          status: 'Sent',
        },
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}

describe('password reset: email link, SMS code, sessions end', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: string;
  let sms: Awaited<ReturnType<typeof startAfroMessageStub>>;
  let resets: Model<PasswordReset>;
  let outbox: Model<Notification>;
  let counter = 0;

  const register = async (extra: Record<string, unknown> = {}) => {
    counter += 1;
    const email = `reset${counter}@example.et`;
    const res = await request(t.http)
      .post('/api/auth/register')
      .send({ name: `Reset Customer ${counter}`, email, password: 'Buna@2026', ...extra })
      .expect(201);
    return { email, token: res.body.token as string };
  };
  const forgot = (body: Record<string, unknown>) =>
    request(t.http).post('/api/auth/forgot-password').send(body).expect(200);
  /** The texts the SMS stub received for a number whose message matches `pattern`. */
  const smsTo = (phone: string, pattern: RegExp) =>
    sms.received.filter((m) => m.to === phone && pattern.test(m.message));
  const waitForSms = async (phone: string, pattern: RegExp, count = 1) => {
    for (let i = 0; i < 300 && smsTo(phone, pattern).length < count; i++) await sleep(50);
    const found = smsTo(phone, pattern);
    expect(found.length).toBeGreaterThanOrEqual(count);
    return found;
  };
  const VERIFY_SMS = /verification code|የስልክ ማረጋገጫ ኮድ/;
  /** Proves the profile phone with the code the SMS stub received. */
  const verifyPhone = async (token: string, phone: string) => {
    const before = smsTo(phone, VERIFY_SMS).length;
    await request(t.http).post('/api/auth/phone/send-code').set(auth(token)).expect(200);
    const texts = await waitForSms(phone, VERIFY_SMS, before + 1);
    const code = /(\d{6})/.exec(texts[before].message)![1];
    const res = await request(t.http)
      .post('/api/auth/phone/verify')
      .set(auth(token))
      .send({ code })
      .expect(200);
    expect(res.body.user).toMatchObject({ phone, phoneVerified: true });
  };
  const linkIn = (text: string) =>
    /https:\/\/shop\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'reset-'));
    sms = await startAfroMessageStub('afro-test-token');
    t = await startTestApp({
      DATA_DIR: dataDir,
      NOTIFICATIONS_INTERVAL_MS: '100',
      NOTIFICATIONS_BACKOFF_MS: '50',
      STOREFRONT_URL: 'https://shop.test',
      AFROMESSAGE_TOKEN: 'afro-test-token',
      AFROMESSAGE_BASE_URL: sms.url,
      AFROMESSAGE_SENDER: 'BeautyShop',
      AUTH_RATE_LIMIT: '1000',
    });
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    resets = t.app.get(getModelToken(PasswordReset.name));
    outbox = t.app.get(getModelToken(Notification.name));
  });

  afterAll(async () => {
    await t.close();
    await sms.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the same for unknown and known emails, mails a single-use link, and ends earlier sessions', async () => {
    const { email, token: oldSession } = await register();
    const unknown = await forgot({ email: 'nobody-here@example.et' });
    const known = await forgot({ email: email.toUpperCase() });
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe(
      'If an account exists for this email, we have sent instructions to reset its password.',
    );

    const [mail] = await waitForMails(t, admin, email, /Reset your password/);
    const token = linkIn(mail.text)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="https://shop.test/reset-password?token=${token}"`);
    // only a hash is stored, and the outbox forgets the link once sent
    const stored = await resets.findOne({}).sort({ createdAt: -1 }).lean();
    expect(JSON.stringify(stored)).not.toContain(token);
    const sent = await outbox.findOne({ template: 'passwordReset', to: email }).lean();
    expect(sent).toMatchObject({ state: 'sent', text: '[removed after delivery]' });
    const listed = await request(t.http)
      .get(`/api/admin/notifications/${sent!._id}`)
      .set(auth(admin))
      .expect(200);
    expect(listed.body.text).toBeUndefined();
    await request(t.http).post(`/api/admin/notifications/${sent!._id}/resend`).set(auth(admin)).expect(409);

    await request(t.http).post('/api/auth/reset-password').send({ token, password: 'weak' }).expect(400);
    const done = await request(t.http)
      .post('/api/auth/reset-password')
      .send({ token, password: 'Teff@Harvest27', confirmPassword: 'Teff@Harvest27' })
      .expect(200);
    expect(done.body.success).toBe(true);
    // single use
    const again = await request(t.http)
      .post('/api/auth/reset-password')
      .send({ token, password: 'Other@Pass2027' })
      .expect(400);
    expect(again.body).toMatchObject({
      success: false,
      code: 'RESET_INVALID',
      message: 'This reset link or code is invalid or has expired',
    });

    await request(t.http).get('/api/auth/me').set(auth(oldSession)).expect(401);
    await request(t.http).post('/api/auth/login').send({ email, password: 'Buna@2026' }).expect(401);
    const fresh = await request(t.http)
      .post('/api/auth/login')
      .send({ email, password: 'Teff@Harvest27' })
      .expect(200);
    await request(t.http).get('/api/auth/me').set(auth(fresh.body.token)).expect(200);
  });

  it('refuses an expired link', async () => {
    const { email } = await register();
    await forgot({ email });
    const [mail] = await waitForMails(t, admin, email, /Reset your password/);
    await resets.updateMany({}, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    await request(t.http)
      .post('/api/auth/reset-password')
      .send({ token: linkIn(mail.text), password: 'Teff@Harvest27' })
      .expect(400);
  });

  it('sends a 6-digit code by SMS through AfroMessage (in the customer language), retried after a gateway error', async () => {
    const { email, token } = await register({ phone: '0911223344' });
    await request(t.http).put('/api/users/profile').set(auth(token)).send({ language: 'am' }).expect(200);
    await verifyPhone(token, '+251911223344');
    sms.failNext = 1;
    await forgot({ email, channel: 'sms' });
    const RESET_SMS = /የይለፍ ቃል መቀየሪያ ኮድዎ/;
    await waitForSms('+251911223344', RESET_SMS);
    await sleep(300);
    const texts = smsTo('+251911223344', RESET_SMS);
    expect(texts).toHaveLength(1);
    expect(texts[0].sender).toBe('BeautyShop');
    expect(texts[0].message).toMatch(/የይለፍ ቃል መቀየሪያ ኮድዎ \d{6} ነው/);
    const resetRow = () =>
      outbox.findOne({ channel: 'sms', to: '+251911223344', template: 'passwordReset' }).lean();
    let row = await resetRow();
    // the gateway has it; the worker marks it sent right after
    for (let i = 0; i < 200 && row?.state !== 'sent'; i++) {
      await sleep(50);
      row = await resetRow();
    }
    expect(row).toMatchObject({ state: 'sent', attempts: 2 });
    expect(row!.lastError).toMatch(/Temporary failure/); // kept for staff: it took a retry
    const code = /(\d{6})/.exec(texts[0].message)![1];

    const wrong = code === '000000' ? '111111' : '000000';
    await request(t.http)
      .post('/api/auth/reset-password')
      .send({ email, code: wrong, password: 'Teff@Harvest27' })
      .expect(400);
    await request(t.http)
      .post('/api/auth/reset-password')
      .send({ email, code, password: 'Teff@Harvest27' })
      .expect(200);
    await request(t.http)
      .post('/api/auth/reset-password')
      .send({ email, code, password: 'Teff@Harvest28' })
      .expect(400);
    await request(t.http).post('/api/auth/login').send({ email, password: 'Teff@Harvest27' }).expect(200);
    expect(await mails(t, admin, email)).toEqual([]);
  });

  it('spends an SMS code after five wrong tries', async () => {
    const { email, token } = await register({ phone: '0922334455' });
    await verifyPhone(token, '+251922334455');
    await forgot({ email, channel: 'sms' });
    const [text] = await waitForSms('+251922334455', /password reset code/);
    const code = /(\d{6})/.exec(text.message)![1];
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      await request(t.http)
        .post('/api/auth/reset-password')
        .send({ email, code: wrong, password: 'Teff@Harvest27' })
        .expect(400);
    await request(t.http)
      .post('/api/auth/reset-password')
      .send({ email, code, password: 'Teff@Harvest27' })
      .expect(400);
  });

  it('sends reset codes only to a verified phone; verifying takes the SMS code, and a new number must be verified again', async () => {
    const phone = '+251933445566';
    const { email, token } = await register({ phone: '0933445566' });
    const me = async () => (await request(t.http).get('/api/auth/me').set(auth(token)).expect(200)).body.user;
    expect(await me()).toMatchObject({ phone, phoneVerified: false });
    // not verified: the reset goes by email, nothing by SMS
    await forgot({ email, channel: 'sms' });
    await waitForMails(t, admin, email, /Reset your password/);
    expect(smsTo(phone, /./)).toEqual([]);

    await request(t.http).post('/api/auth/phone/send-code').expect(401);
    await request(t.http).post('/api/auth/phone/send-code').set(auth(token)).expect(200);
    const [text] = await waitForSms(phone, VERIFY_SMS);
    expect(text.message).toMatch(/your phone verification code is \d{6}\. It expires in 10 minutes/);
    const code = /(\d{6})/.exec(text.message)![1];
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await request(t.http)
      .post('/api/auth/phone/verify')
      .set(auth(token))
      .send({ code: wrong })
      .expect(400);
    expect(refused.body).toMatchObject({ success: false, code: 'PHONE_CODE_INVALID' });
    for (const bad of ['12345', 'abcdef', 123456, undefined])
      await request(t.http).post('/api/auth/phone/verify').set(auth(token)).send({ code: bad }).expect(400);
    expect(await me()).toMatchObject({ phoneVerified: false });
    await request(t.http).post('/api/auth/phone/verify').set(auth(token)).send({ code }).expect(200);
    expect(await me()).toMatchObject({ phone, phoneVerified: true });
    // single use, and nothing more to verify
    await request(t.http).post('/api/auth/phone/verify').set(auth(token)).send({ code }).expect(400);
    const again = await request(t.http).post('/api/auth/phone/send-code').set(auth(token)).expect(409);
    expect(again.body.code).toBe('PHONE_VERIFIED');
    // the staff view of the outbox never shows the code
    const row = await outbox.findOne({ template: 'phoneVerify', to: phone }).lean();
    const listed = await request(t.http)
      .get(`/api/admin/notifications/${row!._id}`)
      .set(auth(admin))
      .expect(200);
    expect(listed.body).toMatchObject({ sensitive: true });
    expect(JSON.stringify(listed.body)).not.toContain(code);

    // the same number saved again stays verified; a new number does not
    await request(t.http)
      .put('/api/users/profile')
      .set(auth(token))
      .send({ phone: '0933445566' })
      .expect(200);
    expect(await me()).toMatchObject({ phoneVerified: true });
    await request(t.http)
      .put('/api/users/profile')
      .set(auth(token))
      .send({ phone: '0944556677' })
      .expect(200);
    expect(await me()).toMatchObject({ phone: '+251944556677', phoneVerified: false });
    await forgot({ email, channel: 'sms' });
    await waitForMails(t, admin, email, /Reset your password/, 2);
    expect(smsTo('+251944556677', /password reset/)).toEqual([]);
    // the old number's code proves nothing for the new one
    await request(t.http).post('/api/auth/phone/verify').set(auth(token)).send({ code }).expect(400);
  });

  it('limits verification codes per account and needs a phone', async () => {
    const { token } = await register();
    const none = await request(t.http).post('/api/auth/phone/send-code').set(auth(token)).expect(400);
    expect(none.body.code).toBe('PHONE_REQUIRED');
    await request(t.http)
      .put('/api/users/profile')
      .set(auth(token))
      .send({ phone: '0955667788' })
      .expect(200);
    for (let i = 0; i < 3; i++)
      await request(t.http).post('/api/auth/phone/send-code').set(auth(token)).expect(200);
    const limited = await request(t.http).post('/api/auth/phone/send-code').set(auth(token)).expect(429);
    expect(limited.body).toMatchObject({ success: false, code: 'PHONE_CODE_LIMIT' });
    await waitForSms('+251955667788', VERIFY_SMS, 3);
    await sleep(300);
    expect(smsTo('+251955667788', VERIFY_SMS)).toHaveLength(3);
  });

  it('limits requests per account (same answer, nothing more sent) and per client', async () => {
    const { email } = await register();
    for (let i = 0; i < 5; i++) await forgot({ email });
    await waitForMails(t, admin, email, /Reset your password/, 3);
    await sleep(500);
    expect((await mails(t, admin, email)).length).toBe(3);
    await request(t.http).post('/api/auth/forgot-password').send({ email: 'not-an-email' }).expect(400);
  });

  it('gives staff a link to the back office', async () => {
    await forgot({ email: DEMO_ACCOUNTS.admin.email, app: 'admin' });
    const [mail] = await waitForMails(
      t,
      admin,
      DEMO_ACCOUNTS.admin.email.toLowerCase(),
      /Reset your password/,
    );
    expect(mail.text).toMatch(/http:\/\/localhost:3001\/admin\/reset-password\?token=[A-Za-z0-9_-]{43}/);
  });
});
