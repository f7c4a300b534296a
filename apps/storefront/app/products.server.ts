import { ApiError, createApiClient, type ProductList } from '@shop/api-client';
import { env } from './env.server';

type Query = { page?: number; limit?: number; sort?: 'featured' | 'price_asc' | 'price_desc' | 'reviews' | 'newest'; search?: string };

/** Lists products through the typed client; an API failure is reported, never replaced by fake goods. */
export async function listProducts(query: Query): Promise<{ data?: ProductList; failed: boolean }> {
  try {
    const api = createApiClient({ baseUrl: env.apiUrl });
    const result = await api.GET('/api/products', { params: { query } });
    if (!result.data) throw ApiError.from(result.error, result.response.status);
    return { data: result.data, failed: false };
  } catch {
    return { failed: true };
  }
}
