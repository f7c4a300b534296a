import type { OrderStatus } from '@shop/shared';
import type { RaRecord } from 'react-admin';

export interface Person {
  name?: string;
  email?: string;
}
export interface OrderLine {
  _id?: string;
  product?: string | { _id?: string; name?: string };
  name?: string;
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
  by?: string;
}
export interface OrderRecord extends RaRecord {
  status: OrderStatus;
  createdAt: string;
  totalAmount: number;
  subtotal?: number;
  shippingCost?: number;
  tax?: number;
  paymentStatus?: string;
  paymentMethod?: string;
  trackingNumber?: string;
  user?: Person | string;
  customer?: Person;
  email?: string;
  orderItems?: OrderLine[];
  items?: OrderLine[];
  shippingAddress?: Record<string, string | undefined>;
  statusHistory?: StatusEvent[];
}

export const shortId = (id: unknown) => String(id ?? '').slice(-6);

export function customerOf(o: OrderRecord): Person {
  if (o.customer) return o.customer;
  if (o.user && typeof o.user === 'object') return o.user;
  return { email: o.email };
}

export const lineName = (l: OrderLine) =>
  l.name ?? (typeof l.product === 'object' ? l.product?.name : undefined) ?? '';
