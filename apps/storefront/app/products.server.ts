import { ApiError, type ApiClient, type Product, type ProductList } from '@shop/api-client';
import { toBirr } from '@shop/shared';
import type { ProductQuery } from './catalogue';
import { DEFAULT_PUBLIC_SETTINGS, type PublicSettings, type ReviewView } from './shop-data';
import { apiFor } from './session.server';

type Query = Partial<ProductQuery>;

/** Lists products through the typed client; an API failure is reported, never replaced by fake goods. */
export async function listProducts(request: Request, query: Query): Promise<{ data?: ProductList; failed: boolean }> {
  try {
    const result = await apiFor(request).GET('/api/products', { params: { query } });
    if (!result.data) throw ApiError.from(result.error, result.response.status);
    return { data: result.data, failed: false };
  } catch {
    return { failed: true };
  }
}

/** One product; `notFound` only when the API says it does not exist, `failed` for any other failure. */
export async function getProduct(
  request: Request,
  id: string,
): Promise<{ product?: Product; notFound?: boolean; failed?: boolean }> {
  try {
    const result = await apiFor(request).GET('/api/products/{id}', { params: { path: { id } } });
    if (result.data) return { product: result.data };
    return result.response.status === 404 ? { notFound: true } : { failed: true };
  } catch {
    return { failed: true };
  }
}

/**
 * Reads a JSON answer of an endpoint through the typed client's transport. Used for the endpoints
 * (reviews, settings, cart, wishlist) whose types are read loosely because they are optional extras
 * of a page: any failure becomes `undefined` and the page shows its fallback.
 */
export async function getLoose<T>(api: ApiClient, path: string, query?: Record<string, string | number>): Promise<T | undefined> {
  try {
    const get = api.GET as unknown as (p: string, init: unknown) => Promise<{ data?: T; response: Response }>;
    const result = await get(path, { params: { query } });
    return result.response.ok ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** Reviews of a product, newest first; null when the call failed. */
export async function productReviews(request: Request, productId: string): Promise<ReviewView[] | null> {
  const body = await getLoose<{ reviews?: ReviewView[] }>(apiFor(request), `/api/reviews/product/${encodeURIComponent(productId)}`, { limit: 50 });
  return body?.reviews ? body.reviews.map(normaliseReview) : null;
}

/** Recent reviews for the home page testimonials; empty when the call fails. */
export async function recentReviews(request: Request): Promise<ReviewView[]> {
  const body = await getLoose<{ reviews?: ReviewView[] }>(apiFor(request), '/api/reviews/recent', { limit: 6 });
  return (body?.reviews ?? []).map(normaliseReview).filter((r) => r.comment);
}

function normaliseReview(r: ReviewView & { text?: string }): ReviewView {
  return { ...r, comment: r.comment ?? r.text ?? '', user: r.user ?? { name: '' } };
}

/** Public settings; a failure counts as "not in maintenance" with the default shipping options. */
export async function publicSettings(request: Request): Promise<PublicSettings> {
  type Raw = Record<string, unknown> & { settings?: Record<string, unknown> };
  const raw = await getLoose<Raw>(apiFor(request), '/api/settings/public');
  const s = (raw?.settings ?? raw ?? {}) as Record<string, unknown>;
  const shipping = (s.shipping ?? {}) as Record<string, unknown>;
  const etb = (v: unknown, santim: unknown, fallback: number) =>
    typeof v === 'number' ? v : typeof santim === 'number' ? toBirr(santim) : fallback;
  const d = DEFAULT_PUBLIC_SETTINGS.shipping;
  return {
    siteName: typeof s.siteName === 'string' ? s.siteName : undefined,
    maintenanceMode: s.maintenanceMode === true,
    shipping: {
      standard: etb(shipping.standard ?? s.standardShipping, s.standardShippingSantim, d.standard),
      express: etb(shipping.express ?? s.expressShipping, s.expressShippingSantim, d.express),
      pickup: etb(shipping.pickup ?? s.pickupShipping, s.pickupShippingSantim, d.pickup),
      freeShippingThreshold: etb(
        shipping.freeShippingThreshold ?? shipping.freeStandardOver ?? s.freeShippingThreshold,
        s.freeShippingThresholdSantim,
        d.freeShippingThreshold,
      ),
    },
  };
}

/** The signed-in shopper's cart and wishlist counts; failures count as empty. */
export async function basketSummary(request: Request): Promise<{
  cartCount: number;
  wishlistCount: number;
  cartQuantities: Record<string, number>;
  wishlistIds: string[];
}> {
  const api = apiFor(request);
  type Line = { _id?: string; product?: { _id?: string } | string; quantity?: number };
  const [cart, wishlist] = await Promise.all([
    getLoose<{ products?: Line[]; itemCount?: number }>(api, '/api/cart'),
    getLoose<{ products?: Line[] }>(api, '/api/wishlist'),
  ]);
  const idOf = (l: Line) => (typeof l.product === 'string' ? l.product : l.product?._id ?? l._id ?? '');
  const cartQuantities: Record<string, number> = {};
  for (const line of cart?.products ?? []) {
    const id = idOf(line);
    if (id) cartQuantities[id] = (cartQuantities[id] ?? 0) + (line.quantity ?? 0);
  }
  const cartCount = cart?.itemCount ?? Object.values(cartQuantities).reduce((a, b) => a + b, 0);
  const wishlistIds = (wishlist?.products ?? []).map(idOf).filter(Boolean);
  return { cartCount, wishlistCount: wishlistIds.length, cartQuantities, wishlistIds };
}

/** Sends the contact form to the API; the API's message on failure, or none (the page has its own). */
export async function submitContact(
  request: Request,
  body: { name: string; email: string; subject: string; message: string },
): Promise<{ ok: true } | { ok: false; status: number; message?: string }> {
  try {
    const post = apiFor(request).POST as unknown as (p: string, init: unknown) => Promise<{ data?: unknown; error?: { message?: string }; response: Response }>;
    const forwarded = request.headers.get('X-Forwarded-For');
    const result = await post('/api/contacts/submit', { body, headers: forwarded ? { 'X-Forwarded-For': forwarded } : {} });
    if (result.response.ok) return { ok: true };
    return { ok: false, status: result.response.status, message: result.error?.message };
  } catch {
    return { ok: false, status: 503 };
  }
}
