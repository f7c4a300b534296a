import {
  ApiError,
  createApiClient,
  type components,
  type Settings,
  type SignedInUser,
} from '@shop/api-client';
import type { ContactStatus, OrderStatus } from '@shop/shared';
import { apiUrl } from './config';
import { SETTINGS_FIELDS } from './contractFields';
import { sendRequestId } from './requestId';

/**
 * Every call (here and in the data provider) carries the httpOnly `token` cookie the API sets at sign-in (the admin app and the API are
 * same-site, and the API allows credentialed CORS for this origin); no script here ever holds the token.
 */
export const withSession = <T extends RequestInit>(init?: T): T => ({ ...init, credentials: 'include' }) as T;

const client = createApiClient({ baseUrl: apiUrl, fetch: (input, init) => fetch(input, withSession(init)) });
client.use(sendRequestId); // a new X-Request-Id on each call (requestId.ts)

/** The typed client; the session goes in the cookie. */
export const shopClient = () => client;

/** The data of a typed-client answer, or an ApiError carrying the API's message. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined || !response.ok) throw ApiError.from(error, response.status);
  return data;
}

type Schemas = components['schemas'];

/** The dashboard's figures as GET /api/admin/dashboard/stats answers them (generated from openapi.yaml). */
export type DashboardStats = Schemas['DashboardStatsDto'];
export type SalesDay = Schemas['SalesDayDto'];
/** The shop's settings as the API answers and accepts them. */
export type ShopSettings = Settings;
type SettingsInput = Schemas['SettingsInputDto'];
export type Role = SignedInUser['role'];

/** The back office's calls outside the react-admin lists, through the typed client. */
export const adminApi = {
  stats: () => unwrap(shopClient().GET('/api/admin/dashboard/stats')),
  setOrderStatus: (id: string, status: OrderStatus, trackingNumber?: string) =>
    unwrap(
      shopClient().PUT('/api/admin/orders/{id}/status', {
        params: { path: { id } },
        body: trackingNumber ? { status, trackingNumber } : { status },
      }),
    ),
  /** Records the money a rider brought for a pay-on-delivery order (unpaid → paid), with the receipt or telebirr reference if any. */
  recordPaymentCollected: (id: string, reference?: string) =>
    unwrap(
      shopClient().POST('/api/admin/orders/{id}/payment/collected', {
        params: { path: { id } },
        body: reference ? { reference } : {},
      }),
    ),
  /** Records a refund of a paid order (through Chapa, or manual with a reference); answers the order with its refunds. */
  recordRefund: (
    id: string,
    refund: { amount: number; reason: string; method: 'chapa' | 'manual'; reference?: string },
  ) =>
    unwrap(shopClient().POST('/api/admin/orders/{id}/refunds', { params: { path: { id } }, body: refund })),
  /** Adds an internal (staff-only) note to an order; answers the order with its notes. */
  addOrderNote: (id: string, text: string) =>
    unwrap(shopClient().POST('/api/admin/orders/{id}/notes', { params: { path: { id } }, body: { text } })),
  /** Bulk activate/deactivate; answers how many products changed. */
  setProductsActive: (ids: string[], active: boolean) =>
    unwrap(shopClient().PUT('/api/admin/products/bulk/active', { body: { ids, active } })),
  createUser: (user: { name: string; email: string; password: string; role: Role }) =>
    unwrap(shopClient().POST('/api/admin/users', { body: user })),
  setUserRole: (id: string, role: Role) =>
    unwrap(shopClient().PUT('/api/admin/users/{id}/role', { params: { path: { id } }, body: { role } })),
  setUserActive: (id: string, isActive: boolean) =>
    unwrap(
      shopClient().PUT('/api/admin/users/{id}/active', { params: { path: { id } }, body: { isActive } }),
    ),
  settings: () => unwrap(shopClient().GET('/api/admin/settings')).then((r) => r.settings),
  saveSettings: (settings: ShopSettings) =>
    unwrap(shopClient().PUT('/api/admin/settings', { body: settingsInput(settings) })).then(
      (r) => r.settings,
    ),
  /** Sends a sent or failed message of the outbox again. */
  resendNotification: (id: string) =>
    unwrap(shopClient().POST('/api/admin/notifications/{id}/resend', { params: { path: { id } } })),
  /** Asks for a reset link into the back office; the answer is the same whether or not the account exists. */
  forgotPassword: (email: string) =>
    unwrap(shopClient().POST('/api/auth/forgot-password', { body: { email, app: 'admin' } })),
  /** Sets a new password with the token of the emailed link. */
  resetPassword: (token: string, password: string, confirmPassword: string) =>
    unwrap(shopClient().POST('/api/auth/reset-password', { body: { token, password, confirmPassword } })),
  setContactStatus: (id: string, status: ContactStatus) =>
    unwrap(shopClient().PATCH('/api/contacts/{id}/status', { params: { path: { id } }, body: { status } })),
  /** Uploads images (UPLOAD_TYPES under UPLOAD_MAX_BYTES, libs/shared) and answers their URLs. */
  upload: (files: File[]) => {
    const form = new FormData();
    for (const f of files) form.append('images', f);
    // multipart: openapi-fetch hands a FormData body to fetch as it is
    return unwrap(
      shopClient().POST('/api/uploads', {
        body: form as never,
        bodySerializer: (b) => b as unknown as FormData,
      }),
    ).then((r) => r.urls);
  },
};

/** The given fields of a record that carry a value (the API refuses unknown fields; records also carry read-only ones). */
export function pickFields<K extends string>(
  data: Partial<Record<K, unknown>>,
  fields: readonly K[],
  empty: readonly unknown[] = [undefined],
): Partial<Record<K, unknown>> {
  return Object.fromEntries(
    fields.filter((k) => !empty.includes(data[k])).map((k) => [k, data[k]]),
  ) as Partial<Record<K, unknown>>;
}

/** Only the settings fields the API accepts (SettingsInputDto; the answer also carries read-only ones). */
function settingsInput(s: ShopSettings): SettingsInput {
  return pickFields(s, SETTINGS_FIELDS) as SettingsInput;
}
