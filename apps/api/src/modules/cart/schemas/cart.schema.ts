import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

@Schema({ _id: false })
export class CartItem {
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'Product', required: true })
  product!: Types.ObjectId;

  /** The product's variant (docs/decisions/0098-product-variants.md); none for a product without variants. */
  @Prop({ type: MongooseSchema.Types.ObjectId })
  variant?: Types.ObjectId;

  @Prop({ required: true, min: 1 })
  quantity!: number;

  @Prop({ default: () => new Date() })
  addedAt!: Date;

  /** When the line last said its sale ended (docs/decisions/0095): each end is told once. */
  @Prop()
  repricedAt?: Date;
}
export const CartItemSchema = SchemaFactory.createForClass(CartItem);

/** One cart per user, changed only with atomic operators. Prices are never stored: they are read live. */
@Schema({ timestamps: true, collection: 'carts' })
export class Cart {
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User', required: true })
  user!: Types.ObjectId;

  @Prop({ type: [CartItemSchema], default: [] })
  items!: CartItem[];

  /** The coupon code applied (upper-case; docs/decisions/0096-coupon-codes.md). */
  @Prop() couponCode?: string;

  createdAt!: Date;
  updatedAt!: Date;
}

export const CartSchema = SchemaFactory.createForClass(Cart);
CartSchema.index({ user: 1 }, { unique: true });
CartSchema.index({ 'items.product': 1 });

/** Days a guest cart lives after its last change (a TTL index removes it afterwards). */
export const GUEST_CART_TTL_DAYS = 30;

/**
 * A visitor's cart, held by an unguessable id (128 random bits, 32 hex characters) that the client
 * keeps (the storefront in an httpOnly cookie). It expires GUEST_CART_TTL_DAYS after its last change;
 * signing in merges it into the account's cart and deletes it.
 */
@Schema({ timestamps: true, collection: 'guestcarts' })
export class GuestCart {
  @Prop({ required: true }) guestId!: string;

  @Prop({ type: [CartItemSchema], default: [] })
  items!: CartItem[];

  /** The coupon code applied (upper-case; docs/decisions/0096-coupon-codes.md). */
  @Prop() couponCode?: string;

  @Prop({ required: true }) expiresAt!: Date;

  createdAt!: Date;
  updatedAt!: Date;
}
export const GuestCartSchema = SchemaFactory.createForClass(GuestCart);
GuestCartSchema.index({ guestId: 1 }, { unique: true });
GuestCartSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
