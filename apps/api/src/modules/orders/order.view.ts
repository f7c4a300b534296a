import { toBirr } from '@shop/shared';
import type { Types } from 'mongoose';
import type {
  Order,
  OrderItem,
  OrderNote,
  Refund,
  ShippingAddress,
  StatusChange,
} from './schemas/order.schema';

/**
 * One order shape. The stored order is the schema's class (`Order`); what the API answers is derived
 * from it here (`Shown`: ids as text, every `<name>Santim` amount as ETB under `<name>`), and the
 * Swagger DTOs (dto/order.dto.ts) implement these views with exactly their fields, so a field added
 * to the schema, the view or the DTO and not followed by the others fails to compile.
 */
type Shown<T> = {
  [K in keyof T as K extends `${infer Base}Santim` ? Base : K]: K extends `${string}Santim`
    ? number
    : ShownValue<T[K]>;
};
type ShownValue<V> = V extends Types.ObjectId
  ? string
  : V extends Date
    ? Date
    : V extends readonly (infer E)[]
      ? ShownValue<E>[]
      : V extends object
        ? Shown<V>
        : V;

/** A stored order as the orders module hands it to other modules (read-only for them). */
export type OrderRecord = Order & { _id: Types.ObjectId };

/** The product as it was bought: what a client shows for the line even after the product changes. */
export interface OrderProductSnapshot {
  _id: string;
  name: string;
  nameAm?: string;
  images: string[];
  price: number;
}

/** A line as shown: the stored line, and the product as it was bought. */
export type OrderItemView = Omit<Shown<OrderItem>, 'product' | 'variant'> & {
  product: OrderProductSnapshot;
  /** The variant bought (with `sku` and `variantOptions`, its snapshot), when the product had variants. */
  variantId?: string;
};

export type ShippingAddressView = Shown<ShippingAddress>;

/** A history entry as shown: who made the change (null: the system or a deleted account). */
export type StatusChangeView = Omit<Shown<StatusChange>, 'by'> & { by: string | null };

/**
 * Stored for the order's own use only (the Idempotency-Key's replay), never shown; refunds (their
 * reasons) and notes are shown to staff only (AdminOrderView).
 */
type InternalFields = 'idempotencyKey' | 'idempotencyFingerprint' | 'refunds' | 'notes' | 'couponHolder';

/** The order as the API answers it: money in ETB, ids as strings, `id` mirrored from `_id`. */
export type OrderView = Omit<Shown<Order>, InternalFields | 'orderItems' | 'statusHistory'> & {
  _id: string;
  id: string;
  orderItems: OrderItemView[];
  statusHistory: StatusChangeView[];
};

/** A refund as staff see it: amount in ETB, who recorded it (null: a deleted account). */
export type RefundView = Omit<Shown<Refund>, 'by'> & { by: string | null };
/** A note as staff see it. */
export type OrderNoteView = Omit<Shown<OrderNote>, 'by'> & { by: string | null };

/** The order as the back office sees it: with its refunds and internal notes. */
export type AdminOrderView = OrderView & { refunds: RefundView[]; notes: OrderNoteView[] };

/**
 * What anyone who knows an order's number and phone may see (GET /api/orders/lookup): its state,
 * lines, totals and the city and region it goes to; never the street, phone, email or name.
 */
export interface OrderLookupView {
  orderNumber?: string;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  items: { name: string; nameAm?: string; quantity: number }[];
  subtotal: number;
  shippingCost: number;
  tax: number;
  totalAmount: number;
  currency: string;
  createdAt: Date;
  shipping: { city: string; region: string };
  statusHistory: { status: string; at: Date }[];
}

export function toOrderLookupView(doc: OrderRecord): OrderLookupView {
  return {
    ...(doc.orderNumber ? { orderNumber: doc.orderNumber } : {}),
    status: doc.status,
    paymentStatus: doc.paymentStatus,
    paymentMethod: doc.paymentMethod,
    items: (doc.orderItems ?? []).map((item) => ({
      name: item.name,
      ...(item.nameAm ? { nameAm: item.nameAm } : {}),
      quantity: item.quantity,
    })),
    subtotal: toBirr(doc.subtotalSantim),
    shippingCost: toBirr(doc.shippingCostSantim),
    tax: toBirr(doc.taxSantim),
    totalAmount: toBirr(doc.totalAmountSantim),
    currency: doc.currency ?? 'ETB',
    createdAt: doc.createdAt,
    shipping: { city: doc.shippingAddress.city, region: doc.shippingAddress.state },
    statusHistory: (doc.statusHistory ?? []).map((h) => ({ status: h.status, at: h.at })),
  };
}

type OrderLike = Order & {
  _id: Types.ObjectId | string;
  orderItems: (Omit<OrderItem, '_id'> & { _id?: Types.ObjectId | string })[];
};

/** The order as the API answers it: money in ETB, ids as strings, `id` mirrored from `_id`. */
export function toOrderView(doc: OrderLike): OrderView {
  const id = String(doc._id);
  return {
    _id: id,
    id,
    ...(doc.orderNumber ? { orderNumber: doc.orderNumber } : {}),
    // a guest's order has no account
    ...(doc.user ? { user: String(doc.user) } : {}),
    ...(doc.customer
      ? {
          customer: {
            name: doc.customer.name,
            ...(doc.customer.email ? { email: doc.customer.email } : {}),
            ...(doc.customer.phone ? { phone: doc.customer.phone } : {}),
          },
        }
      : {}),
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
        ...(item.variant ? { variantId: String(item.variant) } : {}),
        ...(item.sku ? { sku: item.sku } : {}),
        ...(item.variantOptions ? { variantOptions: { ...item.variantOptions } } : {}),
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
    ...(doc.couponCode ? { couponCode: doc.couponCode, discount: toBirr(doc.discountSantim ?? 0) } : {}),
    ...(doc.language ? { language: doc.language } : {}),
    currency: doc.currency ?? 'ETB',
    status: doc.status,
    paymentStatus: doc.paymentStatus,
    ...(doc.paidAt ? { paidAt: doc.paidAt } : {}),
    ...(doc.paymentReference ? { paymentReference: doc.paymentReference } : {}),
    ...(doc.trackingNumber ? { trackingNumber: doc.trackingNumber } : {}),
    ...(doc.refundedSantim ? { refunded: toBirr(doc.refundedSantim) } : {}),
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

/** The order for staff (GET /api/admin/orders/{id} and the refund and note routes). */
export function toAdminOrderView(doc: OrderLike): AdminOrderView {
  return {
    ...toOrderView(doc),
    refunds: (doc.refunds ?? []).map((r) => ({
      _id: String(r._id),
      amount: toBirr(r.amountSantim),
      reason: r.reason,
      method: r.method,
      ...(r.reference ? { reference: r.reference } : {}),
      by: r.by ? String(r.by) : null,
      ...(r.byName ? { byName: r.byName } : {}),
      at: r.at,
    })),
    notes: (doc.notes ?? []).map((n) => ({
      _id: String(n._id),
      text: n.text,
      by: n.by ? String(n.by) : null,
      ...(n.byName ? { byName: n.byName } : {}),
      at: n.at,
    })),
  };
}
