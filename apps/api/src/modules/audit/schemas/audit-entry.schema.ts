import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SchemaTypes, Types } from 'mongoose';

export const AUDIT_ENTITIES = ['order', 'user', 'product', 'settings', 'contact', 'report'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** One recorded change: who changed which field of which record, from what to what, and when. */
@Schema({ collection: 'audit_log', timestamps: { createdAt: true, updatedAt: false } })
export class AuditEntry {
  @Prop({ type: SchemaTypes.ObjectId, ref: 'User' }) actor?: Types.ObjectId;
  @Prop() actorEmail?: string;
  /** The admin's name when the change was made (the audit log shows it). */
  @Prop() actorName?: string;
  /** What made a change without a signed-in actor: 'webhook' (Chapa), 'reverify' (payment re-check), 'verify', 'test'. */
  @Prop() source?: string;
  @Prop({ required: true, enum: AUDIT_ENTITIES }) entity!: string;
  @Prop({ required: true }) entityId!: string;
  /** e.g. 'order.status', 'user.role', 'user.active', 'product.price', 'product.stock'. */
  @Prop({ required: true }) action!: string;
  @Prop({ type: Object }) from?: unknown;
  @Prop({ type: Object }) to?: unknown;
  createdAt!: Date;
}

export const AuditEntrySchema = SchemaFactory.createForClass(AuditEntry);
AuditEntrySchema.index({ createdAt: -1 });
AuditEntrySchema.index({ entity: 1, entityId: 1, createdAt: -1 });
