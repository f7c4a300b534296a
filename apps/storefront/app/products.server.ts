import { ApiError, type Product, type ProductList, type components } from '@shop/api-client';
import type { ProductQuery } from './catalogue';
import { cardListOf, type CardList } from './product-card';
import {
  DEFAULT_PUBLIC_SETTINGS,
  publicSettingsFrom,
  type PublicSettings,
  type ReviewView,
} from './shop-data';
import { apiFor, publicApiFor } from './session.server';

type Query = Partial<ProductQuery>;
type Review = components['schemas']['ReviewDto'];

/** Lists products through the typed client; an API failure is reported, never replaced by fake goods. */
export async function listProducts(
  request: Request,
  query: Query,
): Promise<{ data?: ProductList; failed: boolean }> {
  try {
    const result = await publicApiFor(request).GET('/api/products', { params: { query } });
    if (!result.data) throw ApiError.from(result.error, result.response.status);
    return { data: result.data, failed: false };
  } catch {
    return { failed: true };
  }
}

/** Lists products as their cards show them (home, the catalogue): see product-card.ts. */
export async function listCards(
  request: Request,
  query: Query,
): Promise<{ data?: CardList; failed: boolean }> {
  const { data, failed } = await listProducts(request, query);
  return data ? { data: cardListOf(data), failed } : { failed };
}

/** One product; `notFound` only when the API says it does not exist, `failed` for any other failure. */
export async function getProduct(
  request: Request,
  id: string,
): Promise<{ product?: Product; notFound?: boolean; failed?: boolean }> {
  try {
    const result = await publicApiFor(request).GET('/api/products/{id}', { params: { path: { id } } });
    if (result.data) return { product: result.data };
    return result.response.status === 404 ? { notFound: true } : { failed: true };
  } catch {
    return { failed: true };
  }
}

/** Reviews of a product, newest first; null when the call failed. */
export async function productReviews(request: Request, productId: string): Promise<ReviewView[] | null> {
  try {
    const { data } = await publicApiFor(request).GET('/api/reviews/product/{id}', {
      params: { path: { id: productId }, query: { limit: 50 } },
    });
    return data ? data.reviews.map(toReviewView) : null;
  } catch {
    return null;
  }
}

/** Recent reviews for the home page testimonials; empty when the call fails (3 static ones show). */
export async function recentReviews(request: Request): Promise<ReviewView[]> {
  try {
    const { data } = await publicApiFor(request).GET('/api/reviews/recent', {
      params: { query: { limit: 6 } },
    });
    return (data?.reviews ?? []).map(toReviewView).filter((r) => r.comment);
  } catch {
    return [];
  }
}

function toReviewView(r: Review): ReviewView {
  return {
    _id: r._id,
    user: { _id: r.user?._id, name: r.user?.name ?? '' },
    product: r.product ? { _id: r.product._id, name: r.product.name, nameAm: r.product.nameAm } : undefined,
    rating: r.rating,
    title: r.title,
    comment: r.comment ?? r.text ?? '',
    verified: r.verified,
    createdAt: r.createdAt,
  };
}

/** Public settings; a failure counts as "not in maintenance" with the default shipping options. */
export async function publicSettings(request: Request): Promise<PublicSettings> {
  try {
    const { data, response } = await publicApiFor(request).GET('/api/settings/public');
    if (!response.ok) console.error('Failed to load public settings; defaults shown', response.status);
    return publicSettingsFrom(data);
  } catch {
    return DEFAULT_PUBLIC_SETTINGS;
  }
}

/** Sends the contact form to the API; the API's code on failure, or none (the page has its own text). */
export async function submitContact(
  request: Request,
  body: { name: string; email: string; subject: string; message: string },
): Promise<{ ok: true } | { ok: false; status: number; code?: string }> {
  try {
    const forwarded = request.headers.get('X-Forwarded-For');
    const result = await apiFor(request).POST('/api/contacts/submit', {
      body,
      headers: forwarded ? { 'X-Forwarded-For': forwarded } : {},
    });
    if (result.response.ok) return { ok: true };
    return { ok: false, status: result.response.status, code: result.error?.code };
  } catch {
    return { ok: false, status: 503 };
  }
}
