import { ApiError, createApiClient } from '@shop/api-client';
import type { OrderStatus } from '@shop/shared';
import { apiUrl } from './config';
import { session } from './session';

/** The typed client with the admin's token. */
export const shopClient = () => createApiClient({ baseUrl: apiUrl, token: session.token ?? undefined });

/** Calls an admin endpoint; any non-2xx answer becomes an ApiError carrying the API's message. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = session.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${apiUrl}${path}`, { method, headers, body: payload });
  const json = await res.json().catch(() => undefined);
  if (!res.ok) throw ApiError.from(json, res.status);
  return json as T;
}

export interface SalesDay { _id: string; totalSales: number }
export interface TopProduct { _id: string; totalQuantity: number; productDetails: { name: string; price: number } }
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
export interface LowStockItem { _id: string; name: string; stock: number; brand?: string }
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
  standardShipping: number;
  expressShipping: number;
  pickupShipping: number;
  freeShippingThreshold: number;
}

export type Role = 'customer' | 'admin';
export type ContactStatus = 'unread' | 'read' | 'replied';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif'];

export const adminApi = {
  stats: () => call<DashboardStats>('GET', '/admin/dashboard/stats'),
  setOrderStatus: (id: string, status: OrderStatus, trackingNumber?: string) =>
    call<unknown>('PUT', `/admin/orders/${encodeURIComponent(id)}/status`, trackingNumber ? { status, trackingNumber } : { status }),
  createUser: (user: { name: string; email: string; password: string; role: Role }) =>
    call<unknown>('POST', '/admin/users', user),
  setUserRole: (id: string, role: Role) => call<unknown>('PUT', `/admin/users/${encodeURIComponent(id)}/role`, { role }),
  setUserActive: (id: string, isActive: boolean) =>
    call<unknown>('PUT', `/admin/users/${encodeURIComponent(id)}/active`, { isActive }),
  settings: () => call<{ success: boolean; settings: ShopSettings }>('GET', '/admin/settings').then((r) => r.settings),
  saveSettings: (settings: ShopSettings) =>
    call<{ success: boolean; settings: ShopSettings }>('PUT', '/admin/settings', settings).then((r) => r.settings),
  setContactStatus: (id: string, status: ContactStatus) =>
    call<unknown>('PATCH', `/contacts/${encodeURIComponent(id)}/status`, { status }),
  /** Uploads images (PNG/JPG/GIF under 5 MB) and answers their URLs. */
  upload: (files: File[]) => {
    const form = new FormData();
    for (const f of files) form.append('images', f);
    return call<{ success: boolean; urls: string[] }>('POST', '/uploads', form).then((r) => r.urls);
  },
};
