import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

/**
 * A short-lived claim on an Idempotency-Key while its order is being placed: a concurrent retry
 * with the same key waits for the first request's order instead of racing it for the cart and stock.
 */
@Schema({ collection: 'order_requests' })
export class OrderRequest {
  /** The account whose request it is; absent for a guest's (its key then names the guest cart). */
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User' }) user?: Types.ObjectId;
  @Prop({ required: true }) idempotencyKey!: string;
  @Prop({ required: true, default: () => new Date() }) createdAt!: Date;
  /** The claim's lease: its holder renews it while it places the order; past it, a retry takes the claim over. */
  @Prop() heldUntil?: Date;
}

export const OrderRequestSchema = SchemaFactory.createForClass(OrderRequest);
OrderRequestSchema.index({ user: 1, idempotencyKey: 1 }, { unique: true });
OrderRequestSchema.index({ createdAt: 1 }, { expireAfterSeconds: 3600 });
