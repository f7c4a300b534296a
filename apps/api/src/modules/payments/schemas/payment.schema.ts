import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SchemaTypes, Types } from 'mongoose';

export const PAYMENT_PROVIDERS = ['chapa', 'test'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_RECORD_STATUSES = ['initialized', 'success', 'failed'] as const;
export type PaymentRecordStatus = (typeof PAYMENT_RECORD_STATUSES)[number];

export const PAYMENT_EVENT_SOURCES = ['initialize', 'verify', 'webhook', 'reverify', 'test'] as const;

/** One thing that happened to a transaction: who asked, what the provider said, what we did. */
@Schema({ _id: false })
export class PaymentEvent {
  @Prop({ type: String, required: true, enum: PAYMENT_EVENT_SOURCES }) source!: string;
  @Prop({ required: true, default: () => new Date() }) at!: Date;
  /** The provider's answer: success, failed, pending, unreachable... */
  @Prop() providerStatus?: string;
  /** True when this event settled the payment (exactly one event ever does). */
  @Prop({ default: false }) processed!: boolean;
  @Prop() note?: string;
}
export const PaymentEventSchema = SchemaFactory.createForClass(PaymentEvent);

/**
 * A transaction with the payment provider for one order. The server makes `txRef`; an order may have
 * several over time (a failed attempt, then a new one), the latest is on the order's paymentReference.
 */
@Schema({ timestamps: true, collection: 'payments' })
export class Payment {
  @Prop({ required: true }) txRef!: string;
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Order', required: true }) order!: Types.ObjectId;
  /** The order's account; absent for a guest's order (docs/decisions/0062-guest-checkout-and-order-lookup.md). */
  @Prop({ type: SchemaTypes.ObjectId, ref: 'User' }) user?: Types.ObjectId;
  @Prop({ type: String, required: true, enum: PAYMENT_PROVIDERS }) provider!: PaymentProviderName;
  /** Copied from the stored order when the transaction was made; what the provider must confirm. */
  @Prop({ required: true, min: 0 }) amountSantim!: number;
  @Prop({ required: true, default: 'ETB' }) currency!: string;
  @Prop({ type: String, required: true, enum: PAYMENT_RECORD_STATUSES, default: 'initialized' })
  status!: PaymentRecordStatus;
  /** Why a payment failed on our side (amount_mismatch, currency_mismatch, declined, initialize_failed). */
  @Prop() failureReason?: string;
  /** The provider's own reference for the charge, once known. */
  @Prop() providerReference?: string;
  @Prop() settledAt?: Date;
  /** The money arrived but the order could not take it (cancelled meanwhile, or paid by another transaction). */
  @Prop({ default: false }) refundRequired!: boolean;
  /** Test provider only: the outcome the customer chose on the test checkout page. */
  @Prop({ type: String, enum: ['success', 'failed'] }) testOutcome?: 'success' | 'failed';
  @Prop() lastCheckedAt?: Date;
  @Prop({ type: [PaymentEventSchema], default: [] }) events!: PaymentEvent[];
  createdAt!: Date;
  updatedAt!: Date;
}

export const PaymentSchema = SchemaFactory.createForClass(Payment);
PaymentSchema.index({ txRef: 1 }, { unique: true });
PaymentSchema.index({ order: 1, createdAt: -1 });
PaymentSchema.index({ status: 1, createdAt: 1 });
