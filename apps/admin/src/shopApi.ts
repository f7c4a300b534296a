import { ApiError, createApiClient } from '@shop/api-client';
import type { OrderStatus } from '@shop/shared';
import { apiUrl } from './config';

/**
 * Every call (here and in the data provider) carries the httpOnly `token` cookie the API sets at sign-in (the admin app and the API are
 * same-site, and the API allows credentialed CORS for this origin); no script here ever holds the token.
 */
export const withSession = <T extends RequestInit>(init?: T): T => ({ ...init, credentials: 'include' }) as T;

const client = createApiClient({ baseUrl: apiUrl, fetch: (input, init) => fetch(input, withSession(init)) });

/** The typed client; the session goes in the cookie. */
export const shopClient = () => client;

/** The data of a typed-client answer, or an ApiError carrying the API's message. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined || !response.ok) throw ApiError.from(error, response.status);
  return data;
}

export interface SalesDay {
  _id: string;
  totalSales: number;
}
export interface TopProduct {
  _id: string;
  totalQuantity: number;
  productDetails: { name: string; price: number };
}
export interface ActivityItem {
  _id?: string;
  orderId?: string;
  status?: string;
  message?: string;
  customer?: string;
  customerName?: string;
  email?: string;
  totalAmount?: number;
  createdAt?: string;
  at?: string;
}
export interface LowStockItem {
  _id: string;
  name: string;
  stock: number;
  brand?: string;
}
export interface DashboardStats {
  totalOrders: number;
  totalRevenue: number;
  itemsSold: number;
  totalUsers: number;
  totalProducts: number;
  currency: 'ETB' | 'USD';
  salesData: SalesDay[];
  topSellingProducts: TopProduct[];
  recentOrders: { _id: string; status: string; totalAmount: number; createdAt: string }[];
  recentActivity: ActivityItem[];
  lowStockItems: LowStockItem[];
}

export const SETTINGS_CURRENCIES = ['USD', 'ETB'] as const;
export const SETTINGS_LANGUAGES = ['en', 'am'] as const;
export const TIMEZONES = ['UTC', 'Africa/Addis_Ababa', 'America/New_York', 'Europe/London'] as const;

export interface ShopSettings {
  siteName: string;
  siteDescription: string;
  adminEmail: string;
  currency: (typeof SETTINGS_CURRENCIES)[number];
  language: (typeof SETTINGS_LANGUAGES)[number];
  timezone: (typeof TIMEZONES)[number];
  emailNotifications: boolean;
  orderNotifications: boolean;
  lowStockAlerts: boolean;
  maintenanceMode: boolean;
  /** Shelf prices include the 15% VAT (the storefront then shows 'of which VAT'). */
  pricesIncludeTax: boolean;
  standardShipping: number;
  expressShipping: number;
  pickupShipping: number;
  freeShippingThreshold: number;
}

export type Role = 'customer' | 'admin';
export type ContactStatus = 'unread' | 'read' | 'replied';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif'];

/** The back office's calls outside the react-admin lists, through the typed client. */
export const adminApi = {
  stats: () => unwrap(shopClient().GET('/api/admin/dashboard/stats')) as Promise<DashboardStats>,
  setOrderStatus: (id: string, status: OrderStatus, trackingNumber?: string) =>
    unwrap(
      shopClient().PUT('/api/admin/orders/{id}/status', {
        params: { path: { id } },
        body: trackingNumber ? { status, trackingNumber } : { status },
      }),
    ),
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
  settings: () => unwrap(shopClient().GET('/api/admin/settings')).then((r) => r.settings as ShopSettings),
  saveSettings: (settings: ShopSettings) =>
    unwrap(shopClient().PUT('/api/admin/settings', { body: settingsInput(settings) })).then(
      (r) => r.settings as ShopSettings,
    ),
  setContactStatus: (id: string, status: ContactStatus) =>
    unwrap(shopClient().PATCH('/api/contacts/{id}/status', { params: { path: { id } }, body: { status } })),
  /** Uploads images (PNG/JPG/GIF under 5 MB) and answers their URLs. */
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

const SETTINGS_FIELDS: readonly (keyof ShopSettings)[] = [
  'pricesIncludeTax',
  'siteName',
  'siteDescription',
  'adminEmail',
  'currency',
  'language',
  'timezone',
  'emailNotifications',
  'orderNotifications',
  'lowStockAlerts',
  'maintenanceMode',
  'standardShipping',
  'expressShipping',
  'pickupShipping',
  'freeShippingThreshold',
];

/** Only the settings fields the API accepts (the answer also carries read-only ones). */
function settingsInput(s: ShopSettings): ShopSettings {
  return pickFields(s, SETTINGS_FIELDS) as ShopSettings;
}
