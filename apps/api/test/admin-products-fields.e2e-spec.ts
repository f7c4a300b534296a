import request from 'supertest';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The product form's fields customers see (issue 34.5, docs/decisions/0082): the compare-at price
 * (originalPrice, the discount badge follows from it), the sub-category, the size and 'Published'
 * (active), through the back office's routes and as the storefront reads them afterwards.
 */
describe('admin product fields: compare-at price, sub-category, size, published', () => {
  let t: TestApp;
  let auth: { Authorization: string };
  let customerAuth: { Authorization: string };

  const login = async (account: { email: string; password: string }) =>
    (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: account.email, password: account.password })
        .expect(200)
    ).body.token as string;

  const productCount = async () => {
    const total = (await request(t.http).get('/api/admin/products?limit=1').set(auth).expect(200)).body.total;
    expect(typeof total).toBe('number');
    return total as number;
  };

  const base = { name: 'Moringa Field Serum', category: 'skincare', price: 900, stock: 10 };

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    auth = { Authorization: `Bearer ${await login(DEMO_ACCOUNTS.admin)}` };
    customerAuth = { Authorization: `Bearer ${await login(DEMO_ACCOUNTS.customer)}` };
  });

  afterAll(async () => {
    await t.close();
  });

  it('creates a product with its compare-at price, sub-category and size; the storefront shows the discount', async () => {
    const created = await request(t.http)
      .post('/api/admin/products')
      .set(auth)
      .send({ ...base, originalPrice: 1080, subCategory: 'serums', size: '30 ml', active: true })
      .expect(201);
    expect(created.body).toMatchObject({
      originalPrice: 1080,
      subCategory: 'serums',
      size: '30 ml',
      active: true,
      discount: 17,
    });
    const shown = await request(t.http).get(`/api/products/${created.body.id}`).expect(200);
    expect(shown.body).toMatchObject({ price: 900, originalPrice: 1080, discount: 17, size: '30 ml' });
    const listed = await request(t.http).get('/api/products?subCategory=serums&limit=100').expect(200);
    expect(listed.body.products.map((p: { _id: string }) => p._id)).toContain(created.body.id);
  });

  it.each([
    ['equal to the price', 900],
    ['below the price', 850],
  ])(
    'refuses a compare-at price %s with 400 COMPARE_AT_NOT_ABOVE_PRICE and creates nothing',
    async (_, originalPrice) => {
      const before = await productCount();
      const res = await request(t.http)
        .post('/api/admin/products')
        .set(auth)
        .send({ ...base, name: 'Refused Serum', originalPrice })
        .expect(400);
      expect(res.body).toMatchObject({
        code: 'COMPARE_AT_NOT_ABOVE_PRICE',
        params: { price: 900 },
        errors: [{ field: 'originalPrice', code: 'COMPARE_AT_NOT_ABOVE_PRICE' }],
      });
      expect(res.body.message).toMatch(/higher than the price/);
      const after = await productCount();
      expect(after).toBe(before);
    },
  );

  it('refuses a sub-category of another category with 400 SUB_CATEGORY_NOT_IN_CATEGORY', async () => {
    const res = await request(t.http)
      .post('/api/admin/products')
      .set(auth)
      .send({ ...base, name: 'Lipstick Serum', subCategory: 'lips' })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'SUB_CATEGORY_NOT_IN_CATEGORY',
      errors: [{ field: 'subCategory', code: 'SUB_CATEGORY_NOT_IN_CATEGORY' }],
    });
    await request(t.http)
      .post('/api/admin/products')
      .set(auth)
      .send({ ...base, name: 'Unknown Sub', subCategory: 'nail-polish' })
      .expect(400);
  });

  it('round-trips the fields through an edit of the whole record, refuses a bad edit unchanged, and clears what the form clears', async () => {
    const created = await request(t.http)
      .post('/api/admin/products')
      .set(auth)
      .send({
        ...base,
        name: 'Round Trip Oil',
        originalPrice: 1000,
        subCategory: 'treatments',
        size: '100 ml',
      })
      .expect(201);
    const id = created.body.id as string;
    const record = (await request(t.http).get(`/api/admin/products/${id}`).set(auth).expect(200)).body;

    // react-admin sends the whole record back: a raised price above the compare-at price is refused
    const refused = await request(t.http)
      .put(`/api/admin/products/${id}`)
      .set(auth)
      .send({ ...record, price: 1000 })
      .expect(400);
    expect(refused.body.code).toBe('COMPARE_AT_NOT_ABOVE_PRICE');
    expect((await request(t.http).get(`/api/admin/products/${id}`).set(auth)).body).toMatchObject({
      price: 900,
      originalPrice: 1000,
    });

    const edited = await request(t.http)
      .put(`/api/admin/products/${id}`)
      .set(auth)
      .send({ ...record, originalPrice: 1200, subCategory: 'masks', size: '50 g', active: false })
      .expect(200);
    expect(edited.body).toMatchObject({
      originalPrice: 1200,
      subCategory: 'masks',
      size: '50 g',
      active: false,
      discount: 25,
    });
    // not published: customers no longer find it
    await request(t.http).get(`/api/products/${id}`).expect(404);

    // a client of the spec's form knows no sub-category or size: its edit leaves them as they are
    const { originalPrice: _o, subCategory: _s, size: _z, ...rest } = edited.body;
    const kept = await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth)
      .send({ ...rest, originalPrice: 1200 })
      .expect(200);
    expect(kept.body.product).toMatchObject({ subCategory: 'masks', size: '50 g', originalPrice: 1200 });

    // the back office clears them with null (an empty size too); a compare-at price left out is cleared
    const cleared = await request(t.http)
      .put(`/api/admin/products/${id}`)
      .set(auth)
      .send({ ...rest, subCategory: null, size: '', active: true })
      .expect(200);
    expect(cleared.body.discount).toBe(0);
    expect(cleared.body).not.toHaveProperty('originalPrice');
    expect(cleared.body).not.toHaveProperty('subCategory');
    expect(cleared.body).not.toHaveProperty('size');
    const shown = await request(t.http).get(`/api/products/${id}`).expect(200);
    expect(shown.body.discount).toBe(0);
  });

  it('keeps customers out of the back office product routes', async () => {
    await request(t.http)
      .post('/api/admin/products')
      .set(customerAuth)
      .send({ ...base, name: 'Customer Serum', originalPrice: 1000 })
      .expect(403);
  });
});
