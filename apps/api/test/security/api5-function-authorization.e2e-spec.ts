import request from 'supertest';
import { buildOpenApiDocument } from '../../src/bootstrap';
import { expectErrorShape, startSecurityShop, UNKNOWN_ID, type SecurityShop } from './support';

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * OWASP API5:2023 Broken Function Level Authorization. The admin routes are read from the app's own
 * OpenAPI document (every path under /api/admin and every operation documented as "not an admin" 403),
 * so a route added later is covered without touching this test.
 */
describe('API5 function level authorization', () => {
  let shop: SecurityShop;
  let adminOperations: Operation[];

  beforeAll(async () => {
    shop = await startSecurityShop();
    const doc = buildOpenApiDocument(shop.t.app);
    adminOperations = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const forbidden = op.responses?.['403'] as { description?: string } | undefined;
        const adminOnly = path.startsWith('/api/admin') || /not an admin/i.test(forbidden?.description ?? '');
        if (adminOnly) adminOperations.push({ method, path });
      }
    }
  });

  afterAll(() => shop.close());

  /** The concrete URL of a documented path: every path parameter becomes a well-formed unknown id. */
  const urlOf = (op: Operation) => op.path.replace(/\{[^}]+\}/g, UNKNOWN_ID);

  it('finds the admin routes in the OpenAPI document (the enumeration is not empty)', () => {
    const listed = adminOperations.map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(listed.length).toBeGreaterThanOrEqual(25);
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /api/admin/dashboard/stats',
        'GET /api/admin/users',
        'PUT /api/admin/users/{id}/role',
        'POST /api/products',
        'DELETE /api/products/{id}',
        'POST /api/uploads',
        'PATCH /api/orders/{id}/status',
        'PUT /api/admin/settings',
      ]),
    );
  });

  it('answers 401 to a guest on every admin route', async () => {
    const answers: string[] = [];
    for (const op of adminOperations) {
      const res = await request(shop.t.http)[op.method](urlOf(op)).send({});
      answers.push(`${op.method.toUpperCase()} ${op.path} -> ${res.status}`);
      if (res.status === 401) expectErrorShape(res.body, 401);
    }
    expect(answers.filter((a) => !a.endsWith('-> 401'))).toEqual([]);
  });

  it('answers 403 to a signed-in customer on every admin route', async () => {
    const customer = await shop.customer();
    const answers: string[] = [];
    for (const op of adminOperations) {
      const res = await request(shop.t.http)[op.method](urlOf(op)).set(shop.auth(customer.token)).send({});
      answers.push(`${op.method.toUpperCase()} ${op.path} -> ${res.status}`);
      if (res.status === 403)
        expect(res.body).toEqual({
          success: false,
          statusCode: 403,
          message: 'Access denied',
          code: 'ACCESS_DENIED',
          params: {},
        });
    }
    expect(answers.filter((a) => !a.endsWith('-> 403'))).toEqual([]);
  });

  it('also refuses the admin routes through the doubled /api/api prefix alias', async () => {
    const customer = await shop.customer();
    for (const op of adminOperations) {
      const alias = urlOf(op).replace(/^\/api/, '/api/api');
      await request(shop.t.http)[op.method](alias).send({}).expect(401);
      await request(shop.t.http)[op.method](alias).set(shop.auth(customer.token)).send({}).expect(403);
    }
  });

  it('lets an admin through the same routes (no 401 or 403), so the checks above test the role', async () => {
    const answers: string[] = [];
    for (const op of adminOperations.filter((o) => o.method === 'get')) {
      const res = await request(shop.t.http).get(urlOf(op)).set(shop.auth(shop.admin.token));
      answers.push(`GET ${op.path} -> ${res.status}`);
    }
    expect(answers.filter((a) => / -> 40[13]$/.test(a))).toEqual([]);
    expect(answers.filter((a) => / -> 5\d\d$/.test(a))).toEqual([]);
  });
});
