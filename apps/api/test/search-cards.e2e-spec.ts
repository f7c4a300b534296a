import { getModelToken } from '@nestjs/mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import { Types, type Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { SearchIndex } from '../src/modules/catalog/search-index';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;
/** The age of a card at most on the instance with cards (writes made outside any instance). */
const MAX_AGE_MS = 1500;

/**
 * A search page lists the search index's cards of its products (docs/decisions/0101-search-speed-2.md)
 * instead of reading them from the database: the same bytes as an instance that reads every page from
 * the database (the hot cache off), a running sale's price included; a write made behind the API's back
 * shows within HOT_CACHE_MAX_AGE_MS.
 */
describe('search: the listing cards kept beside the index', () => {
  let engine: EmbeddedMongo;
  /** Keeps cards (the hot cache on). */
  let cards: TestApp;
  /** Reads every search page's products from the database (the hot cache off). */
  let reads: TestApp;
  let products: Model<Product>;

  /** A listing's text (the hot cache keeps answers by URL: the order of the parameters makes another one). */
  const text = async (t: TestApp, query: Record<string, string | number>) =>
    (await request(t.http).get('/api/products').query(query).expect(200)).text;

  beforeAll(async () => {
    engine = await startEmbeddedMongo({ port: 0, inMemory: true });
    const env = { MONGODB_URI: engine.uri, MONGODB_DB: `cards_${randomBytes(4).toString('hex')}` };
    cards = await startTestApp({
      ...env,
      HOT_CACHE_TTL_MS: '1000',
      HOT_CACHE_MAX_AGE_MS: String(MAX_AGE_MS),
    });
    await cards.app.get(SeedService).seed();
    const admin = await loginAs(cards, DEMO_ACCOUNTS.admin);
    products = cards.app.get<Model<Product>>(getModelToken(Product.name));
    // a sale running now on the moringa products: their cards carry the sale's price
    const moringa = await products.find({ name: /moringa/i }, { _id: 1 }).lean();
    expect(moringa.length).toBeGreaterThan(0);
    await request(cards.http)
      .post('/api/admin/promotions')
      .set(auth(admin))
      .send({
        name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' },
        kind: 'percent',
        value: 20,
        startsAt: new Date(Date.now() - HOUR).toISOString(),
        endsAt: new Date(Date.now() + 5 * HOUR).toISOString(),
        productIds: moringa.map((p) => String(p._id)),
      })
      .expect(201);
    reads = await startTestApp({ ...env, HOT_CACHE_TTL_MS: '0' });
  });

  afterAll(async () => {
    for (const t of [cards, reads]) await t?.close();
    await engine?.stop();
  });

  it.each<[Record<string, string | number>]>([
    [{ search: 'moringa' }],
    [{ search: 'bunna', limit: 5, page: 2 }],
    [{ search: 'shampu', sort: 'price_asc' }],
    [{ search: 'serun', sort: 'newest', limit: 3 }],
    [{ search: 'ቡና', facets: 'category,brand' }],
    [{ search: 'coffe oil', inStock: 'true', sort: 'reviews' }],
    [{ search: 'mor', category: 'skincare', sort: 'featured' }],
  ])('answers %j from its cards with the bytes of the database path', async (query) => {
    // the first read makes the page's cards; the second lists them
    const first = await text(cards, { ...query, limit: query.limit ?? 24 });
    const fromCards = await text(cards, { limit: query.limit ?? 24, ...query });
    const fromDatabase = await text(reads, { ...query, limit: query.limit ?? 24 });
    expect(JSON.parse(fromCards).products.length).toBeGreaterThan(0);
    expect(fromCards).toBe(fromDatabase);
    expect(first).toBe(fromDatabase);
    if (query.search === 'moringa')
      expect(JSON.parse(fromCards).products[0]).toMatchObject({ promotion: { name: { en: 'Timket week' } } });
  });

  it('shows a write made outside any instance (with updatedAt) within HOT_CACHE_MAX_AGE_MS', async () => {
    await cards.app.get(SearchIndex).current();
    let reads = 0;
    // a URL no read used before (no kept answer): the page is the index's cards
    const listed = async () =>
      JSON.parse(await text(cards, { search: 'moringa', limit: 50 + (reads++ % 50) })).products as {
        _id: string;
        description: string;
      }[];
    const [product] = await listed();
    await products.collection.updateOne(
      { _id: new Types.ObjectId(product._id) },
      { $set: { description: 'Pressed in Harar by a script', updatedAt: new Date() } },
    );
    const started = Date.now();
    let seen = '';
    while (Date.now() - started < MAX_AGE_MS + 3000) {
      seen = (await listed()).find((p) => p._id === product._id)?.description ?? '';
      if (seen === 'Pressed in Harar by a script') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBe('Pressed in Harar by a script');
  });
});
