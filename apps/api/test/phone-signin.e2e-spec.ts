import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { PhoneSignIn } from '../src/modules/auth/schemas/phone-sign-in.schema';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { User } from '../src/modules/users/schemas/user.schema';
import { UserIndexes } from '../src/modules/users/user-indexes';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, loginAs } from './support/accounts';
import { sleep } from './support/mail';
import { startTestApp, type TestApp } from './support/test-app';

interface Sms {
  id: string;
  to: string;
  text: string;
  sentAt: string;
}

const SIGN_IN_SMS = /sign-in code is (\d{6})/;
const VERIFY_SMS = /verification code is (\d{6})/;
const OTP_SENT = 'If this number can receive SMS, we sent it a 6-digit code';

/**
 * Phone sign-in (docs/decisions/0064-phone-sign-in.md) end to end, its SMS read where a developer
 * reads them: the local SMS store (docs/decisions/0065-local-sms-store.md) at GET /api/admin/sms.
 */
describe('phone sign-in (OTP) and the local SMS store', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: string;
  let codes: Model<PhoneSignIn>;
  let users: Model<User>;
  let orders: Model<Order>;
  let productId: string;
  let counter = 0;

  /** A fresh Ethiopian mobile number per test (local form and E.164). */
  const newPhone = () => {
    counter += 1;
    const digits = String(counter).padStart(4, '0');
    return { local: `091100${digits}`, e164: `+25191100${digits}` };
  };

  const smsTo = async (to: string): Promise<Sms[]> => {
    const filter = encodeURIComponent(JSON.stringify({ q: to }));
    const res = await request(t.http)
      .get(`/api/admin/sms?range=[0,99]&filter=${filter}`)
      .set(auth(admin))
      .expect(200);
    return res.body as Sms[];
  };

  /** Waits for the `count`-th SMS to `to` matching `pattern`; answers its 6-digit code (the newest). */
  const codeSentTo = async (to: string, pattern = SIGN_IN_SMS, count = 1): Promise<string> => {
    for (let i = 0; i < 200; i++) {
      const found = (await smsTo(to)).filter((m) => pattern.test(m.text));
      if (found.length >= count) return pattern.exec(found[0].text)![1];
      await sleep(50);
    }
    throw new Error(`no SMS ${String(pattern)} to ${to}: ${JSON.stringify(await smsTo(to))}`);
  };

  const ask = (phone: string, body: Record<string, unknown> = {}) =>
    request(t.http)
      .post('/api/auth/otp/request')
      .send({ phone, ...body });
  const verify = (phone: string, code: string) =>
    request(t.http).post('/api/auth/otp/verify').send({ phone, code });

  /** Asks a code for the number and signs in with it; answers the verify response. */
  const signIn = async (phone: { local: string; e164: string }, count = 1) => {
    await ask(phone.local).expect(202);
    const code = await codeSentTo(phone.e164, SIGN_IN_SMS, count);
    return verify(phone.local, code).expect(200);
  };

  /** A guest's order as the guest checkout stores it: no user, the customer's phone in E.164. */
  const guestOrder = async (phone: string) => {
    const [order] = await orders.create([
      {
        customer: { name: 'Guest Buyer', phone },
        orderItems: [
          {
            product: new Types.ObjectId(productId),
            name: 'Guest item',
            quantity: 1,
            priceAtPurchaseSantim: 50_000,
          },
        ],
        shippingAddress: {
          street: 'Bole Road',
          city: 'Addis Ababa',
          state: 'Addis Ababa',
          country: 'Ethiopia',
          phone,
        },
        subtotalSantim: 50_000,
        shippingCostSantim: 10_000,
        taxSantim: 0,
        totalAmountSantim: 60_000,
      },
    ]);
    return String(order._id);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'otp-'));
    t = await startTestApp({
      DATA_DIR: dataDir,
      NOTIFICATIONS_INTERVAL_MS: '50',
      NOTIFICATIONS_BACKOFF_MS: '50',
      AUTH_RATE_LIMIT: '1000',
    });
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    codes = t.app.get(getModelToken(PhoneSignIn.name));
    users = t.app.get(getModelToken(User.name));
    orders = t.app.get(getModelToken(Order.name));
    const list = await request(t.http).get('/api/products?limit=1').expect(200);
    productId = String(list.body.products[0]._id);
  });

  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a known and an unknown number alike (202, same body), and refuses a number that is not Ethiopian', async () => {
    const known = newPhone();
    await signIn(known);
    const unknown = newPhone();
    const a = await ask(known.local).expect(202);
    const b = await ask(unknown.e164).expect(202);
    expect(a.body).toEqual({ success: true, message: OTP_SENT });
    expect(b.body).toEqual(a.body);
    const bad = await ask('12345').expect(400);
    expect(bad.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'phone' })]));
    const none = await request(t.http).post('/api/auth/otp/request').send({}).expect(400);
    expect(none.body.errors[0].field).toBe('phone');
    await request(t.http)
      .post('/api/auth/otp/request')
      .send({ phone: known.local, language: 'fr' })
      .expect(400);
  });

  it('sends three codes an hour per number, then 429 TOO_MANY_CODES; an hour later again', async () => {
    const phone = newPhone();
    for (let i = 0; i < 3; i++) await ask(phone.local).expect(202);
    const fourth = await ask(phone.e164).expect(429);
    expect(fourth.body).toMatchObject({ success: false, code: 'TOO_MANY_CODES' });
    await codeSentTo(phone.e164, SIGN_IN_SMS, 3);
    expect((await smsTo(phone.e164)).length).toBe(3);
    // another number is not limited by this one
    await ask(newPhone().local).expect(202);
    // the codes were sent more than an hour ago: three more may go
    const earlier = new Date(Date.now() - 61 * 60 * 1000);
    await codes.updateOne({ phone: phone.e164 }, { $set: { sent: [earlier, earlier, earlier] } });
    for (let i = 0; i < 3; i++) await ask(phone.local).expect(202);
    await ask(phone.local).expect(429);
  });

  it('sends the code in the language asked for, else the shop language', async () => {
    const phone = newPhone();
    await ask(phone.local, { language: 'am' }).expect(202);
    const [am] = await (async () => {
      for (let i = 0; i < 200; i++) {
        const found = await smsTo(phone.e164);
        if (found.length) return found;
        await sleep(50);
      }
      return [];
    })();
    expect(am.text).toMatch(/የመግቢያ ኮድዎ \d{6} ነው/);
    const other = newPhone();
    await ask(other.local).expect(202);
    await codeSentTo(other.e164);
  });

  it('refuses an expired code with OTP_INVALID', async () => {
    const phone = newPhone();
    await ask(phone.local).expect(202);
    const code = await codeSentTo(phone.e164);
    await codes.updateOne({ phone: phone.e164 }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await verify(phone.local, code).expect(400);
    expect(res.body).toMatchObject({ code: 'OTP_INVALID', message: 'This code is invalid or has expired' });
  });

  it('kills a code after five tries: the right code on the sixth is refused', async () => {
    const phone = newPhone();
    await ask(phone.local).expect(202);
    const code = await codeSentTo(phone.e164);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await verify(phone.local, wrong).expect(400);
      expect(res.body.code).toBe('OTP_INVALID');
    }
    expect((await verify(phone.local, code).expect(400)).body.code).toBe('OTP_INVALID');
    // a new code works again
    await ask(phone.local).expect(202);
    const fresh = await codeSentTo(phone.e164, SIGN_IN_SMS, 2);
    await verify(phone.local, fresh).expect(200);
  });

  it('uses a code once, and only the newest code of the number counts', async () => {
    const phone = newPhone();
    await ask(phone.local).expect(202);
    const first = await codeSentTo(phone.e164);
    await ask(phone.local).expect(202);
    const second = await codeSentTo(phone.e164, SIGN_IN_SMS, 2);
    if (first !== second)
      expect((await verify(phone.local, first).expect(400)).body.code).toBe('OTP_INVALID');
    await verify(phone.local, second).expect(200);
    expect((await verify(phone.local, second).expect(400)).body.code).toBe('OTP_INVALID');
    // the code is kept only as an HMAC
    const stored = await codes.findOne({ phone: phone.e164 }).lean();
    expect(JSON.stringify(stored)).not.toContain(second);
    // and the outbox forgot the SMS text once it went
    const outbox = t.app.get<Model<{ to: string; text: string; template: string }>>(
      getModelToken('Notification'),
    );
    const sent = await outbox.find({ to: phone.e164, template: 'phoneSignIn' }).lean();
    expect(sent.length).toBe(2);
    for (const m of sent) expect(m.text).not.toMatch(/\d{6}/);
  });

  it('creates a customer account for a new number: no email, no password, name asked afterwards', async () => {
    const phone = newPhone();
    const res = await signIn(phone);
    expect(res.body).toMatchObject({ success: true, created: true });
    expect(res.body.user).toMatchObject({
      name: '',
      role: 'customer',
      phone: phone.e164,
      phoneVerified: true,
    });
    expect(res.body.user.email).toBeUndefined();
    expect(String(res.headers['set-cookie'])).toMatch(/token=[^;]+; .*HttpOnly/i);
    const token = res.body.token as string;
    const me = await request(t.http).get('/api/auth/me').set(auth(token)).expect(200);
    expect(me.body.user).toMatchObject({ _id: res.body.user._id, name: '' });
    const named = await request(t.http)
      .put('/api/users/profile')
      .set(auth(token))
      .send({ name: 'Almaz Bekele' })
      .expect(200);
    expect(named.body.user).toMatchObject({ name: 'Almaz Bekele', firstName: 'Almaz', lastName: 'Bekele' });
    const stored = await users.findById(res.body.user._id).select('+passwordHash').lean();
    expect(stored).toMatchObject({ phone: phone.e164 });
    expect(stored?.email).toBeUndefined();
    expect(stored?.passwordHash).toBeUndefined();
    // the cookie alone is a session too, as after POST /auth/login
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    await request(t.http).get('/api/auth/me').set('Cookie', cookie).expect(200);
    // signing in again with the number is the same account
    const again = await signIn(phone, 2);
    expect(again.body).toMatchObject({
      created: false,
      user: { _id: res.body.user._id, name: 'Almaz Bekele' },
    });
  });

  it('signs in the account whose verified phone it is (verified with the profile phone check)', async () => {
    const phone = newPhone();
    const reg = await request(t.http)
      .post('/api/auth/register')
      .send({
        name: 'Tigist Haile',
        email: `tigist${counter}@example.et`,
        password: 'Buna@2026',
        phone: phone.local,
      })
      .expect(201);
    const token = reg.body.token as string;
    // a guest order placed earlier with the number joins the account when it proves the number
    const earlier = await guestOrder(phone.e164);
    await request(t.http).post('/api/auth/phone/send-code').set(auth(token)).expect(200);
    const code = await codeSentTo(phone.e164, VERIFY_SMS);
    await request(t.http).post('/api/auth/phone/verify').set(auth(token)).send({ code }).expect(200);
    const mine = await request(t.http).get('/api/orders/my-orders').set(auth(token)).expect(200);
    expect(mine.body.orders.map((o: { _id: string }) => o._id)).toContain(earlier);

    const res = await signIn(phone);
    expect(res.body).toMatchObject({
      created: false,
      user: { _id: reg.body.user._id, email: `tigist${counter}@example.et`, name: 'Tigist Haile' },
    });
    // its password still works
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: `tigist${counter}@example.et`, password: 'Buna@2026' })
      .expect(200);
  });

  it('does not sign in an account whose phone is not verified: the number gets an account of its own', async () => {
    const phone = newPhone();
    const reg = await request(t.http)
      .post('/api/auth/register')
      .send({
        name: 'Unproven Phone',
        email: `unproven${counter}@example.et`,
        password: 'Buna@2026',
        phone: phone.local,
      })
      .expect(201);
    const res = await signIn(phone);
    expect(res.body.created).toBe(true);
    expect(res.body.user._id).not.toBe(reg.body.user._id);
  });

  it('attaches the guest orders placed with the number on verify, and only those', async () => {
    const phone = newPhone();
    const other = newPhone();
    const first = await guestOrder(phone.e164);
    const second = await guestOrder(phone.e164);
    const someoneElse = await guestOrder(other.e164);
    const res = await signIn(phone);
    const token = res.body.token as string;
    const mine = await request(t.http).get('/api/orders/my-orders').set(auth(token)).expect(200);
    expect(mine.body.orders.map((o: { _id: string }) => o._id).sort()).toEqual([first, second].sort());
    expect((await orders.findById(someoneElse).lean())?.user).toBeUndefined();
    await request(t.http).get(`/api/orders/${first}`).set(auth(token)).expect(200);
  });

  it('lets an account without email use the shop: profile, orders, wishlist, a review under its name, password', async () => {
    const phone = newPhone();
    const res = await signIn(phone);
    const token = res.body.token as string;
    const profile = await request(t.http).get('/api/users/profile').set(auth(token)).expect(200);
    expect(profile.body.user).toMatchObject({ name: '', addresses: [] });
    expect(profile.body.user.email).toBeUndefined();
    await request(t.http)
      .put('/api/users/profile')
      .set(auth(token))
      .send({ name: 'Hirut Alemu' })
      .expect(200);
    await request(t.http).put('/api/users/profile').set(auth(token)).send({ language: 'am' }).expect(200);
    expect(
      (await request(t.http).get('/api/orders/my-orders').set(auth(token)).expect(200)).body.orders,
    ).toEqual([]);
    await request(t.http).post(`/api/wishlist/add/${productId}`).set(auth(token)).expect(200);
    const wishlist = await request(t.http).get('/api/wishlist').set(auth(token)).expect(200);
    expect(JSON.stringify(wishlist.body)).toContain(productId);
    await request(t.http)
      .post(`/api/reviews/product/${productId}`)
      .set(auth(token))
      .send({ rating: 5, comment: 'Lovely, my skin feels soft' })
      .expect(201);
    const reviews = await request(t.http).get(`/api/reviews/product/${productId}`).expect(200);
    const list = (reviews.body.reviews ?? reviews.body) as {
      user: { _id: string; name: string; email?: string };
    }[];
    const review = list.find((r) => r.user._id === res.body.user._id);
    expect(review?.user.name).toBe('Hirut Alemu');
    // no password yet: the first one is set without a current one; then the usual rule holds
    await request(t.http)
      .put('/api/users/profile/password')
      .set(auth(token))
      .send({ newPassword: 'Injera@2027' })
      .expect(200);
    // forgot-password with an email nobody has answers as always
    await request(t.http).post('/api/auth/forgot-password').send({ email: 'nobody@example.et' }).expect(200);
    // a second account without email does not collide with the first (email unique only when present)
    const other = await signIn(newPhone());
    expect(other.body.created).toBe(true);
    // adding an email later is possible; a taken one is refused as before
    await request(t.http)
      .put('/api/users/profile')
      .set(auth(other.body.token as string))
      .send({ email: DEMO_ACCOUNTS.customer.email })
      .expect(409);
  });

  it('replaces the old email index (unique over every account) with one unique only when present', async () => {
    const collection = users.collection;
    await collection.dropIndex('email_unique_when_present');
    // an older index on email, as a database made before phone sign-in has (there unique over every
    // account; made here without unique, since this database already holds accounts without email)
    await collection.createIndex({ email: 1 }, { name: 'email_1' });
    expect((await collection.indexes()).map((i) => i.name)).toContain('email_1');
    await t.app.get(UserIndexes).onModuleInit();
    const names = (await collection.indexes()).map((i) => i.name);
    expect(names).toContain('email_unique_when_present');
    expect(names).not.toContain('email_1');
    // still unique where present
    await expect(
      users.create({ name: 'Twin', email: DEMO_ACCOUNTS.customer.email, role: 'customer' }),
    ).rejects.toThrow(/duplicate key|E11000/);
    // run again (another instance starting): nothing changes
    await t.app.get(UserIndexes).onModuleInit();
    expect((await collection.indexes()).map((i) => i.name).sort()).toEqual([...names].sort());
    expect((await signIn(newPhone())).body.created).toBe(true);
  });

  it('lists accounts without email on the users screen, found by phone', async () => {
    const phone = newPhone();
    const res = await signIn(phone);
    const filter = encodeURIComponent(JSON.stringify({ q: phone.e164.slice(1) }));
    const list = await request(t.http).get(`/api/admin/users?filter=${filter}`).set(auth(admin)).expect(200);
    expect(list.body.map((u: { _id: string }) => u._id)).toContain(res.body.user._id);
    await request(t.http).get(`/api/admin/users/${res.body.user._id}`).set(auth(admin)).expect(200);
    await request(t.http)
      .put(`/api/admin/users/${res.body.user._id}`)
      .set(auth(admin))
      .send({ name: 'Named By Staff' })
      .expect(200);
  });

  it('refuses a deactivated account as sign-in does, and a staff account (password only)', async () => {
    const phone = newPhone();
    const res = await signIn(phone);
    await users.updateOne({ _id: res.body.user._id }, { $set: { isActive: false } });
    await ask(phone.local).expect(202);
    const code = await codeSentTo(phone.e164, SIGN_IN_SMS, 2);
    const refused = await verify(phone.local, code).expect(403);
    expect(refused.body.code).toBe('ACCOUNT_DEACTIVATED');

    const staffPhone = newPhone();
    await users.updateOne(
      { email: DEMO_ACCOUNTS.admin.email },
      { $set: { phone: staffPhone.e164, phoneVerifiedAt: new Date() } },
    );
    await ask(staffPhone.local).expect(202);
    const staffCode = await codeSentTo(staffPhone.e164);
    expect((await verify(staffPhone.local, staffCode).expect(403)).body.code).toBe('ACCESS_DENIED');
    await users.updateOne({ email: DEMO_ACCOUNTS.admin.email }, { $unset: { phone: 1, phoneVerifiedAt: 1 } });
  });

  it('refuses a malformed code with a field error, and a code for a number that never asked with OTP_INVALID', async () => {
    const phone = newPhone();
    const bad = await verify(phone.local, '12ab').expect(400);
    expect(bad.body.errors[0].field).toBe('code');
    expect((await verify(phone.local, '123456').expect(400)).body.code).toBe('OTP_INVALID');
  });

  it('GET /api/admin/sms: the local store, newest first, admins only; one SMS by id', async () => {
    const phone = newPhone();
    await ask(phone.local).expect(202);
    await codeSentTo(phone.e164);
    const res = await request(t.http).get('/api/admin/sms?range=[0,1]').set(auth(admin)).expect(200);
    expect(res.headers['content-range']).toMatch(/^sms 0-1\/\d+$/);
    expect(res.body).toHaveLength(2);
    expect(res.body[0].sentAt >= res.body[1].sentAt).toBe(true);
    expect(Object.keys(res.body[0]).sort()).toEqual(['id', 'sentAt', 'text', 'to']);
    const [latest] = await smsTo(phone.e164);
    const one = await request(t.http).get(`/api/admin/sms/${latest.id}`).set(auth(admin)).expect(200);
    expect(one.body).toEqual(latest);
    expect((await request(t.http).get('/api/admin/sms/1234').set(auth(admin)).expect(404)).body.code).toBe(
      'SMS_NOT_FOUND',
    );
    await request(t.http).get('/api/admin/sms/..%2F..%2Fetc').set(auth(admin)).expect(404);
    // one JSON file per SMS, no temporary file left behind
    const files = readdirSync(path.join(dataDir, 'sms'));
    expect(files.every((f) => /^\d{13}-[a-f0-9]{8}\.json$/.test(f))).toBe(true);
    const customer = await signIn(newPhone());
    await request(t.http)
      .get('/api/admin/sms')
      .set(auth(customer.body.token as string))
      .expect(403);
    await request(t.http).get('/api/admin/sms').expect(401);
  });
});

describe('the local SMS store where it does not exist, and the rate limit per client', () => {
  it('GET /api/admin/sms is 404 in production', async () => {
    const t = await startTestApp({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-jwt-secret-of-at-least-32-chars',
      ADMIN_SECRET_KEY: 'a-production-admin-secret',
      ALLOW_NO_MAIL: 'true',
      ALLOW_TEST_PAYMENTS: 'true',
      CORS_ORIGINS: 'https://shop.example.et',
    });
    try {
      const reg = await request(t.http)
        .post('/api/auth/register-admin')
        .send({
          name: 'Prod Admin',
          email: 'prod-admin@example.et',
          password: 'Buna@2026',
          adminSecretKey: 'a-production-admin-secret',
        })
        .expect(201);
      const token = reg.body.token as string;
      expect((await request(t.http).get('/api/admin/sms').set(auth(token)).expect(404)).body.code).toBe(
        'SMS_NOT_FOUND',
      );
      await request(t.http).get('/api/admin/sms/1767225600000-0a1b2c3d').set(auth(token)).expect(404);
    } finally {
      await t.close();
    }
  });

  it('GET /api/admin/sms is 404 with a real gateway; otp requests are limited per client and number', async () => {
    const t = await startTestApp({
      AFROMESSAGE_TOKEN: 'afro-test-token',
      AFROMESSAGE_BASE_URL: 'http://127.0.0.1:9',
      AUTH_RATE_LIMIT: '2',
    });
    try {
      await t.app.get(SeedService).seed();
      const token = await loginAs(t, DEMO_ACCOUNTS.admin);
      await request(t.http).get('/api/admin/sms').set(auth(token)).expect(404);
      await request(t.http).post('/api/auth/otp/request').send({ phone: '0912000001' }).expect(202);
      await request(t.http).post('/api/auth/otp/request').send({ phone: '+251912000001' }).expect(202);
      // the third request from this client for this number within a minute: the auth rate limit
      const limited = await request(t.http)
        .post('/api/auth/otp/request')
        .send({ phone: '0912000001' })
        .expect(429);
      expect(limited.body.code).toBe('TOO_MANY_REQUESTS');
      // another number from the same client is counted apart
      await request(t.http).post('/api/auth/otp/request').send({ phone: '0912000002' }).expect(202);
    } finally {
      await t.close();
    }
  });
});
