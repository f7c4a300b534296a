import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

import { CONTACT_STATUSES, SETTINGS_LANGUAGES, type ContactStatus } from '@shop/shared';
import { SchemaTypes, Types } from 'mongoose';

export { CONTACT_STATUSES, type ContactStatus };

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000, reply: 5000 } as const;

/** Replies kept on one message (a thread is a conversation, not a mailbox). */
export const CONTACT_MAX_REPLIES = 50;

/** A staff reply to a contact message, sent by email (docs/decisions/0081-replies-shop-clock-reports.md). */
@Schema({ _id: true, timestamps: false })
export class ContactReply {
  @Prop({ required: true, maxlength: CONTACT_LIMITS.reply }) text!: string;
  @Prop({ type: SchemaTypes.ObjectId, ref: 'User', required: true }) author!: Types.ObjectId;
  /** The author's name when the reply was sent (the thread shows it). */
  @Prop({ required: true }) authorName!: string;
  /** The language the email went out in. */
  @Prop({ type: String, enum: SETTINGS_LANGUAGES, required: true }) language!: string;
  @Prop({ required: true }) at!: Date;
}
export const ContactReplySchema = SchemaFactory.createForClass(ContactReply);

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
  /** The page language the message was written in; absent on older messages (then the shop's). */
  @Prop({ type: String, enum: SETTINGS_LANGUAGES }) language?: string;
  /** Staff replies, oldest first. */
  @Prop({ type: [ContactReplySchema], default: [] }) replies!: ContactReply[];
  createdAt!: Date;
  updatedAt!: Date;
}

export const ContactSchema = SchemaFactory.createForClass(Contact);
ContactSchema.index({ createdAt: -1 });
ContactSchema.index({ status: 1, createdAt: -1 });
