import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { Settings, SETTINGS_KEY } from '../src/modules/settings/schemas/settings.schema';
import { User } from '../src/modules/users/schemas/user.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
const ETHIOPIC = /[\u1200-\u137f]/;

/**
 * The language of the shop's messages (docs/decisions/0077-links-and-message-language.md): the account's
 * (set at sign-up), the order's (the account's, else the page's it was placed from), staff's own; and
 * the order links of the route table.
 */
describe('messages in the customer’s language, links of the route table', () => {
  let t: TestApp;
  let admin: string;
  let outbox: Model<Notification>;
  let users: Model<User>;
  let productId: string;
  const adminEmail = DEMO_ACCOUNTS.admin.email.toLowerCase();

  const messagesOf = (eventKey: RegExp) => outbox.find({ eventKey }).lean().exec();
  const register = async (email: string, language?: string) =>
    request(t.http)
      .post('/api/auth/register')
      .send({ name: 'Selam Bekele', email, password: 'Abeba@2024!', ...(language ? { language } : {}) });
  const place = async (token: string, body: Record<string, unknown> = {}) => {
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity: 1 }).expect(200);
    return request(t.http)
      .post('/api/orders')
      .set(auth(token))
      .send({ shippingAddress: address, paymentMethod: 'chapa', ...body });
  };

  beforeAll(async () => {
    t = await startTestApp({ STOREFRONT_URL: 'https://shop.test', NOTIFICATIONS_INTERVAL_MS: '600000' });
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    outbox = t.app.get(getModelToken(Notification.name));
    users = t.app.get(getModelToken(User.name));
    await t.app
      .get<Model<Settings>>(getModelToken(Settings.name))
      .updateOne({ key: SETTINGS_KEY }, { $set: { adminEmail, language: 'en' } }, { upsert: true })
      .exec();
    productId = (
      await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name: 'Shea Butter Cream', nameAm: 'የሺአ ቅቤ ክሬም', price: 450, stock: 100 })
        .expect(201)
    ).body.product._id;
  });

  afterAll(async () => {
    await users.updateOne({ email: adminEmail }, { $unset: { language: 1 } }).exec();
    await t.close();
  });

  it('keeps the sign-up page’s language on the account and refuses any other', async () => {
    const res = await register('selam-am@example.et', 'am');
    expect(res.status).toBe(201);
    expect(res.body.user.language).toBe('am');
    const me = await request(t.http).get('/api/auth/me').set(auth(res.body.token)).expect(200);
    expect(me.body.user.language).toBe('am');
    const bad = await register('selam-fr@example.et', 'fr');
    expect(bad.status).toBe(400);
    expect(await users.countDocuments({ email: 'selam-fr@example.et' })).toBe(0);
  });

  it('writes an Amharic account’s order in Amharic, the order linking to its page', async () => {
    const { token } = (await register('hana-am@example.et', 'am')).body;
    const res = await place(token, { language: 'en' });
    expect(res.status).toBe(201);
    const order = res.body.order;
    // the account's choice wins over the page's
    expect(order.language).toBe('am');
    const [mail] = await messagesOf(new RegExp(`^order\\.placed:${order._id}$`));
    expect(mail.language).toBe('am');
    expect(mail.subject).toMatch(ETHIOPIC);
    expect(mail.subject).toContain(order.orderNumber);
    // an Amharic message links the Amharic page (docs/decisions/0092)
    expect(mail.text).toContain(`https://shop.test/am/order-confirmation/${order._id}`);
    expect(mail.html).toContain(`href="https://shop.test/am/order-confirmation/${order._id}"`);
    expect(mail.text).not.toContain('/account/orders/');
    // signed with the shop's Amharic name, as the storefront shows it, not the English default
    expect(mail.text).toContain('አዲስ ተፈጥሯዊ ውበት');
    expect(mail.text).not.toContain('Addis Natural Beauty');
  });

  it('uses the page’s language for an account that chose none, and for a guest; every later message keeps it', async () => {
    const { token } = (await register('dawit-none@example.et')).body;
    const res = await place(token, { language: 'am' });
    expect(res.status).toBe(201);
    expect(res.body.order.language).toBe('am');
    // the account changes its language later: the order's messages keep the order's
    await request(t.http).put('/api/users/profile').set(auth(token)).send({ language: 'en' }).expect(200);
    await request(t.http)
      .patch(`/api/orders/${res.body.order._id}/status`)
      .set(auth(admin))
      .send({ status: 'cancelled' })
      .expect(200);
    const [cancelled] = await messagesOf(new RegExp(`^order\\.status:${res.body.order._id}:cancelled$`));
    expect(cancelled.language).toBe('am');
    expect(cancelled.subject).toMatch(ETHIOPIC);

    const cart = (await request(t.http).post('/api/cart/add').send({ productId, quantity: 1 }).expect(200))
      .body.cartId;
    const guest = await request(t.http)
      .post('/api/orders')
      .set('X-Cart-Id', cart)
      .send({
        shippingAddress: address,
        paymentMethod: 'chapa',
        guest: { name: 'Hana Tesfaye', phone: '0911 23 45 67' },
        language: 'am',
      })
      .expect(201);
    const [sms] = await messagesOf(new RegExp(`^order\\.placed:${guest.body.order._id}:sms$`));
    expect(sms.language).toBe('am');
    expect(sms.text).toMatch(ETHIOPIC);
    expect(sms.text).toContain(`https://shop.test/am/track-order?number=${guest.body.order.orderNumber}`);
  });

  it('refuses an order language it does not speak, with a code, and places nothing', async () => {
    const { token } = (await register('bad-lang@example.et')).body;
    const res = await place(token, { language: 'fr' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBeDefined();
    expect((await request(t.http).get('/api/orders/my-orders').set(auth(token))).body.orders).toHaveLength(0);
  });

  it('writes the staff’s new-order message in the admin account’s language, else the shop’s', async () => {
    const { token } = (await register('staff-lang@example.et', 'en')).body;
    const first = (await place(token)).body.order;
    const [en] = await messagesOf(new RegExp(`^order\\.placed:${first._id}:admin$`));
    expect(en.language).toBe('en');
    // the admin chooses Amharic for their messages (the profile's language)
    await request(t.http).put('/api/users/profile').set(auth(admin)).send({ language: 'am' }).expect(200);
    const second = (await place(token)).body.order;
    const [am] = await messagesOf(new RegExp(`^order\\.placed:${second._id}:admin$`));
    expect(am.language).toBe('am');
    expect(am.subject).toMatch(ETHIOPIC);
    // the customer's own message stays in the customer's language
    const [customer] = await messagesOf(new RegExp(`^order\\.placed:${second._id}$`));
    expect(customer.language).toBe('en');
  });
});
