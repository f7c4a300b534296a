import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ORDER_STATUSES, PAYMENT_STATUSES, SHIPPING_METHODS } from '@shop/shared';
import { Schema as MongooseSchema, Types } from 'mongoose';

@Schema({ _id: false })
export class ShippingAddress {
  @Prop({ required: true, trim: true }) street!: string;
  @Prop({ required: true, trim: true }) city!: string;
  /** The region: the canonical English name of an entry of ETHIOPIAN_REGIONS. */
  @Prop({ required: true, trim: true }) state!: string;
  /** Optional: most Ethiopian addresses have no postal code. */
  @Prop({ trim: true }) zipCode?: string;
  @Prop({ required: true, trim: true, default: 'Ethiopia' }) country!: string;
  /** Delivery phone, E.164 (+2519... / +2517...). */
  @Prop({ trim: true }) phone?: string;
  /** Woreda/kebele or a landmark ("near ..."), what riders find a house by. */
  @Prop({ trim: true }) landmark?: string;
}
export const ShippingAddressSchema = SchemaFactory.createForClass(ShippingAddress);

@Schema()
export class OrderItem {
  _id!: Types.ObjectId;

  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'Product', required: true })
  product!: Types.ObjectId;

  /** Name and image at purchase time, so that history survives product edits. */
  @Prop({ required: true }) name!: string;
  @Prop() nameAm?: string;
  @Prop() image?: string;

  /** The variant bought and a snapshot of it (docs/decisions/0098-product-variants.md); none without variants. */
  @Prop({ type: MongooseSchema.Types.ObjectId }) variant?: Types.ObjectId;
  @Prop() sku?: string;
  @Prop({ type: MongooseSchema.Types.Mixed }) variantOptions?: Record<string, string>;

  @Prop({ required: true, min: 1 }) quantity!: number;

  @Prop({ required: true, min: 0 }) priceAtPurchaseSantim!: number;
}
export const OrderItemSchema = SchemaFactory.createForClass(OrderItem);

@Schema({ _id: false })
export class StatusChange {
  @Prop({ required: true, enum: ORDER_STATUSES }) status!: string;
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User' }) by?: Types.ObjectId;
  @Prop({ required: true, default: () => new Date() }) at!: Date;
  @Prop() note?: string;
}
export const StatusChangeSchema = SchemaFactory.createForClass(StatusChange);

/** Money given back to the customer (docs/decisions/0080-fulfilment-refunds-notes.md). */
@Schema()
export class Refund {
  _id!: Types.ObjectId;
  @Prop({ required: true, min: 1 }) amountSantim!: number;
  @Prop({ required: true, trim: true }) reason!: string;
  /** 'chapa': through Chapa's refund API; 'manual': given back otherwise, `reference` says how. */
  @Prop({ required: true, enum: ['chapa', 'manual'] }) method!: string;
  @Prop({ trim: true }) reference?: string;
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User' }) by?: Types.ObjectId;
  @Prop() byName?: string;
  @Prop({ required: true, default: () => new Date() }) at!: Date;
}
export const RefundSchema = SchemaFactory.createForClass(Refund);

/** A staff-only note on an order: never in a customer's answer. */
@Schema()
export class OrderNote {
  _id!: Types.ObjectId;
  @Prop({ required: true, trim: true }) text!: string;
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User' }) by?: Types.ObjectId;
  /** The author's name when written (the account may be renamed or deleted later). */
  @Prop() byName?: string;
  @Prop({ required: true, default: () => new Date() }) at!: Date;
}
export const OrderNoteSchema = SchemaFactory.createForClass(OrderNote);

/** Who placed the order, as it was then. */
export interface OrderCustomer {
  name: string;
  email?: string;
  phone?: string;
}

@Schema({ timestamps: true, collection: 'orders' })
export class Order {
  /** Short human number, sequential per shop (`AN-10042`); see OrderNumbersService. */
  @Prop({ trim: true }) orderNumber?: string;

  /** The customer's account; absent on a guest's order (docs/decisions/0062-guest-checkout-and-order-lookup.md). */
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User' })
  user?: Types.ObjectId;

  /**
   * Customer name, email and phone (E.164) at order time, as the admin list shows them; a guest's
   * order has a name and phone, and an email only when the guest gave one.
   */
  @Prop({ type: { name: String, email: String, phone: String }, _id: false })
  customer?: OrderCustomer;

  @Prop({ type: [OrderItemSchema], required: true })
  orderItems!: OrderItem[];

  @Prop({ type: ShippingAddressSchema, required: true })
  shippingAddress!: ShippingAddress;

  @Prop({ enum: SHIPPING_METHODS, default: 'standard' })
  shippingMethod!: string;

  @Prop({ required: true, default: 'chapa' })
  paymentMethod!: string;

  @Prop({ required: true, min: 0 }) subtotalSantim!: number;
  @Prop({ required: true, min: 0 }) shippingCostSantim!: number;
  @Prop({ required: true, min: 0 }) taxSantim!: number;
  @Prop({ required: true, min: 0 }) totalAmountSantim!: number;
  /** The shop's pricesIncludeTax setting when the order was placed (tax contained, not added). */
  @Prop() pricesIncludeTax?: boolean;
  /** The coupon code the order redeemed and its discount (docs/decisions/0096-coupon-codes.md). */
  @Prop() couponCode?: string;
  @Prop({ min: 0 }) discountSantim?: number;
  /** Whose per-customer use of the coupon it took (`user:<id>` or `phone:<E.164>`), given back on cancel. */
  @Prop() couponHolder?: string;
  /**
   * The language of the customer's messages about this order: the account's when it chose one, else
   * the page's the order was placed from (docs/decisions/0077-links-and-message-language.md).
   */
  @Prop({ enum: ['en', 'am'] }) language?: string;

  @Prop({ enum: ['ETB'], default: 'ETB' })
  currency!: string;

  @Prop({ required: true, enum: ORDER_STATUSES, default: 'pending' })
  status!: string;

  @Prop({ required: true, enum: PAYMENT_STATUSES, default: 'unpaid' })
  paymentStatus!: string;

  @Prop() paidAt?: Date;
  @Prop() paymentReference?: string;
  @Prop() trackingNumber?: string;

  @Prop({ type: [StatusChangeSchema], default: [] })
  statusHistory!: StatusChange[];

  /** The sum of `refunds`, kept with them in one update so a refund is checked against it atomically. */
  @Prop({ min: 0 }) refundedSantim?: number;
  @Prop({ type: [RefundSchema], default: undefined }) refunds?: Refund[];
  /** Staff-only notes (never shown to customers). */
  @Prop({ type: [OrderNoteSchema], default: undefined }) notes?: OrderNote[];

  /**
   * The Idempotency-Key the order was placed under: as sent for an account's order (unique per
   * user); `guest:<cart id>:<key>` for a guest's, so that a guest's key is scoped by its cart and the
   * same unique index (user absent) holds it.
   */
  @Prop() idempotencyKey?: string;
  /** Hash of the request that made the order under its key: a reuse with another request is refused. */
  @Prop() idempotencyFingerprint?: string;

  createdAt!: Date;
  updatedAt!: Date;
}

export const OrderSchema = SchemaFactory.createForClass(Order);
OrderSchema.index({ user: 1, createdAt: -1 });
OrderSchema.index({ status: 1, createdAt: -1 });
OrderSchema.index({ createdAt: -1 });
OrderSchema.index({ paymentReference: 1 }, { unique: true, sparse: true });
OrderSchema.index({ orderNumber: 1 }, { unique: true, sparse: true });
OrderSchema.index(
  { user: 1, idempotencyKey: 1 },
  { unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } },
);
