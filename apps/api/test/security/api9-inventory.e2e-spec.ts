import request from 'supertest';
import { buildOpenApiDocument } from '../../src/bootstrap';
import { expectErrorShape, startSecurityShop, type SecurityShop } from './support';

/** OWASP API9:2023 Improper Inventory Management: exactly the documented surface answers. */
describe('API9 inventory management', () => {
  let shop: SecurityShop;

  beforeAll(async () => {
    shop = await startSecurityShop();
    await shop.product({ name: 'Inventory Cream' });
  });

  afterAll(() => shop.close());

  it('answers the doubled /api/api prefix as the same routes, as docs/product.md §7 documents', async () => {
    const direct = await request(shop.t.http).get('/api/products').expect(200);
    const alias = await request(shop.t.http).get('/api/api/products').expect(200);
    expect(alias.body).toEqual(direct.body);
    await request(shop.t.http).get('/api/api/health').expect(200);
  });

  it('has no other aliases: a tripled prefix, a missing prefix and version prefixes are 404', async () => {
    for (const path of [
      '/api/api/api/products',
      '/products',
      '/v1/products',
      '/api/v1/products',
      '/api/v2/products',
      '/apiapi/products',
      '/api//products',
    ]) {
      const res = await request(shop.t.http).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });

  it('answers unknown routes and methods with 404 in the error shape', async () => {
    for (const [method, path] of [
      ['get', '/api/unknown'],
      ['post', '/api/products/search'],
      ['delete', '/api/orders'],
      ['get', '/api/admin'],
      ['get', '/api/api/unknown'],
      ['put', '/api/health'],
    ] as const) {
      const res = await request(shop.t.http)[method](path);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      expectErrorShape(res.body, 404);
    }
  });

  it('documents every route once in OpenAPI, never the /api/api alias', () => {
    const doc = buildOpenApiDocument(shop.t.app);
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => p.startsWith('/api/api'))).toEqual([]);
    expect(paths.filter((p) => !p.startsWith('/api/'))).toEqual([]);
    for (const path of paths) {
      for (const [method, op] of Object.entries(doc.paths[path])) {
        if (typeof op === 'object' && op && 'responses' in op)
          expect({ path, method, operationId: (op as { operationId?: string }).operationId }).toMatchObject({
            operationId: expect.any(String),
          });
      }
    }
  });
});
