import request from 'supertest';
import {
  ADDRESS,
  expectErrorShape,
  PASSWORD,
  startSecurityShop,
  type Account,
  type SecurityShop,
} from './support';

/** Query-operator objects a client may send in place of a text value. */
const OPERATORS: unknown[] = [
  { $ne: null },
  { $gt: '' },
  { $regex: '.*' },
  { $where: 'sleep(1000)' },
  ['$ne', null],
];
/** Text that a careless server would run as a regular expression (the second one backtracks catastrophically). */
const REGEX_TEXT = ['.*', '(a+)+$', '^', '[', '(?=a)', '\\', '$', '{"$gt":""}', "' || 1==1 //"];

/** OWASP API10:2023 (and the classic injection risk): user text is only ever data. */
describe('API10 injection: query operators and regular expressions in every text input', () => {
  let shop: SecurityShop;
  let customer: Account;
  let productId: string;

  beforeAll(async () => {
    shop = await startSecurityShop({ CONTACT_RATE_LIMIT: '100000' });
    customer = await shop.customer();
    productId = await shop.product({ name: 'Shea Butter Cream', brand: 'Abyssinia' });
    await shop.product({ name: 'Moringa Glow Serum', brand: 'Sheba' });
  });

  afterAll(() => shop.close());

  interface Form {
    label: string;
    send(body: Record<string, unknown>): PromiseLike<request.Response>;
    valid: Record<string, unknown>;
    fields: string[];
  }

  const forms = (): Form[] => {
    const http = shop.t.http;
    const as = (t: request.Test) => t.set(shop.auth(customer.token));
    return [
      {
        label: 'register',
        send: (b) => request(http).post('/api/auth/register').send(b),
        valid: { name: 'Inj Ection', email: 'inj@example.et', password: PASSWORD },
        fields: ['name', 'email', 'password', 'phone'],
      },
      {
        label: 'login',
        send: (b) => request(http).post('/api/auth/login').send(b),
        valid: { email: customer.email, password: PASSWORD },
        fields: ['email', 'password', 'role'],
      },
      {
        label: 'profile',
        send: (b) => as(request(http).put('/api/users/profile')).send(b),
        valid: { name: 'Still Me' },
        fields: ['name', 'firstName', 'lastName', 'email', 'phone'],
      },
      {
        label: 'address',
        send: (b) => as(request(http).post('/api/users/addresses')).send(b),
        valid: { ...ADDRESS },
        fields: ['street', 'city', 'state', 'zipCode', 'country'],
      },
      {
        label: 'password',
        // a password change that goes through ends the earlier tokens: go on with the new one
        send: async (b) => {
          const res = await as(request(http).put('/api/users/profile/password')).send(b);
          if (typeof res.body.token === 'string') customer.token = res.body.token;
          return res;
        },
        valid: { currentPassword: PASSWORD, newPassword: PASSWORD },
        fields: ['currentPassword', 'newPassword'],
      },
      {
        label: 'contact',
        send: (b) => request(http).post('/api/contacts/submit').send(b),
        valid: { name: 'Sender', email: 's@example.et', subject: 'Hello', message: 'A message' },
        fields: ['name', 'email', 'subject', 'message'],
      },
      {
        label: 'review',
        send: (b) => as(request(http).patch('/api/reviews/0123456789abcdef01234567')).send(b),
        valid: { rating: 4, comment: 'ok' },
        fields: ['comment', 'title', 'text'],
      },
      {
        label: 'cart',
        send: (b) => as(request(http).post('/api/cart/add')).send(b),
        valid: { productId, quantity: 1 },
        fields: ['productId'],
      },
      {
        label: 'order',
        send: (b) => as(request(http).post('/api/orders')).send(b),
        valid: { shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' },
        fields: ['paymentMethod', 'shippingMethod'],
      },
      {
        label: 'payment',
        send: (b) => as(request(http).post('/api/payments/initialize')).send(b),
        valid: { orderId: '0123456789abcdef01234567' },
        fields: ['orderId'],
      },
    ];
  };

  it('refuses a query-operator object in place of any text field with 400, in the error shape', async () => {
    const failures: string[] = [];
    for (const form of forms()) {
      for (const field of form.fields) {
        for (const value of OPERATORS) {
          const res = await form.send({ ...form.valid, [field]: value });
          if (res.status !== 400)
            failures.push(`${form.label}.${field}=${JSON.stringify(value)} -> ${res.status}`);
          else expectErrorShape(res.body, 400);
          expect(res.body.token).toBeUndefined();
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses operator objects inside the order address', async () => {
    for (const field of Object.keys(ADDRESS)) {
      const res = await request(shop.t.http)
        .post('/api/orders')
        .set(shop.auth(customer.token))
        .send({ shippingAddress: { ...ADDRESS, [field]: { $ne: null } } });
      expect(res.status).toBe(400);
    }
  });

  it('takes regular-expression text in every text field as plain text: no 500, no sign-in, no match-all', async () => {
    const failures: string[] = [];
    for (const form of forms()) {
      for (const field of form.fields) {
        for (const value of REGEX_TEXT) {
          const res = await form.send({ ...form.valid, [field]: value });
          if (res.status >= 500) failures.push(`${form.label}.${field}=${value} -> ${res.status}`);
          if (form.label === 'login') expect(res.body.token).toBeUndefined();
        }
      }
    }
    expect(failures).toEqual([]);
    const login = await request(shop.t.http).post('/api/auth/login').send({ email: '.*', password: '.*' });
    expect([400, 401]).toContain(login.status);
  });

  it('refuses operator syntax in every catalogue query parameter with 400', async () => {
    const params = [
      'search',
      'brand',
      'category',
      'subCategory',
      'sort',
      'page',
      'limit',
      'minPrice',
      'maxPrice',
      'minRating',
      'inStock',
    ];
    const failures: string[] = [];
    for (const param of params) {
      for (const suffix of ['[$ne]=x', '[$gt]=', '[$regex]=.*', '[]=a&' + param + '[]=b']) {
        const res = await request(shop.t.http).get(`/api/products?${param}${suffix}`);
        if (res.status !== 400)
          failures.push(`${param}${suffix} -> ${res.status} (${res.body.totalProducts ?? ''})`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('matches search and brand text literally, never as a pattern that lists everything', async () => {
    // ('shea' would find Sheba's product too: one typo is forgiven in a word of 4 to 7 letters)
    const control = await request(shop.t.http).get('/api/products').query({ search: 'butter' }).expect(200);
    expect(control.body.totalProducts).toBe(1);
    const all = (await request(shop.t.http).get('/api/products').expect(200)).body.totalProducts as number;
    expect(all).toBe(2);
    for (const value of REGEX_TEXT) {
      for (const param of ['search', 'brand']) {
        const res = await request(shop.t.http)
          .get('/api/products')
          .query({ [param]: value });
        expect({ param, value, status: res.status }).toEqual({ param, value, status: 200 });
        // Search works on words: text without letters or digits matches nothing; other text never matches everything.
        if (!/[\p{L}\p{N}]/u.test(value))
          expect({ param, value, total: res.body.totalProducts }).toEqual({ param, value, total: 0 });
        expect(res.body.totalProducts).toBeLessThan(all);
      }
    }
    const catastrophic = await request(shop.t.http)
      .get('/api/products')
      .query({ search: `${'a'.repeat(60)}!`, brand: '(a+)+$' })
      .expect(200);
    expect(catastrophic.body.totalProducts).toBe(0);
  });

  it('treats ids in paths and back-office filters as data', async () => {
    const http = shop.t.http;
    for (const id of [
      '.*',
      '{"$ne":null}',
      '%7B%22%24ne%22%3Anull%7D',
      '[$ne]',
      'null',
      '0'.repeat(24).replace(/0$/, 'z'),
    ]) {
      for (const path of [`/api/products/${id}`, `/api/reviews/product/${id}`]) {
        const res = await request(http).get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
      const order = await request(http).get(`/api/orders/${id}`).set(shop.auth(customer.token));
      expect(order.status).toBe(404);
    }
    const admin = shop.auth(shop.admin.token);
    const literal = await request(http)
      .get('/api/admin/products')
      .query({ filter: JSON.stringify({ q: '.*' }) })
      .set(admin)
      .expect(200);
    expect(literal.body).toEqual([]);
    for (const filter of [
      { q: { $ne: null } },
      { id: { $ne: null } },
      { $where: '1' },
      { name: { $regex: '.*' } },
    ]) {
      const res = await request(http)
        .get('/api/admin/products')
        .query({ filter: JSON.stringify(filter) })
        .set(admin);
      expect(res.status).toBe(400);
    }
    // Only accounts whose name or email literally contains ".*" (an earlier test made one) match.
    const users = await request(http)
      .get('/api/admin/users')
      .query({ filter: JSON.stringify({ q: '.*' }) })
      .set(admin)
      .expect(200);
    for (const user of users.body as Array<{ name: string; email: string }>)
      expect(`${user.name} ${user.email}`).toContain('.*');
    const everyone = await request(http)
      .get('/api/admin/users')
      .query({ filter: '{}' })
      .set(admin)
      .expect(200);
    expect(users.body.length).toBeLessThan(everyone.body.length);
  });
});
