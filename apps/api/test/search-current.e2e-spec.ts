import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { auth } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const HOT_CACHE_TTL_MS = 1000;
/** What another instance's write may take to show: the TTL, and round trips on a busy test machine. */
const ELSEWHERE_MS = HOT_CACHE_TTL_MS + 2000;

const product = (over: Record<string, unknown> = {}) => ({
  name: 'Qorqorro Tamarind Cleanser',
  nameAm: 'የቆርቆሮ ማጽጃ',
  brand: 'Gondar Greens',
  description: 'A tamarind cleanser for oily skin.',
  ingredients: ['Tamarind extract', 'Glycerin'],
  price: 300,
  stock: 0,
  category: 'skincare',
  ...over,
});

type Listing = { products: { _id: string; name: string; stock: number }[]; totalProducts: number };
type Suggestions = { products: { _id: string; name: string }[] };

/**
 * The search index follows the catalogue (issue 31): a product created, renamed, withdrawn or restocked
 * is found (or not) at once on the instance that wrote it, and within HOT_CACHE_TTL_MS on another
 * instance over the same database, which hears of it through the shared cache version.
 */
describe('search: the index kept current on one instance and across two', () => {
  let engine: EmbeddedMongo;
  let a: TestApp;
  let b: TestApp;
  let admin: string;

  const listing = async (t: TestApp, query: string) =>
    (await request(t.http).get(`/api/products?${query}`).expect(200)).body as Listing;
  /** The suggestions answer from the index's own facts: what the index holds, without the database's word. */
  const suggested = async (t: TestApp, q: string) =>
    (
      (await request(t.http).get('/api/products/suggestions').query({ q, limit: 10 }).expect(200))
        .body as Suggestions
    ).products;
  /** Waits until `check` holds on an instance (for another instance's write), at most `ms`; answers how long it took. */
  const within = async (ms: number, check: () => Promise<boolean>): Promise<number> => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return Date.now() - started;
  };

  beforeAll(async () => {
    engine = await startEmbeddedMongo({ port: 0, inMemory: true });
    const env = {
      MONGODB_URI: engine.uri,
      MONGODB_DB: `search_${randomBytes(4).toString('hex')}`,
      HOT_CACHE_TTL_MS: String(HOT_CACHE_TTL_MS),
    };
    a = await startTestApp(env);
    b = await startTestApp(env);
    admin = (
      await request(a.http)
        .post('/api/auth/register-admin')
        .send({
          name: 'Selam Admin',
          email: 'search.admin@example.et',
          password: 'Buna@2026x',
          adminSecretKey: a.config.adminSecretKey,
        })
        .expect(201)
    ).body.token;
  });

  afterAll(async () => {
    for (const t of [a, b]) await t?.app.close();
    await engine?.stop();
  });

  it('finds a created product at once here and soon on the other instance, by name, Latin spelling and typo', async () => {
    // both instances have searched (their indexes are built) before the product exists
    expect(await suggested(a, 'tamarind')).toEqual([]);
    expect(await suggested(b, 'tamarind')).toEqual([]);
    const created = await request(a.http).post('/api/products').set(auth(admin)).send(product()).expect(201);
    const id = created.body.product._id as string;
    expect((await suggested(a, 'tamarind')).map((p) => p._id)).toEqual([id]);
    expect((await listing(a, 'search=qorqoro')).products.map((p) => p._id)).toEqual([id]); // ቆርቆሮ in Latin letters
    await within(ELSEWHERE_MS, async () => (await suggested(b, 'tamarnid')).some((p) => p._id === id));
    expect((await listing(b, 'search=gondar%20tamarind')).products.map((p) => p._id)).toEqual([id]);
  });

  it('follows a rename: the new name is found and the old one no longer, on both instances', async () => {
    const [{ _id: id }] = await suggested(a, 'tamarind');
    await request(a.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send(
        product({ name: 'Wanza Honey Cleanser', description: 'A honey cleanser.', ingredients: ['Honey'] }),
      )
      .expect(200);
    expect(await suggested(a, 'tamarind')).toEqual([]);
    expect((await suggested(a, 'wanza')).map((p) => p._id)).toEqual([id]);
    await within(ELSEWHERE_MS, async () => (await suggested(b, 'tamarind')).length === 0);
    expect((await suggested(b, 'wanza')).map((p) => p._id)).toEqual([id]);
  });

  it('follows a restock: the in-stock filter of a search finds the product once it has stock', async () => {
    const [{ _id: id }] = await suggested(a, 'wanza');
    expect((await listing(b, 'search=wanza&inStock=true')).totalProducts).toBe(0);
    await request(a.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send(
        product({
          name: 'Wanza Honey Cleanser',
          description: 'A honey cleanser.',
          ingredients: ['Honey'],
          stock: 7,
        }),
      )
      .expect(200);
    expect((await listing(a, 'search=wanza&inStock=true')).products.map((p) => [p._id, p.stock])).toEqual([
      [id, 7],
    ]);
    await within(
      ELSEWHERE_MS,
      async () => (await listing(b, 'search=wanza&inStock=true')).totalProducts === 1,
    );
  });

  it('drops a withdrawn product (active: false, or deleted) and finds it again when it is back on sale', async () => {
    const [{ _id: id }] = await suggested(a, 'wanza');
    const withdraw = (active: boolean) =>
      request(a.http)
        .put('/api/admin/products/bulk/active')
        .set(auth(admin))
        .send({ ids: [id], active })
        .expect(200);
    await withdraw(false);
    expect(await suggested(a, 'wanza')).toEqual([]);
    expect((await listing(a, 'search=wanza')).totalProducts).toBe(0);
    await within(ELSEWHERE_MS, async () => (await suggested(b, 'wanza')).length === 0);
    expect((await listing(b, 'search=wanza')).totalProducts).toBe(0);
    await withdraw(true);
    expect((await suggested(a, 'wanza')).map((p) => p._id)).toEqual([id]);
    await within(ELSEWHERE_MS, async () => (await suggested(b, 'wanza')).length === 1);
  });

  it('drops a product deleted through the shop route on both instances', async () => {
    const created = await request(b.http)
      .post('/api/products')
      .set(auth(admin))
      .send(product({ name: 'Zebib Raisin Scrub', stock: 3 }))
      .expect(201);
    const id = created.body.product._id as string;
    expect((await suggested(b, 'zebib')).map((p) => p._id)).toEqual([id]);
    await within(ELSEWHERE_MS, async () => (await suggested(a, 'zebib')).length === 1);
    await request(b.http).delete(`/api/products/${id}`).set(auth(admin)).expect(200);
    expect(await suggested(b, 'zebib')).toEqual([]);
    await within(ELSEWHERE_MS, async () => (await suggested(a, 'zebib')).length === 0);
  });
});
