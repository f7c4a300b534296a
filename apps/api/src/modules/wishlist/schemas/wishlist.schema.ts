import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

/** A wished product with the customer's notification preferences; the item's `_id` is its id. */
@Schema()
export class WishlistItem {
  _id!: Types.ObjectId;

  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'Product', required: true })
  product!: Types.ObjectId;

  @Prop({ default: false }) notifyOnSale!: boolean;
  @Prop({ default: false }) notifyOnStock!: boolean;

  /** Price and stock when added, so a later job can tell a real price drop or restock. */
  @Prop({ required: true, min: 0 }) priceAtAddSantim!: number;
  @Prop({ min: 0 }) stockAtAdd?: number;

  @Prop({ default: () => new Date() }) addedAt!: Date;
}
export const WishlistItemSchema = SchemaFactory.createForClass(WishlistItem);

/** One wishlist per user, changed only with atomic operators. */
@Schema({ timestamps: true, collection: 'wishlists' })
export class Wishlist {
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User', required: true })
  user!: Types.ObjectId;

  @Prop({ type: [WishlistItemSchema], default: [] })
  items!: WishlistItem[];

  createdAt!: Date;
  updatedAt!: Date;
}

export const WishlistSchema = SchemaFactory.createForClass(Wishlist);
WishlistSchema.index({ user: 1 }, { unique: true });
// Who to notify when a product goes on sale or comes back in stock.
WishlistSchema.index({ 'items.product': 1, 'items.notifyOnSale': 1 });
WishlistSchema.index({ 'items.product': 1, 'items.notifyOnStock': 1 });
