import request from 'supertest';
import { SearchIndex } from '../src/modules/catalog/search-index';
import { SeedService } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

interface Listed {
  _id: string;
  name: string;
  nameAm?: string;
  brand: string;
  category: string;
  price: number;
  stock: number;
  rating: number;
  description: string;
}
interface Listing {
  products: Listed[];
  totalProducts: number;
  totalPages: number;
  page: number;
}

/** The search of the seeded catalogue as shoppers type it (issue 31): relevance, typos, both scripts, filters. */
describe('search: relevance over the seeded catalogue', () => {
  let t: TestApp;

  const list = async (query: Record<string, string | number>) =>
    (await request(t.http).get('/api/products').query(query).expect(200)).body as Listing;
  const names = async (search: string, extra: Record<string, string | number> = {}) =>
    (await list({ search, limit: 50, ...extra })).products.map((p) => p.name);

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('indexes every active seeded product', async () => {
    const all = await list({ limit: 1 });
    await t.app.get(SearchIndex).current();
    expect(t.app.get(SearchIndex).size).toBe(all.totalProducts);
  });

  it("finds Buna Beauty's products and the coffee ones for 'bunna' (a doubled letter, as heard)", async () => {
    const found = await list({ search: 'bunna', limit: 50 });
    expect(found.products.length).toBeGreaterThanOrEqual(4);
    // the brand's products come first: the word matches their brand (and their Amharic names say ቡና)
    const brandFirst = found.products.slice(0, 4).map((p) => p.brand);
    expect(brandFirst).toEqual(['Buna Beauty', 'Buna Beauty', 'Buna Beauty', 'Buna Beauty']);
    expect(found.products.map((p) => p.name)).toContain('Buna Matte Lipstick');
  });

  it("finds the shampoos for 'shampu' (the Latin spelling of ሻምፑ), shampoos only first", async () => {
    const found = await list({ search: 'shampu', limit: 50 });
    expect(found.totalProducts).toBeGreaterThanOrEqual(6);
    for (const product of found.products.slice(0, 6)) expect(product.name).toMatch(/Shampoo/);
  });

  it("finds the products whose Amharic name says ዕጣን (frankincense) first for 'itan' and 'etan'", async () => {
    const withEtan = (await list({ search: 'ዕጣን', limit: 50 })).products.filter((p) =>
      p.nameAm?.includes('ዕጣን'),
    );
    expect(withEtan.map((p) => p.name)).toEqual(expect.arrayContaining(['Frankincense Renewal Serum']));
    for (const search of ['itan', 'etan']) {
      const found = (await list({ search, limit: 50 })).products;
      expect(
        found
          .slice(0, withEtan.length)
          .map((p) => p.name)
          .sort(),
      ).toEqual(withEtan.map((p) => p.name).sort());
    }
  });

  it("finds the products whose Amharic name says ቡና for 'ቡና', and the brand Buna Beauty's", async () => {
    const found = await list({ search: 'ቡና', limit: 50 });
    const top = found.products.slice(0, 3);
    for (const product of top) expect(`${product.nameAm} ${product.brand}`).toMatch(/ቡና|Buna/);
    expect(found.products.map((p) => p.name)).toEqual(
      expect.arrayContaining(['Coffee Bean Eye Serum', 'Buna Matte Lipstick', 'Coffee & Clay Detox Mask']),
    );
  });

  it("forgives typos: 'morniga' (two letters swapped), 'coffe' (typing), 'serun' (one letter)", async () => {
    const moringa = await names('morniga');
    expect(moringa.length).toBeGreaterThanOrEqual(3);
    expect(moringa.slice(0, 3).every((name) => /Moringa/.test(name))).toBe(true);
    const coffee = await names('coffe');
    expect(coffee[0]).toMatch(/Coffee/);
    const serum = await names('serun');
    expect(serum.length).toBeGreaterThanOrEqual(6);
    expect(serum.slice(0, 6).every((name) => /Serum/.test(name))).toBe(true);
  });

  it('ranks a product whose name has the word above one whose description only mentions it', async () => {
    // 'caffeine' is in the description of the eye serum; 'kohl' only in a name
    const found = await names('clay');
    const nameMatch = found.findIndex((name) => /Clay/.test(name));
    const descriptionOnly = found.findIndex((name) => !/Clay/.test(name));
    expect(nameMatch).toBe(0);
    expect(descriptionOnly).toBeGreaterThan(nameMatch);
    // every name match ranks above every product that has the word elsewhere only
    const lastNameMatch = found.map((n) => /Clay/.test(n)).lastIndexOf(true);
    expect(lastNameMatch).toBeLessThan(descriptionOnly === -1 ? Infinity : found.length);
    expect(found.slice(0, lastNameMatch + 1).every((n) => /Clay/.test(n))).toBe(true);
  });

  it('needs every word of the query, the last one as a prefix as the shopper types', async () => {
    expect(await names('black seed sham')).toEqual(['Black Seed Strengthening Shampoo']);
    expect(await names('moringa zzzz')).toEqual([]);
  });

  it("keeps the catalogue's filters, sorts, pages and counts on a search", async () => {
    const all = await list({ search: 'serum', limit: 50 });
    const cheap = await list({ search: 'serum', maxPrice: 800, limit: 50 });
    expect(cheap.products.length).toBeGreaterThan(0);
    expect(cheap.products.every((p) => p.price <= 800)).toBe(true);
    expect(cheap.totalProducts).toBe(all.products.filter((p) => p.price <= 800).length);
    const inStock = await list({ search: 'serum', inStock: 'true', limit: 50 });
    expect(inStock.products.every((p) => p.stock > 0)).toBe(true);
    expect(inStock.totalProducts).toBe(all.products.filter((p) => p.stock > 0).length);
    const haircare = await list({ search: 'honey', category: 'haircare', limit: 50 });
    expect(haircare.products.map((p) => p.name)).toEqual(['Honey Repair Shampoo']);
    const brand = await list({ search: 'serum', brand: 'sheba botanicals', limit: 50 });
    expect(brand.products.every((p) => p.brand === 'Sheba Botanicals')).toBe(true);
    expect(brand.totalProducts).toBeGreaterThan(0);
    const byPrice = await list({ search: 'serum', sort: 'price_asc', limit: 50 });
    const prices = byPrice.products.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(byPrice.totalProducts).toBe(all.totalProducts);
    const page2 = await list({ search: 'serum', limit: 2, page: 2 });
    expect(page2).toMatchObject({ page: 2, totalProducts: all.totalProducts });
    expect(page2.totalPages).toBe(Math.ceil(all.totalProducts / 2));
    expect(page2.products.map((p) => p.name)).toEqual(all.products.slice(2, 4).map((p) => p.name));
    expect(Object.keys(page2)).toEqual(['products', 'totalPages', 'totalProducts', 'page']);
  });

  it('answers a text without a word, or matching nothing, with an empty page', async () => {
    expect(await list({ search: '.*' })).toEqual({ products: [], totalPages: 0, totalProducts: 0, page: 1 });
    expect(await list({ search: 'qqqqqqqqqqxz' })).toEqual({
      products: [],
      totalPages: 0,
      totalProducts: 0,
      page: 1,
    });
  });
});
