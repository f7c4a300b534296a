import { createApiClient, type ApiClient, type Cart, type SignedInUser } from '@shop/api-client';
import { env } from './env.server';
import { settle } from './account/api.server';
import { withRequestId } from './request-id.server';
import { createPublicReads, publicReadsConfig } from './public-reads.server';

/**
 * The storefront session: the API's JWT kept in the storefront's own httpOnly cookie `token`
 * (docs/decisions/0014-sessions.md: never in localStorage). Loaders and actions call the API with it
 * as a Bearer token.
 */
export const TOKEN_COOKIE = 'token';
const WEEK_SECONDS = 7 * 24 * 60 * 60;

export function tokenFromRequest(request: Request): string | undefined {
  const match = /(?:^|;\s*)token=([^;]*)/.exec(request.headers.get('Cookie') ?? '');
  const value = match ? decodeURIComponent(match[1]) : '';
  return value || undefined;
}

/** True when the browser reached us over HTTPS (directly or through a proxy): only then is the cookie Secure. */
export function isHttps(request?: Request): boolean {
  if (!request) return env.cookieSecure;
  const proto = request.headers.get('X-Forwarded-Proto') ?? new URL(request.url).protocol.replace(':', '');
  return proto.split(',')[0].trim() === 'https';
}

export function sessionCookie(token: string, request?: Request): string {
  const secure = isHttps(request) ? '; Secure' : '';
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${WEEK_SECONDS}${secure}`;
}

export function clearSessionCookie(): string {
  return `${TOKEN_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/**
 * A guest's cart id (docs/decisions/0024-cart-and-guest-cart.md): the API's guest cart id, kept in the
 * storefront's own httpOnly cookie `cart_id` for as long as the API keeps the cart (30 days after its
 * last change).
 */
export const CART_COOKIE = 'cart_id';
const CART_SECONDS = 30 * 24 * 60 * 60;

export function cartIdFromRequest(request: Request): string | undefined {
  const match = /(?:^|;\s*)cart_id=([a-f0-9]{32})(?:;|$)/.exec(request.headers.get('Cookie') ?? '');
  return match ? match[1] : undefined;
}

export function cartCookie(cartId: string, request?: Request): string {
  const secure = isHttps(request) ? '; Secure' : '';
  return `${CART_COOKIE}=${cartId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${CART_SECONDS}${secure}`;
}

export function clearCartCookie(): string {
  return `${CART_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** The Set-Cookie that keeps a guest cart id the API answered, when it is not the one the browser holds. */
export function cartCookieUpdate(
  request: Request,
  answered: Pick<Cart, 'cartId'> | undefined,
): string | undefined {
  const id = answered?.cartId;
  if (typeof id !== 'string' || !/^[a-f0-9]{32}$/.test(id) || id === cartIdFromRequest(request))
    return undefined;
  return cartCookie(id, request);
}

/**
 * A guest order's access token (docs/decisions/0067-storefront-guest-and-phone.md): the API's
 * `guestAccessToken`, kept in the storefront's own httpOnly cookie `order_token_<orderId>` for as long as
 * the API accepts it (90 days), and sent back as `X-Order-Token` when the guest pays or opens the order.
 */
export const ORDER_TOKEN_PREFIX = 'order_token_';
const ORDER_TOKEN_SECONDS = 90 * 24 * 60 * 60;
const ORDER_ID = /^[A-Za-z0-9]{1,64}$/;
const ORDER_TOKEN = /^[A-Za-z0-9._~+/=-]{16,512}$/;

export function isOrderId(value: unknown): value is string {
  return typeof value === 'string' && ORDER_ID.test(value);
}

export function orderTokenCookie(orderId: string, token: string, request?: Request): string | undefined {
  if (!isOrderId(orderId) || !ORDER_TOKEN.test(token)) return undefined;
  const secure = isHttps(request) ? '; Secure' : '';
  return `${ORDER_TOKEN_PREFIX}${orderId}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ORDER_TOKEN_SECONDS}${secure}`;
}

export function orderTokenFromRequest(request: Request, orderId: string): string | undefined {
  if (!isOrderId(orderId)) return undefined;
  const match = new RegExp(`(?:^|;\\s*)${ORDER_TOKEN_PREFIX}${orderId}=([^;]*)`).exec(
    request.headers.get('Cookie') ?? '',
  );
  let value = '';
  try {
    value = match ? decodeURIComponent(match[1]) : '';
  } catch {
    return undefined;
  }
  return ORDER_TOKEN.test(value) ? value : undefined;
}

/**
 * The order a guest is paying: the payment pages learn only the transaction reference from Chapa, so the
 * order whose token goes with the verification is remembered for a day when the payment starts.
 */
export const PAYING_COOKIE = 'paying_order';

export function payingOrderCookie(orderId: string, request?: Request): string {
  const secure = isHttps(request) ? '; Secure' : '';
  return `${PAYING_COOKIE}=${encodeURIComponent(orderId)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=86400${secure}`;
}

export function payingOrderFromRequest(request: Request): string | undefined {
  const match = /(?:^|;\s*)paying_order=([A-Za-z0-9]{1,64})(?:;|$)/.exec(request.headers.get('Cookie') ?? '');
  return match ? match[1] : undefined;
}

/**
 * A typed API client acting as the guest who placed `orderId`: no session token, the guest cart, and the
 * order's access token (from its cookie) as `X-Order-Token`. Null when the browser holds no token for it.
 */
export function apiForGuestOrder(request: Request, orderId: string, token?: string): ApiClient | null {
  // `token`: the one the API just answered (checkout), before its cookie reaches the browser
  const orderToken = token ?? orderTokenFromRequest(request, orderId);
  if (!orderToken) return null;
  const client = shopApi({ cartId: cartIdFromRequest(request) });
  client.use({
    onRequest({ request: outgoing }) {
      outgoing.headers.set('X-Order-Token', orderToken);
      return outgoing;
    },
  });
  return client;
}

/** The public answers kept for personal pages (docs/decisions/0099-signed-in-pages.md). */
const publicReads = createPublicReads(publicReadsConfig(process.env));

/** Every client of the API: its URL, and the page request's id on each call (request-id.server.ts). */
function shopApi(options: { token?: string; cartId?: string }): ApiClient {
  const client = withRequestId(createApiClient({ baseUrl: env.apiUrl, ...options }));
  // a write (an order, a review, a cart change...): the kept public answers are asked again before use
  client.use({
    onRequest({ request }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') publicReads.written();
      return request;
    },
    onResponse({ request }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        publicReads.written();
        if (new URL(request.url).pathname.startsWith('/api/reviews')) reviewWrittenAt = Date.now();
      }
      return undefined;
    },
  });
  return client;
}

/** When this process last wrote a review (the one public answer a shopper changes through the storefront). */
let reviewWrittenAt = -Infinity;

/** Whether a review was written through this process within the last `ms` (personal-page.server.ts). */
export function reviewWrittenWithin(ms: number): boolean {
  return Date.now() - reviewWrittenAt < ms;
}

/**
 * A client for the API's public reads (products, reviews, public settings), which do not depend on who
 * asks: it sends no token and no cart id, so the API answers them from its hot cache. For a personal
 * request (a session or a guest cart: never kept by the page cache) the answers kept in this process are
 * used (public-reads.server.ts); an anonymous one asks the API, so that the page cache notes what its page
 * read (docs/decisions/0087-page-cache.md).
 */
export function publicApiFor(request: Request): ApiClient {
  const personal = Boolean(tokenFromRequest(request) || cartIdFromRequest(request));
  return withRequestId(
    createApiClient({ baseUrl: env.apiUrl, ...(personal ? { fetch: publicReads.fetch } : {}) }),
  );
}

/** A typed API client acting as the signed-in user of this request (or as a guest, with its cart). */
export function apiFor(request: Request): ApiClient {
  const token = tokenFromRequest(request);
  return shopApi({ token, cartId: token ? undefined : cartIdFromRequest(request) });
}

/**
 * After sign-in or sign-up: moves the guest cart into the account's cart. Answers the Set-Cookie that
 * forgets the guest cart id, and whether a quantity was capped by the stock (the page says so).
 */
export async function mergeGuestCart(
  request: Request,
  token: string,
): Promise<{ setCookie?: string; capped: boolean }> {
  const cartId = cartIdFromRequest(request);
  if (!cartId) return { capped: false };
  const result = await settle(apiWithToken(token).POST('/api/cart/merge', { body: { cartId } }));
  if (!result.ok) {
    console.error('Merging the guest cart failed', result.status, result.code);
    return { capped: false };
  }
  return {
    setCookie: clearCartCookie(),
    capped: (result.data.notices ?? []).some((n) => n.type === 'quantity_capped'),
  };
}

/** A typed API client acting with a token just obtained (sign-in), before the cookie reaches the browser. */
export function apiWithToken(token: string | undefined): ApiClient {
  return shopApi({ token });
}

/** The signed-in user as `/api/auth/me` answers it (generated from openapi.yaml). */
export type SessionUser = SignedInUser;

/** The signed-in user, or null for a guest or an expired token. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const token = tokenFromRequest(request);
  if (!token) return null;
  const result = await settle(apiWithToken(token).GET('/api/auth/me'));
  return result.ok ? (result.data.user ?? null) : null;
}

/** What every page's header needs of the shopper (the root loader): who, and what is in the cart and wishlist. */
export interface ShopperSummary {
  user: SessionUser | null;
  cartCount: number;
  wishlistCount: number;
  /** Units of each product in the cart (its variants' lines added up): the cards' "in cart" badges. */
  cartQuantities: Record<string, number>;
  /** The wished products' ids: the cards' hearts. */
  wishlistIds: string[];
}

const NO_SHOPPER: ShopperSummary = {
  user: null,
  cartCount: 0,
  wishlistCount: 0,
  cartQuantities: {},
  wishlistIds: [],
};

/**
 * The shopper of this request in one API call, `GET /api/auth/session` (docs/decisions/0105-shopper-summary.md):
 * the user as `/api/auth/me` answers it, the cart's count and lines as `/api/cart`, the wishlist's products as
 * `/api/wishlist`. No call without a token or a guest cart; an invalid token, an API away or an error count as
 * a signed-out shopper with nothing in the cart (the page still renders).
 */
export async function shopperSummary(request: Request): Promise<ShopperSummary> {
  const token = tokenFromRequest(request);
  const cartId = token ? undefined : cartIdFromRequest(request);
  if (!token && !cartId) return NO_SHOPPER;
  const api = shopApi({ token, cartId });
  const result = await settle(api.GET('/api/auth/session'));
  // an API older than this storefront (deployed apart, the API first is the rule): the three calls it has
  if (!result.ok && result.status === 404) return shopperOfOlderApi(api, token);
  if (!result.ok) return NO_SHOPPER;
  const { user, cart, wishlist } = result.data;
  const cartQuantities: Record<string, number> = {};
  for (const line of cart?.lines ?? [])
    cartQuantities[line.productId] = (cartQuantities[line.productId] ?? 0) + line.quantity;
  const wishlistIds = wishlist?.productIds ?? [];
  return {
    user: user ?? null,
    cartCount: cart?.itemCount ?? 0,
    wishlistCount: wishlistIds.length,
    cartQuantities,
    wishlistIds,
  };
}

/** The same summary from `auth/me`, `cart` and `wishlist`, for an API without `GET /api/auth/session`. */
async function shopperOfOlderApi(api: ApiClient, token: string | undefined): Promise<ShopperSummary> {
  const [me, cart, wishlist] = await Promise.all([
    token ? settle(api.GET('/api/auth/me')) : undefined,
    settle(api.GET('/api/cart')),
    token ? settle(api.GET('/api/wishlist')) : undefined,
  ]);
  const user = me?.ok ? (me.data.user ?? null) : null;
  if (token && !user) return NO_SHOPPER;
  const cartQuantities: Record<string, number> = {};
  for (const line of cart.ok ? (cart.data.products ?? []) : []) {
    const id = line.product?._id;
    if (id) cartQuantities[id] = (cartQuantities[id] ?? 0) + line.quantity;
  }
  const wishlistIds = (wishlist?.ok ? (wishlist.data.products ?? []) : [])
    .map((item) => item.product?._id)
    .filter((id): id is string => Boolean(id));
  return {
    user,
    cartCount: cart.ok ? (cart.data.itemCount ?? 0) : 0,
    wishlistCount: wishlistIds.length,
    cartQuantities,
    wishlistIds,
  };
}
