import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { Order } from '../src/modules/orders/schemas/order.schema';
import { Settings, SETTINGS_KEY } from '../src/modules/settings/schemas/settings.schema';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { mails, waitForMails } from './support/mail';
import { startTestApp, type TestApp } from './support/test-app';

/** Issue 34, points 3a, 4 and 6: contact replies, one shop clock, reports (docs/decisions/0081). */
describe('a shop owner’s day: replies, the shop clock, reports', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: string;
  let orders: Model<Order>;
  let settings: Model<Settings>;
  const newCustomer = customerFactory(() => t, 'day', 'Day Customer');

  const contact = async (fields: Record<string, unknown>) => {
    await request(t.http)
      .post('/api/contacts/submit')
      .send({ name: 'Hana Tesfaye', subject: 'Shea butter', message: 'Is it good for dry skin?', ...fields })
      .expect(201);
    const list = await request(t.http)
      .get(`/api/admin/contacts?filter=${encodeURIComponent(JSON.stringify({ q: fields.email }))}`)
      .set(auth(admin))
      .expect(200);
    return list.body[0] as { id: string; language?: string; status: string };
  };

  const csv = async (url: string) => {
    const res = await request(t.http)
      .get(url)
      .set(auth(admin))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return { res, bytes: res.body as Buffer, text: (res.body as Buffer).toString('utf8') };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'admin-day-'));
    t = await startTestApp({
      DATA_DIR: dataDir,
      NOTIFICATIONS_INTERVAL_MS: '100',
      NOTIFICATIONS_BACKOFF_MS: '50',
    });
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    orders = t.app.get(getModelToken(Order.name));
    settings = t.app.get(getModelToken(Settings.name));
  });

  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('the shop clock', () => {
    it('defaults to Addis Ababa and refuses a zone outside the list', async () => {
      await settings.deleteMany({ key: SETTINGS_KEY });
      const res = await request(t.http).get('/api/admin/settings').set(auth(admin)).expect(200);
      expect(res.body.settings.timezone).toBe('Africa/Addis_Ababa');
      const bad = await request(t.http)
        .put('/api/admin/settings')
        .set(auth(admin))
        .send({ timezone: 'Mars/Olympus' })
        .expect(400);
      expect(bad.body.code).toBeDefined();
      expect((await request(t.http).get('/api/admin/settings').set(auth(admin))).body.settings.timezone).toBe(
        'Africa/Addis_Ababa',
      );
    });
  });

  describe('replying to a contact message', () => {
    it('mails the reply in the message’s language, keeps it on the thread and marks the message replied', async () => {
      const message = await contact({ email: 'hana.am@example.et', language: 'am' });
      expect(message.language).toBe('am');
      const res = await request(t.http)
        .post(`/api/admin/contacts/${message.id}/replies`)
        .set(auth(admin))
        .send({ text: '  አዎ፣ ለደረቅ ቆዳ ተስማሚ ነው።  ' })
        .expect(201);
      expect(res.body.status).toBe('replied');
      expect(res.body.replies).toHaveLength(1);
      expect(res.body.replies[0]).toMatchObject({ text: 'አዎ፣ ለደረቅ ቆዳ ተስማሚ ነው።', language: 'am' });
      expect(res.body.replies[0].authorName).toBeTruthy();
      expect(Date.parse(res.body.replies[0].at)).not.toBeNaN();

      const [mail] = await waitForMails(t, admin, 'hana.am@example.et', /Shea butter/);
      expect(mail.subject).toContain('መልስ፦ Shea butter');
      expect(mail.text).toContain('ሰላም Hana Tesfaye፣');
      expect(mail.text).toContain('አዎ፣ ለደረቅ ቆዳ ተስማሚ ነው።');
      // the original message, dated on the shop clock in Ethiopian hours
      expect(mail.text).toContain('Is it good for dry skin?');
      expect(mail.text).toMatch(/በ.*2019፣ (ከሌሊቱ|ከጠዋቱ|ከሰዓት በኋላ|ከምሽቱ) \d{1,2}:\d\d የላኩት መልዕክት/);

      const again = await request(t.http)
        .get(`/api/admin/contacts/${message.id}`)
        .set(auth(admin))
        .expect(200);
      expect(again.body.replies).toHaveLength(1);
      expect(again.body.status).toBe('replied');

      const audit = await request(t.http)
        .get(`/api/admin/audit?filter=${encodeURIComponent(JSON.stringify({ entityId: message.id }))}`)
        .set(auth(admin))
        .expect(200);
      expect(audit.body.map((a: { action: string }) => a.action)).toContain('contact.reply');
    });

    it('writes in English to an English message, and in the shop’s language to one without a language', async () => {
      const en = await contact({ email: 'hana.en@example.et', language: 'en' });
      await request(t.http)
        .post(`/api/admin/contacts/${en.id}/replies`)
        .set(auth(admin))
        .send({ text: 'Yes, it is.' })
        .expect(201);
      const [mail] = await waitForMails(t, admin, 'hana.en@example.et', /Shea butter/);
      expect(mail.subject).toMatch(/^Re: Shea butter/);
      expect(mail.text).toContain('Hello Hana Tesfaye,');

      await settings.updateOne({ key: SETTINGS_KEY }, { $set: { language: 'am' } }, { upsert: true });
      try {
        const old = await contact({ email: 'hana.old@example.et' });
        expect(old.language).toBeUndefined();
        await request(t.http)
          .post(`/api/admin/contacts/${old.id}/replies`)
          .set(auth(admin))
          .send({ text: 'እናመሰግናለን' })
          .expect(201);
        const [amMail] = await waitForMails(t, admin, 'hana.old@example.et', /Shea butter/);
        expect(amMail.subject).toContain('መልስ፦');
      } finally {
        await settings.updateOne({ key: SETTINGS_KEY }, { $set: { language: 'en' } });
      }
    });

    it('refuses customers (403), an empty text (400), an unknown message (404), and changes nothing', async () => {
      const message = await contact({ email: 'hana.refused@example.et', language: 'en' });
      const customer = await newCustomer();
      await request(t.http)
        .post(`/api/admin/contacts/${message.id}/replies`)
        .set(auth(customer.token))
        .send({ text: 'Hi' })
        .expect(403);
      const empty = await request(t.http)
        .post(`/api/admin/contacts/${message.id}/replies`)
        .set(auth(admin))
        .send({ text: '   ' })
        .expect(400);
      expect(empty.body.code).toBeDefined();
      await request(t.http)
        .post(`/api/admin/contacts/${message.id}/replies`)
        .set(auth(admin))
        .send({})
        .expect(400);
      const missing = await request(t.http)
        .post('/api/admin/contacts/665f1c2e9b1d8c0012345678/replies')
        .set(auth(admin))
        .send({ text: 'Hi' })
        .expect(404);
      expect(missing.body.code).toBe('CONTACT_NOT_FOUND');
      const after = await request(t.http)
        .get(`/api/admin/contacts/${message.id}`)
        .set(auth(admin))
        .expect(200);
      expect(after.body.replies).toEqual([]);
      expect(after.body.status).toBe('unread');
      expect(await mails(t, admin, 'hana.refused@example.et')).toHaveLength(0);
    });

    it('refuses a language outside the list on the public form', async () => {
      await request(t.http)
        .post('/api/contacts/submit')
        .send({ name: 'X', email: 'x@example.et', subject: 'S', message: 'M', language: 'fr' })
        .expect(400);
    });
  });

  describe('reports', () => {
    let late: { _id: string; orderNumber: string };
    let other: { _id: string; orderNumber: string };

    beforeAll(async () => {
      const product = (
        await request(t.http)
          .post('/api/products')
          .set(auth(admin))
          .send({ name: 'Report Cream', price: 391.5, stock: 50, images: ['/api/assets/products/x.svg'] })
          .expect(201)
      ).body.product._id as string;
      const buy = async (state: string, paymentMethod: string) => {
        const customer = await newCustomer();
        await request(t.http)
          .post('/api/cart/add')
          .set(auth(customer.token))
          .send({ productId: product, quantity: 2 })
          .expect(200);
        const res = await request(t.http)
          .post('/api/orders')
          .set(auth(customer.token))
          .send({
            shippingAddress: { street: 'Bole Road 12', city: 'Adama', state, zipCode: '1000' },
            paymentMethod,
          })
          .expect(201);
        return res.body.order as { _id: string; orderNumber: string };
      };
      late = await buy('Oromia', 'chapa');
      other = await buy('Addis Ababa', 'cash_on_delivery');
      // placed at 21:30 UTC: 00:30 the next day in Addis Ababa; paid; a name a spreadsheet would run
      // createdAt is immutable through the model: written on the collection
      await orders.collection.updateOne(
        { _id: new Types.ObjectId(late._id) },
        {
          $set: {
            createdAt: new Date('2026-03-10T21:30:00Z'),
            paymentStatus: 'paid',
            'customer.name': '=HYPERLINK("http://evil.example","click")',
          },
        },
      );
      await orders.collection.updateOne(
        { _id: new Types.ObjectId(other._id) },
        { $set: { createdAt: new Date('2026-03-12T09:00:00Z'), paymentStatus: 'paid' } },
      );
    });

    it('exports orders as UTF-8 CSV with a BOM, the shop clock, ETB with 2 decimals and formulas neutralised', async () => {
      const { res, bytes, text } = await csv('/api/admin/orders/export.csv?lang=en');
      expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      expect(res.headers['content-disposition']).toMatch(
        /attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"/,
      );
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe(
        'Order number,Date,Customer,Email,Phone,Region,City,Items,Subtotal (ETB),Shipping (ETB),Tax (ETB),Total (ETB),Status,Payment status,Payment method,Shipping method',
      );
      const row = lines.find((l) => l.startsWith(late.orderNumber))!;
      expect(row).toContain(',2026-03-11 00:30,');
      expect(row).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",`);
      expect(row).toContain(',Oromia,Adama,2,783.00,');
      expect(row).toMatch(/,Paid,Chapa,/);
    });

    it('applies the list filters and writes Amharic headers and words on request', async () => {
      const filter = encodeURIComponent(JSON.stringify({ paymentMethod: 'cash_on_delivery' }));
      const { text } = await csv(`/api/admin/orders/export.csv?lang=am&filter=${filter}`);
      const lines = text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0].startsWith('የትዕዛዝ ቁጥር,ቀን,ደንበኛ')).toBe(true);
      expect(lines.some((l) => l.startsWith(other.orderNumber))).toBe(true);
      expect(lines.some((l) => l.startsWith(late.orderNumber))).toBe(false);
      const row = lines.find((l) => l.startsWith(other.orderNumber))!;
      expect(row).toContain(',አዲስ አበባ,');
      expect(row).toContain(',2026-03-12 12:00,');

      const day = encodeURIComponent(JSON.stringify({ createdFrom: '2026-03-11', createdTo: '2026-03-11' }));
      const byDay = (await csv(`/api/admin/orders/export.csv?filter=${day}`)).text;
      expect(byDay).toContain(late.orderNumber);
      expect(byDay).not.toContain(other.orderNumber);

      const bad = await request(t.http)
        .get(`/api/admin/orders/export.csv?filter=${encodeURIComponent('{"colour":"red"}')}`)
        .set(auth(admin))
        .expect(400);
      expect(bad.headers['content-type']).toMatch(/json/);
      expect(bad.body.code).toBeDefined();
    });

    it('exports customers with their joined date on the shop clock, filtered by role', async () => {
      const filter = encodeURIComponent(JSON.stringify({ role: 'customer' }));
      const { text, bytes } = await csv(`/api/admin/users/export.csv?lang=en&filter=${filter}`);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe('Name,Email,Phone,Role,Account,Language,Joined');
      expect(lines.some((l) => l.includes('day1@example.et'))).toBe(true);
      expect(lines.slice(1).every((l) => l.includes(',Customer,'))).toBe(true);
      expect(lines.slice(1).every((l) => /,\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(l))).toBe(true);
    });

    it('refuses customers the exports (403)', async () => {
      const customer = await newCustomer();
      await request(t.http).get('/api/admin/orders/export.csv').set(auth(customer.token)).expect(403);
      await request(t.http).get('/api/admin/users/export.csv').set(auth(customer.token)).expect(403);
    });

    it('breaks the sales of a period of shop days down by region and payment method', async () => {
      const res = await request(t.http)
        .get('/api/admin/dashboard/sales?from=2026-03-11&to=2026-03-12')
        .set(auth(admin))
        .expect(200);
      expect(res.body).toMatchObject({
        from: '2026-03-11',
        to: '2026-03-12',
        timezone: 'Africa/Addis_Ababa',
      });
      const region = Object.fromEntries(res.body.byRegion.map((r: { region: string }) => [r.region, r]));
      expect(region.Oromia).toMatchObject({ orders: 1 });
      expect(region['Addis Ababa']).toMatchObject({ orders: 1 });
      const method = Object.fromEntries(
        res.body.byPaymentMethod.map((r: { paymentMethod: string }) => [r.paymentMethod, r]),
      );
      expect(method.chapa.orders).toBe(1);
      expect(method.cash_on_delivery.orders).toBe(1);
      expect(method.chapa.total).toBeGreaterThan(783);

      // 2026-03-10 in Addis Ababa ends at 21:00 UTC: the 21:30 UTC order is not in it
      const before = await request(t.http)
        .get('/api/admin/dashboard/sales?from=2026-03-10&to=2026-03-10')
        .set(auth(admin))
        .expect(200);
      expect(before.body.byRegion).toEqual([]);
      const utc = await request(t.http)
        .put('/api/admin/settings')
        .set(auth(admin))
        .send({ timezone: 'UTC' })
        .expect(200);
      expect(utc.body.timezone ?? utc.body.settings?.timezone).toBe('UTC');
      try {
        const inUtc = await request(t.http)
          .get('/api/admin/dashboard/sales?from=2026-03-10&to=2026-03-10')
          .set(auth(admin))
          .expect(200);
        expect(inUtc.body.byRegion).toEqual([expect.objectContaining({ region: 'Oromia', orders: 1 })]);
      } finally {
        await request(t.http)
          .put('/api/admin/settings')
          .set(auth(admin))
          .send({ timezone: 'Africa/Addis_Ababa' })
          .expect(200);
      }
    });

    it('refuses a reversed or too long period with its code', async () => {
      for (const query of [
        'from=2026-03-12&to=2026-03-11',
        'from=2024-01-01&to=2026-03-11',
        'from=2026-02-30',
      ]) {
        const res = await request(t.http)
          .get(`/api/admin/dashboard/sales?${query}`)
          .set(auth(admin))
          .expect(400);
        expect(res.body.code).toBe('INVALID_REPORT_PERIOD');
      }
    });
  });
});
