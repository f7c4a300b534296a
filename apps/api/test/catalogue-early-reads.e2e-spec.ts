import { getModelToken } from '@nestjs/mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import { Types, type Model } from 'mongoose';
import type { IncomingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { CatalogueDoor } from '../src/cache/catalogue-door';
import { Changes } from '../src/common/changes';
import { ListingsService } from '../src/modules/catalog/listings.service';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { SearchIndex } from '../src/modules/catalog/search-index';
import { auth, customerFactory } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';
import { startWireCounter, type WireCounter } from './support/wire-count';

const ORIGIN = 'http://localhost:3000';

/** Headers of an answer without those that belong to one connection or moment. */
/**
 * The headers two answers must share. Every answer carries its own X-Request-Id (docs/decisions
 * 0072): a replayed answer must never repeat the id of the request it was captured from.
 */
function comparable(headers: IncomingHttpHeaders) {
  const {
    date: _date,
    connection: _connection,
    'keep-alive': _keepAlive,
    'x-request-id': requestId,
    ...rest
  } = headers;
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  return rest;
}

/**
 * Anonymous reads of the catalogue list are answered before Express and Nest (EarlyDoor.answerWith,
 * CatalogueDoor) by the catalogue's one listing function (ListingsService.listJson, which Nest's
 * controller answers with too), with each product's JSON kept between reads (ProductFragments).
 * Both must be invisible to clients: the same bytes and headers as Nest's own answer, the same
 * refusals, and every write showing on the next read, with the hot cache off (every read queries the
 * database) and on.
 */
describe.each([
  ['off', '0'],
  ['on', '60000'],
])('catalogue list before Nest, hot cache %s', (mode, ttl) => {
  let engine: EmbeddedMongo;
  let wire: WireCounter;
  let t: TestApp;
  let admin: string;
  let products: Model<Product>;
  let door: CatalogueDoor;
  let listings: ListingsService;
  let changes: Changes;
  /** What a domain write says when it changed a product: the caches forget. */
  const bump = () => changes.publish({ kind: 'product' });
  const newCustomer = customerFactory(() => t, `early-${mode}`, 'Early Reader');
  const word = `zq${mode}`;
  /** A URL of the test's products that no earlier read used (a miss of the hot cache when it is on). */
  let reads = 0;
  const fresh = (query = `search=${word}`) => `/api/products?${query}&limit=${50 + (reads++ % 50)}`;

  const makeProduct = async (name: string, stock = 10) =>
    (
      await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name, price: 300, stock, category: 'skincare', images: ['/api/assets/products/x.svg'] })
        .expect(201)
    ).body.product._id as string;

  beforeAll(async () => {
    engine = await startEmbeddedMongo({ port: 0, inMemory: true });
    wire = await startWireCounter({ host: engine.host, port: engine.port });
    t = await startTestApp({
      HOT_CACHE_TTL_MS: ttl,
      CORS_ORIGINS: ORIGIN,
      MONGODB_URI: wire.uri,
      MONGODB_DB: `early_${randomBytes(4).toString('hex')}`,
    });
    const a = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Early Admin',
        email: `early-admin-${mode}@shop.et`,
        password: 'Admin@12345',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = a.body.token;
    products = t.app.get<Model<Product>>(getModelToken(Product.name));
    door = t.app.get(CatalogueDoor);
    listings = t.app.get(ListingsService);
    changes = t.app.get(Changes);
    for (let i = 1; i <= 5; i++) await makeProduct(`${word} Shea Cream ${i}`, i);
    // the first plain answer goes through Express: its headers are the ones early answers carry
    await request(t.http).get('/api/products').expect(200);
  });

  afterAll(async () => {
    await t.close();
    await wire.close();
    await engine.stop();
  });

  it.each([
    [''],
    ['?page=2&limit=2'],
    [`?search=${'zq'}${'MODE'}&sort=price_desc`],
    ['?category=skincare&minPrice=100&maxPrice=400.5&inStock=true&sort=newest'],
    ['?brand=nobody&minRating=1'],
    ['?search=.*'],
    ['?page=999'],
  ])('answers %s with the bytes and headers Nest sends', async (rawQuery) => {
    const query = rawQuery.replace('MODE', mode);
    const early = jest.spyOn(door, 'read');
    const nest = jest.spyOn(listings, 'listProducts');
    try {
      for (const origin of [undefined, ORIGIN]) {
        bump();
        const plain = request(t.http).get(`/api/products${query}`);
        if (origin) plain.set('Origin', origin);
        const first = await plain.expect(200);
        expect(early).toHaveBeenCalledTimes(1);
        expect(nest).not.toHaveBeenCalled();
        // a conditional request is Nest's (it decides between 200 and 304); nothing stored meanwhile
        bump();
        const conditional = request(t.http).get(`/api/products${query}`).set('If-None-Match', '"other"');
        if (origin) conditional.set('Origin', origin);
        const second = await conditional.expect(200);
        expect(nest).toHaveBeenCalledTimes(1);
        expect(first.text).toBe(second.text);
        expect(comparable(first.headers)).toEqual(comparable(second.headers));
        early.mockClear();
        nest.mockClear();
      }
    } finally {
      early.mockRestore();
      nest.mockRestore();
    }
  });

  it.each([
    ['?limit=0'],
    ['?limit=101'],
    ['?page=abc'],
    ['?page=1&page=2'],
    ['?unknown=1'],
    ['?category=nope'],
    ['?inStock=maybe'],
    ['?minPrice=-1'],
    [`?search=${'x'.repeat(101)}`],
    ['?search=%00'],
  ])('refuses %s as Nest does (400, field errors)', async (query) => {
    const res = await request(t.http).get(`/api/products${query}`).expect(400);
    expect(res.body).toMatchObject({ success: false, statusCode: 400 });
    expect(Array.isArray(res.body.errors)).toBe(true);
  });

  it('queries the database for every read (ids and stamps; whole documents only for new fragments)', async () => {
    // the plain listing: a search page lists the search index's cards (the next test)
    const url = `/api/products?sort=price_asc`;
    /** The search index reads what a change named before the next search (not counted: the listing's reads are). */
    const indexCurrent = () => t.app.get(SearchIndex).current();
    if (mode === 'on') bump();
    await indexCurrent();
    wire.reset();
    await request(t.http).get(url).expect(200);
    const finds = () => wire.commands.filter((c) => c.name === 'find' && c.target === 'products');
    const first = finds();
    wire.reset();
    bump(); // with the cache on, the same URL again is a miss (and fragments are forgotten too)
    await indexCurrent();
    wire.reset();
    await request(t.http).get(url).expect(200);
    expect(finds()).toHaveLength(2);
    expect(first.length).toBeGreaterThanOrEqual(1);
    // a different page of known products: one find, fragments reused
    await request(t.http).get(fresh('sort=newest')).expect(200);
    wire.reset();
    await request(t.http).get(fresh('sort=newest')).expect(200);
    expect(finds()).toHaveLength(1);
  });

  it(
    mode === 'on'
      ? "reads a search page's products only when the index keeps no card of them (docs/decisions/0101)"
      : 'reads the products of every search page from the database (no cards with the cache off)',
    async () => {
      const indexCurrent = () => t.app.get(SearchIndex).current();
      const finds = () => wire.commands.filter((c) => c.name === 'find' && c.target === 'products');
      bump(); // the index is built again: no card kept
      await indexCurrent();
      wire.reset();
      const first = (await request(t.http).get(fresh()).expect(200)).body.products as {
        _id: string;
        name: string;
      }[];
      expect(first.length).toBeGreaterThanOrEqual(5);
      // the cards: the first page reads the products' documents, the next pages of them read nothing
      if (mode === 'on') expect(finds()).toHaveLength(1);
      else expect(finds().length).toBeGreaterThanOrEqual(1);
      wire.reset();
      await request(t.http).get(fresh()).expect(200);
      if (mode === 'on') expect(finds()).toHaveLength(0);
      else expect(finds().length).toBeGreaterThanOrEqual(1);
      // a product changed through the API: the index reads it again, and its card only is made again
      await request(t.http)
        .put(`/api/products/${first[0]._id}`)
        .set(auth(admin))
        .send({ name: first[0].name, price: 300, stock: 4, category: 'skincare' })
        .expect(200);
      await indexCurrent();
      wire.reset();
      const after = (await request(t.http).get(fresh()).expect(200)).body.products as {
        _id: string;
        stock: number;
      }[];
      expect(after.find((p) => p._id === first[0]._id)?.stock).toBe(4);
      if (mode === 'on') expect(finds()).toHaveLength(1);
      else expect(finds().length).toBeGreaterThanOrEqual(1);
    },
  );

  /** The test's products as the next read (a URL not read before) lists them (a search of their word by default). */
  const listed = async (query?: string) =>
    (await request(t.http).get(fresh(query)).expect(200)).body.products as {
      _id: string;
      name: string;
      stock: number;
      price: number;
      rating: number;
      reviewCount: number;
    }[];

  it('shows a product edit through the API on the next read', async () => {
    const id = await makeProduct(`${word} Edited Balm`);
    expect((await listed()).find((p) => p._id === id)?.name).toBe(`${word} Edited Balm`);
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(auth(admin))
      .send({ name: `${word} Renamed Balm`, price: 450, stock: 7, category: 'skincare' })
      .expect(200);
    expect((await listed()).find((p) => p._id === id)).toMatchObject({
      name: `${word} Renamed Balm`,
      price: 450,
      stock: 7,
    });
  });

  it("shows another instance's writes on the next read (the product's stamp moved, no bump here)", async () => {
    const id = await makeProduct(`${word} Behind Oil`);
    const bumps = jest.spyOn(changes, 'publish');
    try {
      // the plain listing (a search page follows the search index: docs/decisions/0101, search-cards.e2e-spec.ts)
      const plain = 'sort=newest';
      expect((await listed(plain)).find((p) => p._id === id)?.stock).toBe(10);
      // an edit with updatedAt, as Mongoose writes it
      await products.collection.updateOne(
        { _id: new Types.ObjectId(id) },
        { $set: { description: 'Cold-pressed in Harar', updatedAt: new Date(Date.now() + 1000) } },
      );
      const edited = (await request(t.http).get(fresh(plain)).expect(200)).body.products.find(
        (p: { _id: string }) => p._id === id,
      );
      expect(edited.description).toBe('Cold-pressed in Harar');
      // stock, price, rating and review count changed without updatedAt (a raw script)
      await products.collection.updateOne({ _id: new Types.ObjectId(id) }, { $set: { stock: 3 } });
      expect((await listed(plain)).find((p) => p._id === id)?.stock).toBe(3);
      await products.collection.updateOne({ _id: new Types.ObjectId(id) }, { $set: { priceSantim: 12345 } });
      expect((await listed(plain)).find((p) => p._id === id)?.price).toBe(123.45);
      await products.collection.updateOne(
        { _id: new Types.ObjectId(id) },
        { $set: { rating: 3.5, reviewCount: 2 } },
      );
      expect((await listed(plain)).find((p) => p._id === id)).toMatchObject({ rating: 3.5, reviewCount: 2 });
      expect(bumps).not.toHaveBeenCalled();
    } finally {
      bumps.mockRestore();
    }
  });

  it('shows a review and stock taken by an order on the next read', async () => {
    const id = await makeProduct(`${word} Ordered Butter`, 5);
    expect((await listed()).find((p) => p._id === id)).toMatchObject({ stock: 5, reviewCount: 0 });
    const buyer = await newCustomer();
    await request(t.http)
      .post('/api/cart/add')
      .set(auth(buyer.token))
      .send({ productId: id, quantity: 2 })
      .expect(200);
    await request(t.http)
      .post('/api/orders')
      .set(auth(buyer.token))
      .send({
        shippingAddress: {
          street: 'Bole Road, House 12',
          city: 'Addis Ababa',
          state: 'Addis Ababa',
          zipCode: '1000',
        },
        paymentMethod: 'chapa',
      })
      .expect(201);
    expect((await listed()).find((p) => p._id === id)?.stock).toBe(3);
    await request(t.http)
      .post(`/api/reviews/product/${id}`)
      .set(auth(buyer.token))
      .send({ rating: 4, comment: 'Soft and light, smells of shea.' })
      .expect(201);
    expect((await listed()).find((p) => p._id === id)).toMatchObject({ rating: 4, reviewCount: 1 });
  });

  it('drops a withdrawn product from the next read', async () => {
    const id = await makeProduct(`${word} Withdrawn Mask`);
    expect((await listed()).some((p) => p._id === id)).toBe(true);
    await request(t.http).delete(`/api/products/${id}`).set(auth(admin)).expect(200);
    expect((await listed()).some((p) => p._id === id)).toBe(false);
  });
});
