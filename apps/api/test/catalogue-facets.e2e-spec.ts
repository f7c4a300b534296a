import request from 'supertest';
import { DEMO_ACCOUNTS } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

interface FacetCount {
  value: string;
  count: number;
}
interface Listing {
  products: { name: string; brand: string }[];
  totalProducts: number;
  facets?: { category?: FacetCount[]; brand?: FacetCount[] };
}

/**
 * The catalogue's brand filter (one or several brands) and its counts per category and brand for the
 * filter drawer (docs/decisions/0091-catalogue-facets.md): each facet counts the products of the
 * other filters, with and without a search; asked for with `facets`, absent otherwise.
 */
describe('catalogue facets and brand filter', () => {
  let t: TestApp;
  let admin: string;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  const list = async (query: string, token?: string) => {
    const req = request(t.http).get(`/api/products?${query}`);
    if (token) void req.set(as(token));
    return (await req.expect(200)).body as Listing;
  };
  const counts = (facets: FacetCount[] | undefined) =>
    Object.fromEntries((facets ?? []).filter((f) => f.count > 0).map((f) => [f.value, f.count]));
  const names = (body: Listing) => body.products.map((p) => p.name).sort();

  const product = (name: string, brand: string, category: string, price: number, stock: number) => ({
    name,
    brand,
    description: `${name}, made in Ethiopia.`,
    price,
    stock,
    category,
  });

  beforeAll(async () => {
    t = await startTestApp();
    await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Selam Admin',
        email: DEMO_ACCOUNTS.admin.email,
        password: DEMO_ACCOUNTS.admin.password,
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password })
    ).body.token;
    for (const p of [
      product('Buna Coffee Scrub', 'Buna Beauty', 'skincare', 450, 10),
      product('Buna Coffee Mist', 'Buna Beauty', 'fragrance', 150, 0),
      product('Buna Hair Oil', 'Buna Beauty', 'haircare', 600, 5),
      product('Moringa Coffee Serum', 'Habesha Naturals', 'skincare', 890, 3),
      product('Moringa Hair Mask', 'habesha naturals', 'haircare', 700, 2),
      product('Teff Lip Balm', 'Lalibela Beauty', 'makeup', 180, 8),
    ])
      await request(t.http).post('/api/products').set(as(admin)).send(p).expect(201);
  });

  afterAll(async () => {
    await t.close();
  });

  it('keeps the answer as small as before unless counts are asked for', async () => {
    const body = await list('');
    expect(body.totalProducts).toBe(6);
    expect(body).not.toHaveProperty('facets');
    expect(Object.keys(body).sort()).toEqual(['page', 'products', 'totalPages', 'totalProducts']);
  });

  it('filters by one or several brands, case-insensitively; an unknown brand lists nothing', async () => {
    expect(names(await list('brand=buna%20beauty'))).toEqual([
      'Buna Coffee Mist',
      'Buna Coffee Scrub',
      'Buna Hair Oil',
    ]);
    expect(names(await list('brand=Habesha%20Naturals&brand=Lalibela%20Beauty'))).toEqual([
      'Moringa Coffee Serum',
      'Moringa Hair Mask',
      'Teff Lip Balm',
    ]);
    expect(names(await list('brand=Habesha%20Naturals&brand=Nobody'))).toHaveLength(2);
    expect((await list('brand=Nobody')).totalProducts).toBe(0);
    expect((await list('brand=')).totalProducts).toBe(6); // a form that chose no brand
    // with a search, the same brands
    expect(names(await list('search=coffee&brand=Buna%20Beauty&brand=habesha%20naturals'))).toEqual([
      'Buna Coffee Mist',
      'Buna Coffee Scrub',
      'Moringa Coffee Serum',
    ]);
  });

  it('counts categories and brands, each ignoring its own filter, without a search', async () => {
    const all = await list('facets=category,brand');
    expect(all.facets?.category?.map((f) => f.value)).toContain('skincare');
    expect(all.facets?.category?.every((f) => typeof f.count === 'number')).toBe(true);
    expect(counts(all.facets?.category)).toEqual({ skincare: 2, fragrance: 1, haircare: 2, makeup: 1 });
    // one entry per brand whatever its case, most products first
    expect(all.facets?.brand).toEqual([
      { value: 'Buna Beauty', count: 3 },
      { value: 'Habesha Naturals', count: 2 },
      { value: 'Lalibela Beauty', count: 1 },
    ]);

    const chosen = await list('facets=category,brand&brand=Buna%20Beauty&category=haircare');
    expect(names(chosen)).toEqual(['Buna Hair Oil']);
    // categories among Buna Beauty's products; brands among hair care's products (spelled as there)
    expect(counts(chosen.facets?.category)).toEqual({ skincare: 1, fragrance: 1, haircare: 1 });
    expect(counts(chosen.facets?.brand)).toEqual({ 'Buna Beauty': 1, 'habesha naturals': 1 });

    // other filters narrow both facets
    const inStock = await list('facets=brand,category&inStock=true&minPrice=200');
    expect(counts(inStock.facets?.category)).toEqual({ skincare: 2, haircare: 2 });
    expect(counts(inStock.facets?.brand)).toEqual({ 'Buna Beauty': 2, 'Habesha Naturals': 2 });

    // only the facet asked for; a brand asked for that has none is still named, at 0
    const brandOnly = await list('facets=brand&brand=Nobody');
    expect(brandOnly.facets).not.toHaveProperty('category');
    expect(brandOnly.facets?.brand).toContainEqual({ value: 'Nobody', count: 0 });
    expect(brandOnly.facets?.brand).toContainEqual({ value: 'Buna Beauty', count: 3 });
  });

  it('counts the matches of a search the same way', async () => {
    const found = await list('search=coffee&facets=category,brand');
    expect(found.totalProducts).toBe(3);
    expect(counts(found.facets?.category)).toEqual({ skincare: 2, fragrance: 1 });
    expect(counts(found.facets?.brand)).toEqual({ 'Buna Beauty': 2, 'Habesha Naturals': 1 });

    const narrowed = await list(
      'search=coffee&facets=category,brand&brand=Habesha%20Naturals&category=skincare',
    );
    expect(names(narrowed)).toEqual(['Moringa Coffee Serum']);
    expect(counts(narrowed.facets?.category)).toEqual({ skincare: 1 });
    expect(counts(narrowed.facets?.brand)).toEqual({ 'Buna Beauty': 1, 'Habesha Naturals': 1 });

    const nothing = await list('search=zzzqqq&facets=category,brand');
    expect(nothing.totalProducts).toBe(0);
    expect(counts(nothing.facets?.category)).toEqual({});
    expect(nothing.facets?.brand).toEqual([]);
  });

  it('answers the same counts to a signed-in shopper (through Nest) as to an anonymous one', async () => {
    const query = 'facets=category,brand&brand=Buna%20Beauty&brand=Lalibela%20Beauty&minPrice=160';
    const anonymous = await list(query);
    const signedIn = await list(query, admin);
    expect(signedIn).toEqual(anonymous);
    expect(names(anonymous)).toEqual(['Buna Coffee Scrub', 'Buna Hair Oil', 'Teff Lip Balm']);
  });

  it('counts a product created or withdrawn at the next read', async () => {
    const before = await list('facets=brand,category');
    expect(counts(before.facets?.brand)['Axum Scents']).toBeUndefined();
    const created = await request(t.http)
      .post('/api/products')
      .set(as(admin))
      .send(product('Axum Frankincense Oil', 'Axum Scents', 'fragrance', 520, 4))
      .expect(201);
    const after = await list('facets=brand,category');
    expect(counts(after.facets?.brand)['Axum Scents']).toBe(1);
    expect(counts(after.facets?.category).fragrance).toBe(2);
    await request(t.http).delete(`/api/products/${created.body.product._id}`).set(as(admin)).expect(200);
    const withdrawn = await list('facets=brand,category');
    expect(counts(withdrawn.facets?.brand)['Axum Scents']).toBeUndefined();
    expect(counts(withdrawn.facets?.category).fragrance).toBe(1);
  });

  it('refuses a bad shape with 400 and a code', async () => {
    for (const bad of [
      'facets=price',
      'facets=category,brand,category',
      'facets=',
      `brand=${'a'.repeat(101)}`,
      Array.from({ length: 21 }, (_, i) => `brand=b${i}`).join('&'),
    ]) {
      const res = await request(t.http).get(`/api/products?${bad}`).expect(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400, code: 'VALIDATION_FAILED' });
    }
    const nul = await request(t.http).get('/api/products?brand=a%00b').expect(400);
    expect(nul.body.code).toBe('INVALID_TEXT');
  });
});
