import request from 'supertest';
import { startTestApp, type TestApp } from './support/test-app';

const DEFAULTS = {
  siteName: 'Addis Natural Beauty',
  siteDescription: 'Natural beauty and skincare products, delivered across Ethiopia.',
  adminEmail: 'admin@beauty.et',
  currency: 'ETB',
  language: 'en',
  // issue 34: one shop clock, Addis Ababa unless chosen otherwise (docs/decisions/0081)
  timezone: 'Africa/Addis_Ababa',
  emailNotifications: true,
  orderNotifications: true,
  lowStockAlerts: true,
  maintenanceMode: false,
  pricesIncludeTax: false,
  standardShipping: 150,
  expressShipping: 300,
  pickupShipping: 0,
  freeShippingThreshold: 1000,
  // issue 29: where pay on delivery is offered (docs/decisions/0061-pay-on-delivery.md)
  cashOnDelivery: { enabled: true, regions: ['Addis Ababa', 'Dire Dawa'], maxOrderTotal: 10000 },
};

describe('settings', () => {
  let t: TestApp;
  let admin: { token: string; id: string };
  let customer: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await startTestApp();
    const a = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Abebe Admin',
        email: 'abebe@shop.et',
        password: 'Admin@12345',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = { token: a.body.token, id: a.body.user._id };
    customer = (
      await request(t.http)
        .post('/api/auth/register')
        .send({ name: 'Hanna', email: 'hanna@example.et', password: 'Buna@2026' })
        .expect(201)
    ).body.token;
  });

  afterAll(async () => {
    await t.close();
  });

  it('keeps guests (401) and customers (403) out of the admin settings', async () => {
    await request(t.http).get('/api/admin/settings').expect(401);
    await request(t.http).put('/api/admin/settings').send(DEFAULTS).expect(401);
    await request(t.http).get('/api/admin/settings').set(auth(customer)).expect(403);
    await request(t.http)
      .put('/api/admin/settings')
      .set(auth(customer))
      .send({ ...DEFAULTS, maintenanceMode: true })
      .expect(403);
  });

  it('reads the defaults of docs/product.md §3 and §9 before any save', async () => {
    const res = await request(t.http).get('/api/admin/settings').set(auth(admin.token)).expect(200);
    expect(res.body).toEqual({ success: true, settings: DEFAULTS, updatedAt: null });
  });

  it('serves the public subset to the storefront without auth', async () => {
    const res = await request(t.http).get('/api/settings/public').expect(200);
    expect(res.body).toEqual({
      success: true,
      settings: {
        siteName: DEFAULTS.siteName,
        siteDescription: DEFAULTS.siteDescription,
        currency: 'ETB',
        language: 'en',
        maintenanceMode: false,
        shipping: [
          {
            method: 'standard',
            price: 150,
            minDays: 3,
            maxDays: 5,
            deliveryTime: '3-5 business days',
            freeOver: 1000,
          },
          { method: 'express', price: 300, minDays: 1, maxDays: 2, deliveryTime: '1-2 business days' },
          { method: 'pickup', price: 0, minDays: 0, maxDays: 0, deliveryTime: 'Same day' },
        ],
        freeShippingThreshold: 1000,
        taxPercent: 15,
        pricesIncludeTax: false,
        cashOnDelivery: DEFAULTS.cashOnDelivery,
      },
    });
    expect(JSON.stringify(res.body)).not.toContain('admin@beauty.et');
  });

  it('saves the full settings object the admin read back, answering "Settings saved"', async () => {
    const read = await request(t.http).get('/api/admin/settings').set(auth(admin.token)).expect(200);
    const next = {
      ...read.body.settings,
      siteName: 'Bole Beauty',
      adminEmail: 'Owner@Bole.et',
      currency: 'USD',
      language: 'am',
      timezone: 'Africa/Addis_Ababa',
      lowStockAlerts: false,
      expressShipping: 350.5,
      freeShippingThreshold: 1500,
    };
    const saved = await request(t.http)
      .put('/api/admin/settings')
      .set(auth(admin.token))
      .send(next)
      .expect(200);
    expect(saved.body).toMatchObject({
      success: true,
      message: 'Settings saved',
      settings: { ...next, adminEmail: 'owner@bole.et' },
    });
    const again = await request(t.http).get('/api/admin/settings').set(auth(admin.token)).expect(200);
    expect(again.body.settings).toEqual({ ...next, adminEmail: 'owner@bole.et' });
    expect(again.body.updatedAt).toEqual(expect.any(String));
    const pub = await request(t.http).get('/api/settings/public').expect(200);
    expect(pub.body.settings).toMatchObject({
      siteName: 'Bole Beauty',
      currency: 'USD',
      language: 'am',
      freeShippingThreshold: 1500,
    });
    expect(pub.body.settings.shipping[1]).toMatchObject({ method: 'express', price: 350.5 });
  });

  it('records the changed fields in the audit trail', async () => {
    const audit = await request(t.http)
      .get('/api/admin/audit')
      .query({ filter: '{"entity":"settings"}' })
      .set(auth(admin.token))
      .expect(200);
    expect(audit.body).toHaveLength(1);
    expect(audit.body[0]).toMatchObject({
      action: 'settings.update',
      actor: admin.id,
      from: { siteName: DEFAULTS.siteName, currency: 'ETB', expressShipping: 300 },
      to: { siteName: 'Bole Beauty', currency: 'USD', expressShipping: 350.5 },
    });
    expect(audit.body[0].to).not.toHaveProperty('maintenanceMode');
  });

  it('refuses bad values and unknown fields with 400, writing nothing', async () => {
    const auth0 = auth(admin.token);
    const bad = [
      { currency: 'EUR' },
      { language: 'fr' },
      { timezone: 'Mars/Olympus' },
      { maintenanceMode: 'yes' },
      { adminEmail: 'not-an-email' },
      { siteName: '' },
      { standardShipping: -1 },
      { standardShipping: 1.005 },
      { standardShipping: '150' },
      { currency: { $ne: 'ETB' } },
      { standardShippingSantim: 1 },
      { theme: 'dark' },
    ];
    for (const body of bad) {
      const res = await request(t.http).put('/api/admin/settings').set(auth0).send(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body).toMatchObject({ success: false, statusCode: 400, errors: expect.any(Array) });
    }
    const after = await request(t.http).get('/api/admin/settings').set(auth0).expect(200);
    expect(after.body.settings).toMatchObject({ currency: 'USD', language: 'am', standardShipping: 150 });
  });

  it('prices orders with the saved shipping rates', async () => {
    const res = await request(t.http)
      .put('/api/admin/settings')
      .set(auth(admin.token))
      .send({ standardShipping: 175 })
      .expect(200);
    expect(res.body.settings.standardShipping).toBe(175);
    const { SettingsService } = await import('../src/modules/settings/settings.service');
    expect(await t.app.get(SettingsService).shippingRates()).toEqual({
      standard: 17_500,
      express: 35_050,
      pickup: 0,
      freeStandardOver: 150_000,
    });
  });
});
