import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ROLES } from '@shop/shared';

@Schema({ _id: false })
export class Address {
  @Prop({ required: true })
  id!: number;

  @Prop({ required: true, trim: true }) street!: string;
  @Prop({ required: true, trim: true }) city!: string;
  @Prop({ required: true, trim: true }) state!: string;
  @Prop({ trim: true }) zipCode?: string;
  @Prop({ required: true, trim: true, default: 'Ethiopia' }) country!: string;
  @Prop({ trim: true }) phone?: string;
  @Prop({ trim: true }) landmark?: string;
  @Prop({ default: false }) isDefault!: boolean;
}
export const AddressSchema = SchemaFactory.createForClass(Address);

@Schema({ timestamps: true, collection: 'users' })
export class User {
  /** '' for an account made by phone sign-in until its owner gives a name (docs/decisions/0064-phone-sign-in.md). */
  @Prop({ trim: true, maxlength: 100, default: '' })
  name!: string;

  /**
   * Stored lower-cased; unique when present. Absent for an account made by phone sign-in
   * (docs/decisions/0064-phone-sign-in.md): never stored as null or '', so the sparse unique index skips it.
   */
  @Prop({ trim: true, lowercase: true, maxlength: 254 })
  email?: string;

  @Prop({ trim: true })
  phone?: string;

  /** Absent for an account made by phone sign-in: no password sign-in until one is set. */
  @Prop({ select: false })
  passwordHash?: string;

  @Prop({ required: true, enum: ROLES, default: 'customer' })
  role!: string;

  @Prop({ default: true })
  isActive!: boolean;

  /** When the phone above was proven with an SMS code; unset when the number changes. */
  @Prop()
  phoneVerifiedAt?: Date;

  /** The language the customer reads messages in; unset means the shop's language (settings). */
  @Prop({ enum: ['en', 'am'] })
  language?: string;

  @Prop({ type: [AddressSchema], default: [] })
  addresses!: Address[];

  /** Last numeric address id handed out; ids are never reused within a user. */
  @Prop({ default: 0, select: false })
  addressSeq!: number;

  /**
   * Bumped by a password change or reset, "log out everywhere", a deactivation and a role change: tokens
   * carry the version they were issued with and die when it moves on (common/auth/session.ts).
   */
  @Prop({ default: 0, min: 0 })
  tokenVersion!: number;

  /** Ids of tokens ended by a plain logout, until the token would have expired anyway. */
  @Prop({
    type: [{ _id: false, jti: { type: String, required: true }, expiresAt: { type: Date, required: true } }],
    default: [],
    select: false,
  })
  revokedTokens!: { jti: string; expiresAt: Date }[];

  createdAt!: Date;
  updatedAt!: Date;
}

export const UserSchema = SchemaFactory.createForClass(User);
/**
 * The email index, unique when present: sparse, so accounts without an email are not indexed (a
 * partial index would do the same on mongod, but the embedded engine's planner never uses a partial
 * index for a lookup). Not declared on the schema: UserIndexes makes it at start-up, after dropping
 * the old `email_1` (unique over every account, where a second account without email collides).
 */
export const EMAIL_INDEX = {
  key: { email: 1 },
  options: { unique: true, sparse: true, name: 'email_unique_when_present' },
} as const;
/** Phone sign-in finds the account by its verified phone. */
UserSchema.index({ phone: 1 });
UserSchema.index({ role: 1, createdAt: -1 });
