import { load } from 'js-yaml';
import request from 'supertest';
import { renderOpenApiYaml } from '../src/openapi-document';
import { SeedService } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

interface Suggestions {
  query: string;
  products: {
    _id: string;
    name: string;
    brand: string;
    price: number;
    compareAtPrice?: number;
    image: string | null;
    url: string;
    highlight: [number, number][];
  }[];
  categories: { slug: string; name: string; count: number; url: string }[];
  brands: { name: string; count: number; url: string }[];
}

type Schema = { properties?: Record<string, Schema>; required?: string[]; items?: Schema; $ref?: string };

/** GET /api/products/suggestions, as agreed with the storefront (issue 31, docs/decisions/0084 and 0086). */
describe('search: GET /api/products/suggestions', () => {
  let t: TestApp;
  const suggest = async (query: Record<string, string | number>) =>
    (await request(t.http).get('/api/products/suggestions').query(query).expect(200)).body as Suggestions;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers the top products with name, price, image, storefront URL and the matched part, public for a minute', async () => {
    const res = await request(t.http).get('/api/products/suggestions?q=coff&limit=3').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const body = res.body as Suggestions;
    expect(body.query).toBe('coff');
    expect(body.products).toHaveLength(3);
    for (const product of body.products) {
      expect(Object.keys(product).sort()).toEqual(
        expect.arrayContaining(['_id', 'brand', 'highlight', 'image', 'name', 'price', 'url']),
      );
      expect(product._id).toMatch(/^[0-9a-f]{24}$/);
      expect(product.url).toBe(`/product/${product._id}`);
      expect(typeof product.price).toBe('number');
      expect(product.image === null || /\/api\/(assets|uploads)\//.test(product.image)).toBe(true);
      // 'coff' is the start of the word Coffee in each name: that part is highlighted
      const [start, end] = product.highlight[0];
      expect(product.name.slice(start, end)).toBe('Coff');
      if (product.compareAtPrice !== undefined) expect(product.compareAtPrice).toBeGreaterThan(product.price);
    }
  });

  it('answers names and highlights in Amharic with lang=am, a preposition outside the highlight', async () => {
    const body = await suggest({ q: 'ቡና', lang: 'am', limit: 10 });
    expect(body.products.length).toBeGreaterThanOrEqual(3);
    const eyeSerum = body.products.find((p) => p.name === 'የቡና ፍሬ የዓይን ሴረም');
    expect(eyeSerum).toBeDefined();
    expect(eyeSerum!.highlight).toEqual([[1, 3]]);
    expect(body.categories.every((c) => /\p{Script=Ethiopic}/u.test(c.name))).toBe(true);
  });

  it('finds across scripts and typos, with the matching categories and brands and their counts', async () => {
    const body = await suggest({ q: 'bunna' });
    expect(body.products.length).toBe(5);
    expect(body.brands[0]).toEqual({
      name: 'Buna Beauty',
      count: expect.any(Number),
      url: '/products?search=Buna%20Beauty',
    });
    expect(body.brands[0].count).toBeGreaterThanOrEqual(4);
    const shampoo = await suggest({ q: 'shampu' });
    expect(shampoo.products.every((p) => /Shampoo/.test(p.name))).toBe(true);
    expect(shampoo.categories[0]).toMatchObject({
      slug: 'haircare',
      name: 'Haircare',
      url: '/products?category=haircare',
    });
    const listed = (
      await request(t.http).get('/api/products?search=shampu&category=haircare&limit=1').expect(200)
    ).body as { totalProducts: number };
    expect(shampoo.categories[0].count).toBe(listed.totalProducts);
    // a category's own name matches by prefix
    const makeup = await suggest({ q: 'makeu' });
    expect(makeup.categories[0]).toMatchObject({ slug: 'makeup', name: 'Makeup' });
    expect(makeup.categories.length).toBeLessThanOrEqual(3);
    expect(makeup.brands.length).toBeLessThanOrEqual(3);
  });

  it('ranks as the listing does, and answers blank or wordless text with empty lists', async () => {
    const listing = (await request(t.http).get('/api/products?search=serum&limit=5').expect(200)).body as {
      products: { _id: string }[];
    };
    const body = await suggest({ q: 'serum' });
    expect(body.products.map((p) => p._id)).toEqual(listing.products.map((p) => p._id));
    for (const q of ['', '   ', '.*'])
      expect(await suggest({ q })).toEqual({ query: q.trim(), products: [], categories: [], brands: [] });
    expect(await suggest({})).toEqual({ query: '', products: [], categories: [], brands: [] });
  });

  it('refuses a text over 100 characters, a limit outside 1-10 and an unknown language, with the API code VALIDATION_FAILED', async () => {
    for (const query of [
      `q=${'a'.repeat(101)}`,
      'q=a&limit=0',
      'q=a&limit=11',
      'q=a&limit=two',
      'q=a&lang=fr',
      'q=a&q=b',
    ]) {
      const res = await request(t.http).get(`/api/products/suggestions?${query}`).expect(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400, code: 'VALIDATION_FAILED' });
    }
    // 100 characters after trimming are accepted
    await request(t.http)
      .get('/api/products/suggestions')
      .query({ q: ` ${'a'.repeat(100)} ` })
      .expect(200);
  });

  it('answers the shape openapi.yaml declares (the contract the storefront and the typed client are built to)', async () => {
    const doc = load(await renderOpenApiYaml()) as {
      paths: Record<
        string,
        { get?: { responses: Record<string, { content?: Record<string, { schema: Schema }> }> } }
      >;
      components: { schemas: Record<string, Schema> };
    };
    const resolve = (schema: Schema): Schema =>
      schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
    const answer =
      doc.paths['/api/products/suggestions']?.get?.responses['200']?.content?.['application/json'];
    expect(answer).toBeDefined();
    const body = await suggest({ q: 'moringa', limit: 10 });
    const conforms = (value: unknown, schema: Schema): void => {
      const s = resolve(schema);
      if (s.properties) {
        const object = value as Record<string, unknown>;
        for (const key of s.required ?? []) expect(object).toHaveProperty(key);
        for (const key of Object.keys(object)) expect(Object.keys(s.properties)).toContain(key);
        for (const [key, property] of Object.entries(s.properties))
          if (object[key] !== undefined && object[key] !== null) conforms(object[key], property);
      } else if (s.items) for (const item of value as unknown[]) conforms(item, s.items);
    };
    expect(body.products.length).toBeGreaterThan(0);
    expect(body.categories.length).toBeGreaterThan(0);
    expect(body.brands.length).toBeGreaterThan(0);
    conforms(body, answer!.schema);
  });
});
