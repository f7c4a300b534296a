import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

export const COUPON_KINDS = ['percent', 'fixed', 'freeShipping'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/**
 * A coupon code (docs/decisions/0096-coupon-codes.md). `code` is stored upper-case (unique), so a
 * lookup of the upper-cased text is case-insensitive. `uses` only moves inside an order's
 * transaction, conditionally (`uses < usageLimit`), and back once when an order is cancelled.
 */
@Schema({ timestamps: true, collection: 'coupons' })
export class Coupon {
  @Prop({ required: true }) code!: string;
  @Prop({ type: String, required: true, enum: COUPON_KINDS }) kind!: CouponKind;
  /** percent: 1..100; fixed: santim; freeShipping: 0. */
  @Prop({ required: true, min: 0, default: 0 }) value!: number;
  @Prop({ min: 0, default: 0 }) minSubtotalSantim!: number;
  @Prop() startsAt?: Date;
  @Prop() endsAt?: Date;
  /** Orders that may carry the code in all (none: no limit). */
  @Prop({ min: 1 }) usageLimit?: number;
  /** Orders one customer (an account, or a phone) may place with it (none: no limit). */
  @Prop({ min: 1 }) perCustomerLimit?: number;
  @Prop({ default: true }) active!: boolean;
  @Prop({ min: 0, default: 0 }) uses!: number;

  createdAt!: Date;
  updatedAt!: Date;
}
export const CouponSchema = SchemaFactory.createForClass(Coupon);
CouponSchema.index({ code: 1 }, { unique: true });

/** How many live orders one customer holds of one coupon (`holder`: `user:<id>` or `phone:<E.164>`). */
@Schema({ collection: 'couponuses' })
export class CouponUse {
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'Coupon', required: true }) coupon!: Types.ObjectId;
  @Prop({ required: true }) holder!: string;
  @Prop({ required: true, min: 0, default: 0 }) uses!: number;
}
export const CouponUseSchema = SchemaFactory.createForClass(CouponUse);
CouponUseSchema.index({ coupon: 1, holder: 1 }, { unique: true });
