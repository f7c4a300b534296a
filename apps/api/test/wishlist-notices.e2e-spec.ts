import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { StockService } from '../src/modules/catalog/stock.service';
import { Notification } from '../src/modules/notifications/schemas/notification.schema';
import { Settings, SETTINGS_KEY } from '../src/modules/settings/schemas/settings.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { mails, sleep, waitForMails, type Mail } from './support/mail';
import { startTestApp, type TestApp } from './support/test-app';

const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };

/** Wishlist notices (issue 21): on sale and back in stock, once per change, with an unsubscribe link. */
describe('wishlist notices: on sale, back in stock, unsubscribe; low stock per crossing', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: string;
  let outbox: Model<Notification>;
  let settings: Model<Settings>;
  const newCustomer = customerFactory(() => t, 'wishnote', 'Wish Note');
  const adminEmail = DEMO_ACCOUNTS.admin.email.toLowerCase();

  const makeProduct = async (fields: Record<string, unknown>) =>
    (
      await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ images: ['/api/assets/products/x.svg'], ...fields })
        .expect(201)
    ).body.product._id as string;
  const editProduct = (id: string, fields: Record<string, unknown>) =>
    request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({ images: ['/api/assets/products/x.svg'], ...fields });
  const wish = (token: string, productId: string, prefs: Record<string, boolean>) =>
    request(t.http).post(`/api/wishlist/add/${productId}`).set(auth(token)).send(prefs).expect(200);
  const customer = async (language?: 'am') => {
    const c = await newCustomer();
    const me = (await request(t.http).get('/api/auth/me').set(auth(c.token)).expect(200)).body;
    if (language)
      await request(t.http).put('/api/users/profile').set(auth(c.token)).send({ language }).expect(200);
    return { ...c, email: (me.user?.email ?? me.email) as string };
  };
  const buy = async (token: string, productId: string, quantity = 1) => {
    await request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity }).expect(200);
    const res = await request(t.http)
      .post('/api/orders')
      .set(auth(token))
      .send({ shippingAddress: address, paymentMethod: 'chapa' })
      .expect(201);
    return res.body.order as { _id: string };
  };
  const setSwitches = (fields: Partial<Settings>) =>
    settings.updateOne({ key: SETTINGS_KEY }, { $set: fields }, { upsert: true }).exec();
  // the unsubscribe link of a mail (an Amharic one under /am/, docs/decisions/0092)
  const linkIn = (mail: Mail) =>
    /https:\/\/shop\.test\/(?:am\/)?unsubscribe\?token=([A-Za-z0-9._-]+)&lang=(?:en|am)\b/.exec(
      mail.text,
    )?.[1];
  /** Lets the worker run a few more times, then answers the recipient's mails matching `subject`. */
  const settled = async (to: string, subject: RegExp) => {
    await sleep(400);
    return (await mails(t, admin, to)).filter((m) => subject.test(m.subject));
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'wish-notify-'));
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

  it('tells only the customers who chose price drops, in their language, once per change under concurrent and repeated edits', async () => {
    const fields = { name: 'Moringa Face Oil', nameAm: 'የሞሪንጋ የፊት ዘይት', price: 500, stock: 10 };
    const oil = await makeProduct(fields);
    const en = await customer();
    const am = await customer('am');
    const stockOnly = await customer();
    const noFlags = await customer();
    await wish(en.token, oil, { notifyOnSale: true });
    await wish(am.token, oil, { notifyOnSale: true, notifyOnStock: true });
    await wish(stockOnly.token, oil, { notifyOnStock: true });
    await wish(noFlags.token, oil, {});

    // a price rise is not a sale
    await editProduct(oil, { ...fields, price: 550 }).expect(200);
    // the same drop sent twice at once, then retried: one change, one message each
    const drop = { ...fields, price: 400, originalPrice: 550 };
    const both = await Promise.all([editProduct(oil, drop), editProduct(oil, drop)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 200]);
    await editProduct(oil, drop).expect(200);

    const [english] = await waitForMails(t, admin, en.email, /on sale/);
    expect(english.subject).toBe('Moringa Face Oil is on sale');
    expect(english.text).toContain('Moringa Face Oil, on your wishlist, is now ETB 400.00 (was ETB 550.00).');
    expect(english.text).toContain(`https://shop.test/product/${oil}`);
    expect(linkIn(english)).toMatch(/^[a-f0-9]{24}\.[a-f0-9]{24}\.sale\.[A-Za-z0-9_-]{43}$/);
    expect(english.html).toContain('<a href="https://shop.test/unsubscribe?token=');
    const [amharic] = await waitForMails(t, admin, am.email, /ቅናሽ/);
    expect(amharic.subject).toBe('የሞሪንጋ የፊት ዘይት ቅናሽ ላይ ነው');
    expect(amharic.text).toContain('አሁን 400.00 ብር ነው (ቀድሞ 550.00 ብር)');
    expect(amharic.html).toContain('lang="am"');
    // an Amharic message links the Amharic pages (docs/decisions/0092)
    expect(amharic.text).toContain(`https://shop.test/am/product/${oil}`);
    expect(amharic.html).toContain('<a href="https://shop.test/am/unsubscribe?token=');

    expect(await settled(en.email, /on sale/)).toHaveLength(1);
    expect(await settled(am.email, /ቅናሽ/)).toHaveLength(1);
    expect(await mails(t, admin, stockOnly.email)).toEqual([]);
    expect(await mails(t, admin, noFlags.email)).toEqual([]);
    const rows = await outbox.find({ eventKey: new RegExp(`^wishlist\\.sale:${oil}:`) }).lean();
    expect(rows.map((r) => [r.to, r.template, r.state, r.attempts]).sort()).toEqual(
      [
        [en.email, 'onSale', 'sent', 1],
        [am.email, 'onSale', 'sent', 1],
      ].sort(),
    );

    // a further drop is a new change: told again; a drop back to a price above the wished one is not
    await editProduct(oil, { ...drop, price: 380 }).expect(200);
    await waitForMails(t, admin, en.email, /on sale/, 2);
    const later = await customer();
    await wish(later.token, oil, { notifyOnSale: true }); // wished at 380
    await editProduct(oil, { ...drop, price: 450 }).expect(200);
    await editProduct(oil, { ...drop, price: 420 }).expect(200); // a drop, but above 380
    expect(await settled(later.email, /on sale/)).toEqual([]);
  });

  it('tells who asked when a sold-out product comes back (staff restock or a cancelled order), once per restock', async () => {
    const fields = { name: 'Coffee Body Scrub', price: 260, stock: 0 };
    const scrub = await makeProduct(fields);
    const watcher = await customer('am');
    const saleOnly = await customer();
    await wish(watcher.token, scrub, { notifyOnStock: true });
    await wish(saleOnly.token, scrub, { notifyOnSale: true });

    await Promise.all([
      editProduct(scrub, { ...fields, stock: 5 }).expect(200),
      editProduct(scrub, { ...fields, stock: 5 }).expect(200),
    ]);
    await editProduct(scrub, { ...fields, stock: 8 }).expect(200); // still in stock: not news
    const [first] = await waitForMails(t, admin, watcher.email, /እንደገና በክምችት አለ/);
    expect(first.subject).toBe('Coffee Body Scrub እንደገና በክምችት አለ');
    expect(linkIn(first)).toMatch(/\.stock\./);
    expect(await settled(watcher.email, /በክምችት/)).toHaveLength(1);

    // sold out by an order, back by its cancellation: the cancellation's transaction tells the watcher
    await editProduct(scrub, { ...fields, stock: 1 }).expect(200);
    const buyer = await customer();
    const order = await buy(buyer.token, scrub, 1);
    await request(t.http).patch(`/api/orders/${order._id}/cancel`).set(auth(buyer.token)).expect(200);
    await waitForMails(t, admin, watcher.email, /በክምችት/, 2);
    expect(
      await outbox.countDocuments({ eventKey: `wishlist.stock:${scrub}:cancel:${order._id}:${watcher.id}` }),
    ).toBe(1);
    expect(await settled(watcher.email, /በክምችት/)).toHaveLength(2);
    expect(await mails(t, admin, saleOnly.email)).toEqual([]);
  });

  it('stops a notice from the link without signing in, and refuses forged links with 400', async () => {
    const fields = { name: 'Aloe Gel', price: 150, stock: 3 };
    const gel = await makeProduct(fields);
    const c = await customer();
    await wish(c.token, gel, { notifyOnSale: true, notifyOnStock: true });
    await editProduct(gel, { ...fields, price: 120 }).expect(200);
    const [mail] = await waitForMails(t, admin, c.email, /Aloe Gel is on sale/);
    const token = linkIn(mail)!;

    const seen = await request(t.http).get(`/api/wishlist/unsubscribe?token=${token}`).expect(200);
    expect(seen.body).toEqual({
      success: true,
      kind: 'sale',
      product: { _id: gel, name: 'Aloe Gel' },
      subscribed: true,
    });
    const stopped = await request(t.http).post('/api/wishlist/unsubscribe').send({ token }).expect(200);
    expect(stopped.body).toMatchObject({ kind: 'sale', subscribed: false });
    await request(t.http).post('/api/wishlist/unsubscribe').send({ token }).expect(200); // idempotent
    const list = (await request(t.http).get('/api/wishlist').set(auth(c.token)).expect(200)).body;
    expect(list.products[0]).toMatchObject({ notifyOnSale: false, notifyOnStock: true });

    await editProduct(gel, { ...fields, price: 100 }).expect(200);
    expect(await settled(c.email, /on sale/)).toHaveLength(1);
    expect(await outbox.countDocuments({ eventKey: new RegExp(`^wishlist\\.sale:${gel}:.*:${c.id}$`) })).toBe(
      1,
    );

    const [userId, productId, , mac] = token.split('.');
    const forged = [
      `${userId}.${productId}.stock.${mac}`, // another notice with this signature
      `${'0'.repeat(24)}.${productId}.sale.${mac}`, // another customer
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      'nonsense',
    ];
    for (const bad of forged) {
      const res = await request(t.http).post('/api/wishlist/unsubscribe').send({ token: bad }).expect(400);
      expect(res.body).toMatchObject({ success: false, code: 'UNSUBSCRIBE_INVALID' });
      await request(t.http)
        .get(`/api/wishlist/unsubscribe?token=${encodeURIComponent(bad)}`)
        .expect(400);
    }
    await request(t.http).get('/api/wishlist/unsubscribe').expect(400);
    await request(t.http).post('/api/wishlist/unsubscribe').send({}).expect(400);
    await request(t.http).post('/api/wishlist/unsubscribe').send({ token: 42 }).expect(400);
    const after = (await request(t.http).get('/api/wishlist').set(auth(c.token)).expect(200)).body;
    expect(after.products[0]).toMatchObject({ notifyOnSale: false, notifyOnStock: true });
  });

  it('sends no wishlist notice while email notifications are off', async () => {
    const fields = { name: 'Quiet Soap', price: 90, stock: 0 };
    const soap = await makeProduct(fields);
    const c = await customer();
    await wish(c.token, soap, { notifyOnSale: true, notifyOnStock: true });
    await setSwitches({ emailNotifications: false });
    try {
      await editProduct(soap, { ...fields, price: 70, stock: 4 }).expect(200);
    } finally {
      await setSwitches({ emailNotifications: true });
    }
    expect(await settled(c.email, /./)).toEqual([]);
    expect(await outbox.countDocuments({ eventKey: new RegExp(`^wishlist\\.[a-z]+:${soap}:`) })).toBe(0);
  });

  it('writes notices in the change’s transaction: a change that fails leaves neither the price nor a message', async () => {
    const fields = { name: 'Fragile Cream', price: 300, stock: 2 };
    const cream = await makeProduct(fields);
    const c = await customer();
    await wish(c.token, cream, { notifyOnSale: true });
    const remove = t.app.get(StockService).onProductChange(async () => {
      throw new Error('listener fault after the notice was written');
    });
    try {
      await editProduct(cream, { ...fields, price: 200 }).expect(500);
    } finally {
      remove();
    }
    const product = (await request(t.http).get(`/api/products/${cream}`).expect(200)).body;
    expect((product.product ?? product).price).toBe(300);
    expect(await outbox.countDocuments({ eventKey: new RegExp(`^wishlist\\.sale:${cream}:`) })).toBe(0);
    // the same change without the fault goes through with its message
    await editProduct(cream, { ...fields, price: 200 }).expect(200);
    await waitForMails(t, admin, c.email, /Fragile Cream is on sale/);
  });

  it('alerts the shop once per crossing of the low-stock threshold, by orders, cancellations and staff edits', async () => {
    const fields = { name: 'Henna Powder', sku: 'HENNA-1', price: 90, stock: 7, lowStockThreshold: 5 };
    const henna = await makeProduct(fields);
    const buyer = await customer();
    const lowAlerts = async () =>
      (await mails(t, admin, adminEmail)).filter((m) => m.subject === 'Low stock: Henna Powder');

    const first = await buy(buyer.token, henna, 3); // 7 -> 4: crosses
    await waitForMails(t, admin, adminEmail, /Low stock: Henna Powder/);
    await request(t.http).patch(`/api/orders/${first._id}/cancel`).set(auth(buyer.token)).expect(200); // back to 7
    await sleep(400);
    expect(await lowAlerts()).toHaveLength(1); // going up is no alert
    await buy(buyer.token, henna, 1); // 7 -> 6: above
    await buy(buyer.token, henna, 2); // 6 -> 4: crosses again
    await waitForMails(t, admin, adminEmail, /Low stock: Henna Powder/, 2);
    await editProduct(henna, { ...fields, stock: 3 }).expect(200); // 4 -> 3: already low
    await sleep(400);
    expect(await lowAlerts()).toHaveLength(2);
    await editProduct(henna, { ...fields, stock: 20 }).expect(200);
    await Promise.all([
      editProduct(henna, { ...fields, stock: 2 }),
      editProduct(henna, { ...fields, stock: 2 }),
    ]);
    const alerts = await waitForMails(t, admin, adminEmail, /Low stock: Henna Powder/, 3);
    expect(alerts.map((m) => m.text).join('\n')).toContain(
      'Henna Powder (SKU HENNA-1) is down to 2 in stock; its alert threshold is 5.',
    );
    await sleep(400);
    expect(await lowAlerts()).toHaveLength(3);

    await editProduct(henna, { ...fields, stock: 20 }).expect(200);
    await setSwitches({ lowStockAlerts: false });
    try {
      await editProduct(henna, { ...fields, stock: 1 }).expect(200);
      await sleep(400);
      expect(await lowAlerts()).toHaveLength(3);
    } finally {
      await setSwitches({ lowStockAlerts: true });
    }
  });
});
