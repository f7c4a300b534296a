import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

/** One password reset request: only a hash of its link token or SMS code is kept. */
@Schema({ timestamps: { createdAt: true, updatedAt: false }, collection: 'password_resets' })
export class PasswordReset {
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User', required: true }) user!: Types.ObjectId;
  @Prop({ type: String, required: true, enum: ['email', 'sms'] }) channel!: 'email' | 'sms';
  /** sha256 of the link token (email) or HMAC of the 6-digit code (sms). */
  @Prop({ required: true }) secretHash!: string;
  @Prop({ required: true }) expiresAt!: Date;
  @Prop() usedAt?: Date;
  /** Wrong codes tried against this request; at the limit it is spent. */
  @Prop({ default: 0 }) failedAttempts!: number;
  @Prop() ip?: string;
  createdAt!: Date;
}

export const PasswordResetSchema = SchemaFactory.createForClass(PasswordReset);
PasswordResetSchema.index({ secretHash: 1 });
PasswordResetSchema.index({ user: 1, createdAt: -1 });
