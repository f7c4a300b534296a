import type { components } from '@shop/api-client';
import type { RaRecord } from 'react-admin';

type Schemas = components['schemas'];
/** A customer as an order names them (a guest has a name and phone, an account by phone no email). */
export type Person = Partial<Schemas['OrderCustomerDto']> & { phone?: string };
export type OrderLine = Schemas['OrderItemDto'];
export type StatusEvent = Schemas['StatusChangeDto'];
export type ShippingAddress = Schemas['ShippingAddressViewDto'];
/**
 * An order as the back office reads it (generated from openapi.yaml): a row of GET /api/admin/orders
 * (`user` is the customer's `{ _id, name, email }`) or one order of GET /api/admin/orders/{id}
 * (`user` is the customer's id, `customer` their name and email).
 */
export type OrderRecord = RaRecord & (Schemas['OrderDto'] | Schemas['AdminOrderRowDto']);

export const shortId = (id: unknown) => String(id ?? '').slice(-6);

/** The order number staff and customers quote (e.g. AB-10042); orders from before numbers existed show #<last 6 of the id>. */
export const orderLabel = (o: Pick<OrderRecord, 'id' | 'orderNumber'>) =>
  o.orderNumber ? o.orderNumber : `#${shortId(o.id)}`;

export function customerOf(o: OrderRecord): Person {
  if (o.customer) return o.customer;
  if (o.user && typeof o.user === 'object') return o.user;
  return {};
}

/**
 * A guest's order has no account behind it: `user` absent (one order) or populated with an empty `_id`
 * (a list row); the customer is whoever the order names.
 */
export const isGuestOrder = (o: Pick<OrderRecord, 'user'>) =>
  !o.user || (typeof o.user === 'object' && !o.user._id);

/** The phone to call about an order: the delivery address's, else the customer's. */
export const orderPhone = (o: OrderRecord): string | undefined =>
  o.shippingAddress?.phone || customerOf(o).phone || undefined;

/** Who the order is for, in one line: the name, else the email, else the phone (an account may have only a phone). */
export const personLabel = (p: Person): string => p.name?.trim() || p.email || p.phone || '';

/** The line's name in the chosen language (the Amharic name kept at purchase when there is one). */
export const lineName = (l: OrderLine, lang: 'en' | 'am' = 'en') => {
  if (lang === 'am') {
    const am = l.nameAm ?? l.product?.nameAm;
    if (am) return am;
  }
  return l.name ?? l.product?.name ?? '';
};

export const lineImage = (l: OrderLine): string | undefined => l.image ?? l.product?.images?.[0];

export const linesOf = (o: OrderRecord): OrderLine[] => o.orderItems;

/** Address lines for a rider: street, landmark, city, region, postal code, country. */
export function addressLines(a: ShippingAddress | undefined, regionName: (r: string) => string): string[] {
  if (!a) return [];
  return [
    a.street,
    a.landmark,
    [a.city, a.state ? regionName(a.state) : undefined].filter(Boolean).join(', '),
    a.zipCode,
    a.country,
  ].filter((l): l is string => Boolean(l && l.trim()));
}
