import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

/** One 6-digit code sent to prove an account's phone: only its HMAC is kept, for the number it went to. */
@Schema({ timestamps: { createdAt: true, updatedAt: false }, collection: 'phone_verifications' })
export class PhoneVerification {
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'User', required: true }) user!: Types.ObjectId;
  /** The E.164 number the code went to: a code proves this number only. */
  @Prop({ required: true }) phone!: string;
  @Prop({ required: true }) codeHash!: string;
  @Prop({ required: true }) expiresAt!: Date;
  @Prop() usedAt?: Date;
  @Prop({ default: 0 }) failedAttempts!: number;
  createdAt!: Date;
}

export const PhoneVerificationSchema = SchemaFactory.createForClass(PhoneVerification);
PhoneVerificationSchema.index({ user: 1, createdAt: -1 });
