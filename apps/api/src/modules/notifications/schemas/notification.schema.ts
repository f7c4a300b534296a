import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export const NOTIFICATION_CHANNELS = ['email', 'sms'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
/** pending -> sending (leased by one worker) -> sent | pending again (retry) | failed (attempts used up). */
export const NOTIFICATION_STATES = ['pending', 'sending', 'sent', 'failed'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/**
 * One message of the outbox. It is written in the same transaction as the change that causes it and
 * delivered later by the worker; `eventKey` is unique, so an event makes its message exactly once.
 */
@Schema({ timestamps: true, collection: 'notifications' })
export class Notification {
  /** What caused the message and for whom, e.g. `order.placed:<orderId>:customer`. */
  @Prop({ required: true }) eventKey!: string;
  @Prop({ type: String, required: true, enum: NOTIFICATION_CHANNELS }) channel!: NotificationChannel;
  /** Email address or E.164 phone number. */
  @Prop({ required: true }) to!: string;
  @Prop({ required: true }) template!: string;
  @Prop({ required: true, enum: ['en', 'am'] }) language!: string;
  @Prop({ default: '' }) subject!: string;
  @Prop({ required: true }) text!: string;
  @Prop() html?: string;
  /** Holds a secret (a password reset link or code): its content is wiped once sent and never shown to staff. */
  @Prop({ default: false }) sensitive!: boolean;
  @Prop({ type: String, required: true, enum: NOTIFICATION_STATES, default: 'pending' })
  state!: NotificationState;
  @Prop({ default: 0 }) attempts!: number;
  @Prop({ required: true, default: () => new Date() }) nextAttemptAt!: Date;
  /** While `sending`: until when the worker that claimed it owns it; after that another may take it over. */
  @Prop() leaseUntil?: Date;
  @Prop() leaseOwner?: string;
  @Prop() lastError?: string;
  @Prop() sentAt?: Date;
  /** The transport's id of the delivered message (SMTP Message-ID, SMS gateway message id). */
  @Prop() providerMessageId?: string;
  createdAt!: Date;
  updatedAt!: Date;
}

export const NotificationSchema = SchemaFactory.createForClass(Notification);
NotificationSchema.index({ eventKey: 1 }, { unique: true });
// the worker's claim: due pending messages, and sending ones whose lease ran out
NotificationSchema.index({ state: 1, nextAttemptAt: 1 });
NotificationSchema.index({ createdAt: -1 });
