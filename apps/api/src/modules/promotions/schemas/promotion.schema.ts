import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export const PROMOTION_KINDS = ['percent', 'fixed'] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

/**
 * A scheduled sale (docs/decisions/0095): a percentage or a fixed amount (santim) off the regular
 * price of the targeted products (by id) and categories (by slug), from `startsAt` to `endsAt`
 * (instants, stored UTC; staff enter them in the shop's time zone), while `active`.
 */
@Schema({ timestamps: true, collection: 'promotions' })
export class Promotion {
  @Prop({ required: true, trim: true, maxlength: 120 }) nameEn!: string;
  @Prop({ required: true, trim: true, maxlength: 120 }) nameAm!: string;
  @Prop({ type: String, required: true, enum: PROMOTION_KINDS }) kind!: PromotionKind;
  /** percent: 1..100; fixed: santim. */
  @Prop({ required: true, min: 1 }) value!: number;
  @Prop({ type: [String], default: [] }) productIds!: string[];
  @Prop({ type: [String], default: [] }) categories!: string[];
  @Prop({ required: true }) startsAt!: Date;
  @Prop({ required: true }) endsAt!: Date;
  @Prop({ default: true }) active!: boolean;

  createdAt!: Date;
  updatedAt!: Date;
}
export const PromotionSchema = SchemaFactory.createForClass(Promotion);
PromotionSchema.index({ endsAt: 1 });
