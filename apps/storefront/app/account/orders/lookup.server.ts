import { normaliseEthiopianPhone, parseOrderNumber } from '@shop/shared';
import { apiFor } from '../../session.server';
import { settle } from '../api.server';
import { text, type FieldErrors } from '../forms';

/** What the lookup shows of an order: its state, never the street, phone or email. */
export interface LookupOrder {
  orderNumber: string;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  items: { name: string; nameAm?: string; quantity: number }[];
  subtotal?: number;
  shippingCost?: number;
  tax?: number;
  totalAmount: number;
  createdAt: string;
  city?: string;
  region?: string;
  statusHistory: { status: string; at: string }[];
}

export type LookupResult =
  | { ok: true; order: LookupOrder }
  | { ok: false; status: number; fieldErrors: FieldErrors; formError: string | null };

/** The form's checks before asking the API: a number like AN-10042 and an Ethiopian mobile number. */
export function validateLookup(form: FormData): {
  input: { number: string; phone: string };
  errors: FieldErrors;
} {
  const rawNumber = text(form, 'number');
  const rawPhone = text(form, 'phone');
  const errors: FieldErrors = {};
  const number = parseOrderNumber(rawNumber.replace(/\s+/g, ''));
  const phone = normaliseEthiopianPhone(rawPhone);
  if (!rawNumber) errors.number = 'lookup.numberRequired';
  else if (!number) errors.number = 'lookup.numberInvalid';
  if (!rawPhone) errors.phone = 'checkout.phoneRequired';
  else if (!phone) errors.phone = 'checkout.phoneInvalid';
  return { input: { number: number ?? rawNumber, phone: phone ?? rawPhone }, errors };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The API's reduced order read field by field: only what the page shows is kept. */
export function lookupOrderFrom(raw: unknown): LookupOrder | null {
  if (!raw || typeof raw !== 'object') return null;
  const o = raw as Record<string, unknown>;
  const orderNumber = str(o.orderNumber);
  const totalAmount = num(o.totalAmount);
  if (!orderNumber || totalAmount === undefined) return null;
  const rawItems = Array.isArray(o.items) ? o.items : Array.isArray(o.orderItems) ? o.orderItems : [];
  const items = rawItems
    .map((i: unknown) => {
      const item = (i ?? {}) as Record<string, unknown>;
      const product = (item.product ?? {}) as Record<string, unknown>;
      return {
        name: str(item.name) ?? str(product.name) ?? '',
        nameAm: str(item.nameAm) ?? str(product.nameAm),
        quantity: num(item.quantity) ?? 0,
      };
    })
    .filter((i) => i.name);
  const shipping = (o.shipping ?? o.shippingAddress ?? {}) as Record<string, unknown>;
  const history = Array.isArray(o.statusHistory) ? o.statusHistory : [];
  return {
    orderNumber,
    status: str(o.status) ?? 'pending',
    paymentStatus: str(o.paymentStatus) ?? 'unpaid',
    paymentMethod: str(o.paymentMethod) ?? 'chapa',
    items,
    subtotal: num(o.subtotal),
    shippingCost: num(o.shippingCost),
    tax: num(o.tax),
    totalAmount,
    createdAt: str(o.createdAt) ?? '',
    city: str(shipping.city),
    region: str(shipping.state) ?? str(shipping.region),
    statusHistory: history
      .map((h: unknown) => {
        const entry = (h ?? {}) as Record<string, unknown>;
        return {
          status: str(entry.status) ?? '',
          at: str(entry.at) ?? str(entry.timestamp) ?? str(entry.date) ?? str(entry.changedAt) ?? '',
        };
      })
      .filter((h) => h.status && h.at),
  };
}

/**
 * Asks the API for an order by its number and phone. A wrong number and a wrong phone answer the same
 * ORDER_NOT_FOUND; too many wrong tries answer TOO_MANY_ATTEMPTS (429); both are worded by their code.
 * The shopper's address travels as X-Forwarded-For when a proxy gave one, so the API's limit per client
 * counts the shopper, not the storefront.
 */
export async function lookupOrder(request: Request, number: string, phone: string): Promise<LookupResult> {
  const forwarded = request.headers.get('X-Forwarded-For');
  const result = await settle(
    apiFor(request).GET('/api/orders/lookup', {
      params: { query: { number, phone } },
      headers: forwarded ? { 'X-Forwarded-For': forwarded } : {},
    }),
  );
  if (result.ok) {
    const order = lookupOrderFrom((result.data as { order?: unknown }).order);
    if (order) return { ok: true, order };
    return { ok: false, status: 502, fieldErrors: {}, formError: 'lookup.failed' };
  }
  const known =
    result.code === 'ORDER_NOT_FOUND' || result.code === 'TOO_MANY_ATTEMPTS' || result.status === 400
      ? result.key
      : undefined;
  const formError =
    known ??
    (result.status === 404
      ? 'errors.ORDER_NOT_FOUND'
      : result.status === 429
        ? 'errors.TOO_MANY_ATTEMPTS'
        : 'lookup.failed');
  return { ok: false, status: result.status, fieldErrors: {}, formError };
}
