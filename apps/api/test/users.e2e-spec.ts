import request from 'supertest';
import { startTestApp, type TestApp } from './support/test-app';

describe('users: profile and address book', () => {
  let t: TestApp;
  let hanna: string;
  let dawit: string;
  const strong = 'Buna@2026x';

  const register = async (name: string, email: string) =>
    (await request(t.http).post('/api/auth/register').send({ name, email, password: strong }).expect(201))
      .body.token as string;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await startTestApp();
    hanna = await register('Hanna Tesfaye', 'hanna@example.et');
    dawit = await register('Dawit Bekele', 'dawit@example.et');
  });

  afterAll(async () => {
    await t.close();
  });

  it('keeps guests out of every profile route', async () => {
    await request(t.http).get('/api/users/profile').expect(401);
    await request(t.http).put('/api/users/profile').send({ name: 'X' }).expect(401);
    await request(t.http)
      .put('/api/users/profile/password')
      .send({ currentPassword: strong, newPassword: strong })
      .expect(401);
    await request(t.http).get('/api/users/addresses').expect(401);
    await request(t.http)
      .post('/api/users/addresses')
      .send({ street: 's', city: 'c', state: 's', zipCode: '1' })
      .expect(401);
    await request(t.http).put('/api/users/addresses/1').send({ city: 'c' }).expect(401);
    await request(t.http).delete('/api/users/addresses/1').expect(401);
  });

  it('reads my own profile, without the password hash', async () => {
    const res = await request(t.http).get('/api/users/profile').set(as(hanna)).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      user: { name: 'Hanna Tesfaye', email: 'hanna@example.et', role: 'customer', addresses: [] },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|addressSeq/);
  });

  it('updates name, email and phone, normalising each Ethiopian phone format', async () => {
    for (const [given, stored] of [
      ['+251911234567', '+251911234567'],
      ['0911 23 45 67', '+251911234567'],
      ['0712-345-678', '+251712345678'],
    ]) {
      const res = await request(t.http)
        .put('/api/users/profile')
        .set(as(hanna))
        .send({ phone: given })
        .expect(200);
      expect(res.body.user.phone).toBe(stored);
    }
    const res = await request(t.http)
      .put('/api/users/profile')
      .set(as(hanna))
      .send({ name: 'Hanna T. Alemu', email: 'Hanna.Alemu@Example.et' })
      .expect(200);
    expect(res.body).toMatchObject({ success: true, message: 'Profile updated successfully' });
    expect(res.body.user).toMatchObject({
      name: 'Hanna T. Alemu',
      firstName: 'Hanna',
      email: 'hanna.alemu@example.et',
      phone: '+251712345678',
    });
    const me = await request(t.http).get('/api/auth/me').set(as(hanna)).expect(200);
    expect(me.body.user.email).toBe('hanna.alemu@example.et');
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'hanna.alemu@example.et', password: strong })
      .expect(200);
  });

  it('removes the phone when sent empty', async () => {
    const res = await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ phone: '0922000000' })
      .expect(200);
    expect(res.body.user.phone).toBe('+251922000000');
    const cleared = await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ phone: '' })
      .expect(200);
    expect(cleared.body.user).not.toHaveProperty('phone');
  });

  it('refuses an email that another account uses with 409 and changes nothing', async () => {
    const res = await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ name: 'Taken', email: 'HANNA.ALEMU@example.et' })
      .expect(409);
    expect(res.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'An account with this email already exists',
      code: 'DUPLICATE_EMAIL',
      params: {},
    });
    const profile = await request(t.http).get('/api/users/profile').set(as(dawit)).expect(200);
    expect(profile.body.user).toMatchObject({ name: 'Dawit Bekele', email: 'dawit@example.et' });
  });

  it('refuses bad profile input: bad email, foreign phone, empty name, unknown fields, operators, role changes', async () => {
    const email = await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ email: 'nope' })
      .expect(400);
    expect(email.body).toMatchObject({ success: false, statusCode: 400, message: 'Validation failed' });
    expect(email.body.errors[0].field).toBe('email');
    const phone = await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ phone: '+254712345678' })
      .expect(400);
    expect(phone.body.code).toBe('INVALID_PHONE');
    expect(phone.body.errors[0]).toMatchObject({ field: 'phone', code: 'INVALID_PHONE' });
    await request(t.http).put('/api/users/profile').set(as(dawit)).send({ name: '   ' }).expect(400);
    await request(t.http).put('/api/users/profile').set(as(dawit)).send({ role: 'admin' }).expect(400);
    await request(t.http).put('/api/users/profile').set(as(dawit)).send({ isActive: false }).expect(400);
    await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ email: { $ne: null } })
      .expect(400);
    await request(t.http).put('/api/users/profile').set(as(dawit)).send({}).expect(400);
    const profile = await request(t.http).get('/api/users/profile').set(as(dawit)).expect(200);
    expect(profile.body.user).toMatchObject({
      name: 'Dawit Bekele',
      email: 'dawit@example.et',
      role: 'customer',
    });
  });

  it('refuses a huge body with 413 and changes nothing', async () => {
    const res = await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ name: 'x'.repeat(2 * 1024 * 1024) })
      .expect(413);
    expect(res.body).toMatchObject({ success: false, statusCode: 413 });
    const huge = await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: 'x'.repeat(2 * 1024 * 1024), city: 'c', state: 's', zipCode: '1' })
      .expect(413);
    expect(huge.body.success).toBe(false);
    const tooLong = await request(t.http)
      .put('/api/users/profile')
      .set(as(dawit))
      .send({ name: 'x'.repeat(101) })
      .expect(400);
    expect(tooLong.body.errors[0].field).toBe('name');
    expect((await request(t.http).get('/api/users/profile').set(as(dawit))).body.user.name).toBe(
      'Dawit Bekele',
    );
  });

  it('changes the password only with the current one and a strong new one', async () => {
    const next = 'Injera@2027';
    const missing = await request(t.http)
      .put('/api/users/profile/password')
      .set(as(dawit))
      .send({ newPassword: next })
      .expect(400);
    expect(missing.body.message).toBe('Current password is required');
    const wrong = await request(t.http)
      .put('/api/users/profile/password')
      .set(as(dawit))
      .send({ currentPassword: 'Wrong@1234', newPassword: next })
      .expect(400);
    expect(wrong.body.message).toBe('Current password is incorrect');
    const weak = await request(t.http)
      .put('/api/users/profile/password')
      .set(as(dawit))
      .send({ currentPassword: strong, newPassword: 'abc' })
      .expect(400);
    expect(weak.body.message).toBe('Please choose a stronger password');
    const mismatch = await request(t.http)
      .put('/api/users/profile/password')
      .set(as(dawit))
      .send({ currentPassword: strong, newPassword: next, confirmPassword: 'Other@2027' })
      .expect(400);
    expect(mismatch.body.message).toBe('Passwords do not match');
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'dawit@example.et', password: strong })
      .expect(200);

    const ok = await request(t.http)
      .put('/api/users/profile/password')
      .set(as(dawit))
      .send({ oldPassword: strong, newPassword: next })
      .expect(200);
    expect(ok.body).toEqual({
      success: true,
      message: 'Password updated successfully',
      token: expect.any(String),
    });
    // the change ended every earlier session; this one goes on with the new token
    await request(t.http).get('/api/auth/me').set(as(dawit)).expect(401);
    dawit = ok.body.token;
    await request(t.http).get('/api/auth/me').set(as(dawit)).expect(200);
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'dawit@example.et', password: strong })
      .expect(401);
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'dawit@example.et', password: next })
      .expect(200);
  });

  it('keeps an address book with numeric ids, Ethiopia by default and one default address', async () => {
    const first = await request(t.http)
      .post('/api/users/addresses')
      .set(as(hanna))
      .send({ street: 'Bole Road 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' })
      .expect(201);
    expect(first.body).toMatchObject({
      success: true,
      address: { id: 1, country: 'Ethiopia', isDefault: true },
    });
    const second = await request(t.http)
      .post('/api/users/addresses')
      .set(as(hanna))
      .send({ street: 'Piassa 3', city: 'Bahir Dar', state: 'Amhara', zipCode: '6000', country: 'ethiopia' })
      .expect(201);
    expect(second.body.address).toMatchObject({ id: 2, country: 'Ethiopia', isDefault: false });

    const moved = await request(t.http)
      .put('/api/users/addresses/2')
      .set(as(hanna))
      .send({ isDefault: true, street: 'Piassa 4' })
      .expect(200);
    expect(moved.body.address).toMatchObject({
      id: 2,
      street: 'Piassa 4',
      city: 'Bahir Dar',
      isDefault: true,
    });
    expect(
      moved.body.addresses
        .filter((a: { isDefault: boolean }) => a.isDefault)
        .map((a: { id: number }) => a.id),
    ).toEqual([2]);

    const list = await request(t.http).get('/api/users/addresses').set(as(hanna)).expect(200);
    expect(list.body.addresses.map((a: { id: number }) => a.id)).toEqual([1, 2]);

    const removed = await request(t.http).delete('/api/users/addresses/2').set(as(hanna)).expect(200);
    expect(removed.body.addresses).toEqual([expect.objectContaining({ id: 1, isDefault: true })]);
    const third = await request(t.http)
      .post('/api/users/addresses')
      .set(as(hanna))
      .send({ street: 'Kebele 04', city: 'Hawassa', state: 'Sidama', zipCode: '1500' })
      .expect(201);
    expect(third.body.address.id).toBe(3); // ids are never reused
  });

  it('refuses bad addresses: missing fields, another country, unknown fields, operators', async () => {
    const missing = await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: 'x' })
      .expect(400);
    // The postal code is optional (most Ethiopian addresses have none); city and region are not.
    const fields = missing.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['city', 'state']));
    expect(fields).not.toContain('zipCode');
    // a region that is not Ethiopia's, and a landline as the delivery phone: specific codes
    const region = await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: 'x', city: 'Nairobi', state: 'Nairobi' })
      .expect(400);
    expect(region.body.code).toBe('INVALID_REGION');
    expect(region.body.errors).toEqual([expect.objectContaining({ field: 'state', code: 'INVALID_REGION' })]);
    const landline = await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: 'x', city: 'Adama', state: 'Oromia', phone: '0221 11 22 33' })
      .expect(400);
    expect(landline.body.code).toBe('INVALID_PHONE');
    expect(landline.body.errors).toEqual([
      expect.objectContaining({ field: 'phone', code: 'INVALID_PHONE' }),
    ]);
    const abroad = await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: 'x', city: 'Moyale', state: 'Oromia', zipCode: '00100', country: 'Kenya' })
      .expect(400);
    expect(abroad.body.code).toBe('DELIVERY_COUNTRY');
    expect(abroad.body.errors[0]).toEqual({
      field: 'country',
      message: 'Delivery is only within Ethiopia',
      code: 'DELIVERY_COUNTRY',
    });
    await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: 'x', city: 'c', state: 's', zipCode: '1', id: 99 })
      .expect(400);
    await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: { $gt: '' }, city: 'c', state: 's', zipCode: '1' })
      .expect(400);
    await request(t.http)
      .post('/api/users/addresses')
      .set(as(dawit))
      .send({ street: ' ', city: 'c', state: 's', zipCode: '1' })
      .expect(400);
    expect((await request(t.http).get('/api/users/addresses').set(as(dawit))).body.addresses).toEqual([]);
  });

  it("never reaches another user's addresses, and answers 404 for unknown or malformed ids", async () => {
    const put = await request(t.http)
      .put('/api/users/addresses/1')
      .set(as(dawit))
      .send({ city: 'Mekelle' })
      .expect(404);
    expect(put.body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Address not found',
      code: 'ADDRESS_NOT_FOUND',
      params: {},
    });
    await request(t.http).delete('/api/users/addresses/1').set(as(dawit)).expect(404);
    await request(t.http).put('/api/users/addresses/abc').set(as(hanna)).send({ city: 'x' }).expect(404);
    await request(t.http).delete('/api/users/addresses/1e3').set(as(hanna)).expect(404);
    await request(t.http).delete('/api/users/addresses/999').set(as(hanna)).expect(404);
    const mine = await request(t.http).get('/api/users/addresses').set(as(hanna)).expect(200);
    expect(mine.body.addresses[0]).toMatchObject({ id: 1, city: 'Addis Ababa' });
  });
});
