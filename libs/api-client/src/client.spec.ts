import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, apiOrigin, createApiClient } from './index';

describe('api client', () => {
  let server: http.Server;
  let base: string;
  const seen: { url?: string; auth?: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      if (req.url?.startsWith('/api/products/missing')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            success: false,
            statusCode: 404,
            message: 'Product not found',
            code: 'PRODUCT_NOT_FOUND',
            params: { id: 'missing' },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ products: [], totalPages: 0, totalProducts: 0, page: 2 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends the query string and the bearer token', async () => {
    const api = createApiClient({ baseUrl: base, token: 'abc' });
    const { data } = await api.GET('/api/products', {
      params: { query: { page: 2, limit: 5, search: 'shea' } },
    });
    expect(data?.page).toBe(2);
    const last = seen[seen.length - 1];
    expect(last.url).toBe('/api/products?page=2&limit=5&search=shea');
    expect(last.auth).toBe('Bearer abc');
  });

  it('turns the error shape into an ApiError', async () => {
    const api = createApiClient({ baseUrl: base });
    const { error, response } = await api.GET('/api/products/{id}', { params: { path: { id: 'missing' } } });
    const err = ApiError.from(error, response.status);
    expect(err.statusCode).toBe(404);
    expect(err.message).toBe('Product not found');
    expect(err.code).toBe('PRODUCT_NOT_FOUND');
    expect(err.params).toEqual({ id: 'missing' });
    expect(seen[seen.length - 1].auth).toBeUndefined();
  });

  it('derives the origin from a base ending in /api', () => {
    expect(apiOrigin('http://localhost:4000/api/')).toBe('http://localhost:4000');
  });
});
