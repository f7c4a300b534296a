import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Phone sign-in codes, one document per phone number (docs/decisions/0064-phone-sign-in.md): the
 * latest code (only its HMAC), its expiry, tries and use, and when the last codes were sent (the
 * hourly limit is checked and counted in the same update that stores a new code).
 */
@Schema({ timestamps: true, collection: 'phone_sign_in_codes' })
export class PhoneSignIn {
  /** E.164 (+2519..., +2517...). */
  @Prop({ required: true }) phone!: string;
  /** When the last codes (at most three) were sent, oldest first. */
  @Prop({ type: [Date], default: [] }) sent!: Date[];
  /** The current code's request: the outbox message's key and part of its HMAC. */
  @Prop() requestId?: string;
  @Prop() codeHash?: string;
  @Prop() expiresAt?: Date;
  /** Tries of the current code, right or wrong; at the limit it is dead. */
  @Prop({ default: 0 }) tries!: number;
  @Prop() usedAt?: Date;
  /** The language asked for with the code: a new account starts with it. */
  @Prop({ enum: ['en', 'am'] }) language?: string;
  createdAt!: Date;
  updatedAt!: Date;
}

export const PhoneSignInSchema = SchemaFactory.createForClass(PhoneSignIn);
PhoneSignInSchema.index({ phone: 1 }, { unique: true });
