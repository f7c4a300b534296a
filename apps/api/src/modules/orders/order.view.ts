import { toBirr } from '@shop/shared';
import type { Types } from 'mongoose';
import type { Order } from './schemas/order.schema';

/** The product as it was bought: what a client shows for the line even after the product changes. */
export interface OrderProductSnapshot {
  _id: string;
  name: string;
  nameAm?: string;
  images: string[];
  price: number;
}

export interface OrderItemView {
  _id: string;
  product: OrderProductSnapshot;
  name: string;
  nameAm?: string;
  image?: string;
  quantity: number;
  priceAtPurchase: number;
}

export interface OrderView {
  _id: string;
  id: string;
  orderNumber?: string;
  user: string;
  customer?: { name: string; email: string };
  orderItems: OrderItemView[];
  shippingAddress: {
    street: string;
    city: string;
    state: string;
    zipCode?: string;
    country: string;
    phone?: string;
    landmark?: string;
  };
  shippingMethod: string;
  paymentMethod: string;
  subtotal: number;
  shippingCost: number;
  tax: number;
  totalAmount: number;
  pricesIncludeTax?: boolean;
  currency: string;
  status: string;
  paymentStatus: string;
  paidAt?: Date;
  paymentReference?: string;
  trackingNumber?: string;
  statusHistory: { status: string; by: string | null; at: Date; note?: string }[];
  createdAt: Date;
  updatedAt: Date;
}

type OrderLike = Order & {
  _id: Types.ObjectId | string;
  orderItems: (Order['orderItems'][number] & { _id?: Types.ObjectId | string })[];
};

/** The order as the API answers it: money in ETB, ids as strings, `id` mirrored from `_id`. */
export function toOrderView(doc: OrderLike): OrderView {
  const id = String(doc._id);
  return {
    _id: id,
    id,
    ...(doc.orderNumber ? { orderNumber: doc.orderNumber } : {}),
    user: String(doc.user),
    ...(doc.customer ? { customer: { name: doc.customer.name, email: doc.customer.email } } : {}),
    orderItems: (doc.orderItems ?? []).map((item) => {
      const price = toBirr(item.priceAtPurchaseSantim);
      const nameAm = item.nameAm ? { nameAm: item.nameAm } : {};
      return {
        _id: String(item._id),
        product: {
          _id: String(item.product),
          name: item.name,
          ...nameAm,
          images: item.image ? [item.image] : [],
          price,
        },
        name: item.name,
        ...nameAm,
        ...(item.image ? { image: item.image } : {}),
        quantity: item.quantity,
        priceAtPurchase: price,
      };
    }),
    shippingAddress: {
      street: doc.shippingAddress.street,
      city: doc.shippingAddress.city,
      state: doc.shippingAddress.state,
      ...(doc.shippingAddress.zipCode ? { zipCode: doc.shippingAddress.zipCode } : {}),
      country: doc.shippingAddress.country,
      ...(doc.shippingAddress.phone ? { phone: doc.shippingAddress.phone } : {}),
      ...(doc.shippingAddress.landmark ? { landmark: doc.shippingAddress.landmark } : {}),
    },
    shippingMethod: doc.shippingMethod,
    paymentMethod: doc.paymentMethod,
    subtotal: toBirr(doc.subtotalSantim),
    shippingCost: toBirr(doc.shippingCostSantim),
    tax: toBirr(doc.taxSantim),
    totalAmount: toBirr(doc.totalAmountSantim),
    ...(doc.pricesIncludeTax ? { pricesIncludeTax: true } : {}),
    currency: doc.currency ?? 'ETB',
    status: doc.status,
    paymentStatus: doc.paymentStatus,
    ...(doc.paidAt ? { paidAt: doc.paidAt } : {}),
    ...(doc.paymentReference ? { paymentReference: doc.paymentReference } : {}),
    ...(doc.trackingNumber ? { trackingNumber: doc.trackingNumber } : {}),
    statusHistory: (doc.statusHistory ?? []).map((h) => ({
      status: h.status,
      by: h.by ? String(h.by) : null,
      at: h.at,
      ...(h.note ? { note: h.note } : {}),
    })),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
