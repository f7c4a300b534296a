import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths } from './schema';
export type Product = components['schemas']['ProductDto'];
export type ProductList = components['schemas']['ProductListDto'];
export type Category = components['schemas']['CategoryDto'];
export type ApiErrorBody = components['schemas']['ErrorDto'];

/** The answers' shapes, by the names the frontends use (all generated from openapi.yaml; never written by hand). */
type Schemas = components['schemas'];
export type Cart = Schemas['CartDto'];
export type CartLine = Schemas['CartLineDto'];
export type CartNotice = Schemas['CartNoticeDto'];
export type Wishlist = Schemas['WishlistDto'];
export type WishlistItem = Schemas['WishlistItemDto'];
export type WishlistUnsubscribe = Schemas['UnsubscribeDto'];
export type Order = Schemas['OrderDto'];
export type OrderItem = Schemas['OrderItemDto'];
export type ShippingAddress = Schemas['ShippingAddressViewDto'];
export type SavedAddress = Schemas['AddressDto'];
export type PaymentInit = Schemas['InitializePaymentResponseDto'];
export type PaymentVerification = Schemas['VerifyPaymentResponseDto'];
export type SignedInUser = Schemas['UserDto'];
export type ProfileUser = Schemas['ProfileUserDto'];
export type Settings = Schemas['SettingsDto'];

export interface ApiClientOptions {
  /** The API base including `/api`, e.g. http://localhost:4000/api. */
  baseUrl: string;
  token?: string;
  /** A guest cart's id, sent as `X-Cart-Id` (used by the API only when there is no token). */
  cartId?: string;
  fetch?: typeof fetch;
}

/** The API's paths are written with their `/api` prefix; the base is the origin in front of it. */
export function apiOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/api$/, '');
}

/** A typed client for the shop API, generated from openapi.yaml. */
export function createApiClient(options: ApiClientOptions) {
  const client = createClient<paths>({ baseUrl: apiOrigin(options.baseUrl), fetch: options.fetch });
  if (options.token) {
    const auth: Middleware = {
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${options.token}`);
        return request;
      },
    };
    client.use(auth);
  }
  if (options.cartId) {
    const cart: Middleware = {
      onRequest({ request }) {
        request.headers.set('X-Cart-Id', options.cartId as string);
        return request;
      },
    };
    client.use(cart);
  }
  return client;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export type FieldError = components['schemas']['FieldErrorDto'];

/** An error answered by the API, in its one error shape: its stable `code` and `params` travel with it. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    readonly code?: string,
    readonly params?: Record<string, string | number>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static from(body: unknown, status: number): ApiError {
    const b = (body ?? {}) as Partial<ApiErrorBody>;
    return new ApiError(
      b.statusCode ?? status,
      b.message ?? `Request failed with status ${status}`,
      b.errors,
      b.code,
      b.params,
    );
  }
}
