import type { OrderStatus } from '@shop/shared';
import type { RaRecord } from 'react-admin';

export interface Person {
  name?: string;
  email?: string;
}
export interface OrderLine {
  _id?: string;
  product?: string | { _id?: string; name?: string; nameAm?: string; images?: string[] };
  name?: string;
  nameAm?: string;
  image?: string;
  quantity: number;
  priceAtPurchase?: number;
  price?: number;
}
export interface StatusEvent {
  status: string;
  at?: string;
  changedAt?: string;
  date?: string;
  createdAt?: string;
  note?: string;
  by?: string | null;
}
export interface ShippingAddress {
  street?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  country?: string;
  phone?: string;
  landmark?: string;
  [key: string]: string | undefined;
}
export interface OrderRecord extends RaRecord {
  orderNumber?: string;
  status: OrderStatus;
  createdAt: string;
  totalAmount: number;
  subtotal?: number;
  shippingCost?: number;
  tax?: number;
  paymentStatus?: string;
  paymentMethod?: string;
  paymentReference?: string;
  paidAt?: string;
  shippingMethod?: string;
  trackingNumber?: string;
  user?: Person | string;
  customer?: Person;
  email?: string;
  orderItems?: OrderLine[];
  items?: OrderLine[];
  shippingAddress?: ShippingAddress;
  statusHistory?: StatusEvent[];
}

export const shortId = (id: unknown) => String(id ?? '').slice(-6);

/** The order number staff and customers quote (e.g. AB-10042); orders from before numbers existed show #<last 6 of the id>. */
export const orderLabel = (o: Pick<OrderRecord, 'id' | 'orderNumber'>) =>
  o.orderNumber ? o.orderNumber : `#${shortId(o.id)}`;

export function customerOf(o: OrderRecord): Person {
  if (o.customer) return o.customer;
  if (o.user && typeof o.user === 'object') return o.user;
  return { email: o.email };
}

/** The line's name in the chosen language (the Amharic name kept at purchase when there is one). */
export const lineName = (l: OrderLine, lang: 'en' | 'am' = 'en') => {
  const product = typeof l.product === 'object' ? l.product : undefined;
  if (lang === 'am') {
    const am = l.nameAm ?? product?.nameAm;
    if (am) return am;
  }
  return l.name ?? product?.name ?? '';
};

export const lineImage = (l: OrderLine): string | undefined =>
  l.image ?? (typeof l.product === 'object' ? l.product?.images?.[0] : undefined);

export const linesOf = (o: OrderRecord): OrderLine[] => o.orderItems ?? o.items ?? [];

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
