import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

import { CONTACT_STATUSES, type ContactStatus } from '@shop/shared';

export { CONTACT_STATUSES, type ContactStatus };

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

/** A message sent through the Contact page, read and answered from the back office. */
@Schema({ timestamps: true, collection: 'contacts' })
export class Contact {
  @Prop({ required: true, trim: true, maxlength: CONTACT_LIMITS.name }) name!: string;
  @Prop({ required: true, trim: true, lowercase: true, maxlength: CONTACT_LIMITS.email }) email!: string;
  @Prop({ required: true, trim: true, maxlength: CONTACT_LIMITS.subject }) subject!: string;
  @Prop({ required: true, trim: true, maxlength: CONTACT_LIMITS.message }) message!: string;
  @Prop({ type: String, required: true, enum: CONTACT_STATUSES, default: 'unread' }) status!: ContactStatus;
  /** The sender's address as the API saw it (behind a trusted proxy: the forwarded client). */
  @Prop() ipAddress?: string;
  @Prop({ maxlength: 500 }) userAgent?: string;
  createdAt!: Date;
  updatedAt!: Date;
}

export const ContactSchema = SchemaFactory.createForClass(Contact);
ContactSchema.index({ createdAt: -1 });
ContactSchema.index({ status: 1, createdAt: -1 });
