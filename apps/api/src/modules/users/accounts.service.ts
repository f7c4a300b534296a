import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { FilterQuery, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { Changes } from '../../common/changes';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
} from '../../common/errors/domain-error';
import { findPage, type ListQuery } from '../../common/list-query';
import { conflictOnDuplicate, escapeRegex, parseObjectId } from '../../common/mongo';
import { AuditService } from '../audit/audit.service';
import type { UpdateProfileDto } from './dto/profile.dto';
import { User } from './schemas/user.schema';
import {
  asRole,
  DUPLICATE_EMAIL,
  ethiopianPhone,
  requireText,
  toAddressView,
  toUserView,
  type Role,
} from './user.view';

export const USER_NOT_FOUND = 'User not found';

/** The users screen's filter: text over name and email (literal), roles, the active flag. */
export interface UserListFilter {
  q?: string;
  roles?: readonly Role[];
  isActive?: boolean;
}

const RECORD_CHANGED = 'The user changed meanwhile; please try again';
const unknownAccount = () =>
  new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');

/**
 * Accounts: creating them, one's own profile, the back office's users screen (with the self and
 * last-admin protections) and the account lookups other modules need (never the model). A write that
 * changes what a signed-in user is (name, email, phone, language, role, active flag, deletion) says
 * so as an `account` change with the user's id.
 */
@Injectable()
export class AccountsService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly audit: AuditService,
    private readonly changes: Changes,
  ) {}

  /** Registration and the back office's "Add User": 409 when the email is taken (the unique index decides races). */
  async assertEmailFree(email: string): Promise<void> {
    if (await this.users.exists({ email })) throw new ConflictError(DUPLICATE_EMAIL, 'DUPLICATE_EMAIL');
  }

  /** Creates an account; one made by staff (`actor`) is audited. */
  async createAccount(
    account: {
      name: string;
      email?: string;
      phone?: string;
      phoneVerifiedAt?: Date;
      passwordHash?: string;
      role: Role;
      language?: 'en' | 'am';
    },
    actor?: AuthUser,
  ) {
    const user = await conflictOnDuplicate(
      this.users.create({ ...account, isActive: true }),
      DUPLICATE_EMAIL,
      'DUPLICATE_EMAIL',
    );
    const view = toUserView(user.toObject());
    if (actor) {
      await this.audit.record(actor, {
        entity: 'user',
        entityId: view._id,
        action: 'user.create',
        to: { email: view.email, role: view.role },
      });
    }
    return view;
  }

  // ---- The back office: its list and the self and last-admin protections ----
  // (docs/decisions/0021-accounts-and-profiles.md)

  /** The users screen's list, newest first unless sorted otherwise. */
  listForAdmin(query: ListQuery<UserListFilter>) {
    const { q, roles, isActive } = query.filter;
    const where: FilterQuery<User> = {};
    if (q) {
      const pattern = new RegExp(escapeRegex(q), 'i');
      // accounts made by phone sign-in have no email: their phone finds them
      where.$or = [{ name: pattern }, { email: pattern }, { phone: pattern }];
    }
    if (roles) where.role = { $in: [...new Set(roles)] };
    if (isActive !== undefined) where.isActive = isActive;
    return findPage(this.users, where, query, (docs) => docs.map(toUserView));
  }

  async anyUser(id: string) {
    return toUserView(await this.find(id));
  }

  /**
   * The users screen's edit (`PUT /api/admin/users/{id}`): name, email, role, active, with the guards
   * of changeRole and setActive (not your own role or account, never the last active admin) and one
   * audit entry. One conditional update: a concurrent change to the same user is a 409, not a lost update.
   */
  async updateAccount(
    id: string,
    input: { name?: string; email?: string; role?: string; isActive?: boolean },
    actor: AuthUser,
  ) {
    const user = await this.find(id);
    const next = {
      name: input.name?.trim() || user.name,
      email: input.email?.trim().toLowerCase() ?? user.email,
      role: input.role === undefined ? user.role : asRole(input.role),
      isActive: input.isActive ?? user.isActive,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== user[k]);
    if (!changed.length) return toUserView(user);
    const self = String(user._id) === actor.id;
    if (self && next.role !== user.role)
      throw new ConflictError('You cannot change your own role', 'OWN_ROLE');
    if (self && !next.isActive)
      throw new ConflictError('You cannot deactivate your own account', 'OWN_ACCOUNT_DEACTIVATE');
    if (user.role === 'admin' && user.isActive && (next.role !== 'admin' || !next.isActive))
      await this.keepAnotherActiveAdmin(
        user._id,
        next.role !== 'admin'
          ? 'The last active admin cannot be demoted'
          : 'The last active admin cannot be deactivated',
      );
    if (next.email !== user.email && (await this.users.exists({ email: next.email, _id: { $ne: user._id } })))
      throw new ConflictError(DUPLICATE_EMAIL, 'DUPLICATE_EMAIL');
    const set = Object.fromEntries(changed.map((k) => [k, next[k]]));
    const updated = await conflictOnDuplicate(
      this.users
        .findOneAndUpdate(
          {
            _id: user._id,
            email: user.email ?? { $exists: false },
            role: user.role,
            isActive: user.isActive,
          },
          { $set: set },
          { new: true },
        )
        .lean()
        .exec(),
      DUPLICATE_EMAIL,
      'DUPLICATE_EMAIL',
    );
    if (!updated) throw new ConflictError(RECORD_CHANGED, 'RECORD_CHANGED');
    this.accountChanged(user._id);
    await this.audit.record(actor, {
      entity: 'user',
      entityId: String(user._id),
      action: 'user.update',
      from: Object.fromEntries(changed.map((k) => [k, user[k]])),
      to: set,
    });
    return toUserView(updated);
  }

  async changeRole(id: string, roleInput: string, actor: AuthUser) {
    const role = asRole(roleInput);
    const user = await this.find(id);
    if (user.role === role) return toUserView(user);
    if (String(user._id) === actor.id) throw new ConflictError('You cannot change your own role', 'OWN_ROLE');
    if (user.role === 'admin' && user.isActive)
      await this.keepAnotherActiveAdmin(user._id, 'The last active admin cannot be demoted');
    const updated = await this.users
      // a role change ends the user's sessions: no token outlives the role it was issued under
      .findOneAndUpdate(
        { _id: user._id, role: user.role },
        { $set: { role }, $inc: { tokenVersion: 1 } },
        { new: true },
      )
      .lean()
      .exec();
    if (!updated) throw new ConflictError(RECORD_CHANGED, 'RECORD_CHANGED');
    this.accountChanged(user._id);
    await this.audit.record(actor, {
      entity: 'user',
      entityId: String(user._id),
      action: 'user.role',
      from: user.role,
      to: role,
    });
    return toUserView(updated);
  }

  async setActive(id: string, isActive: boolean, actor: AuthUser) {
    const user = await this.find(id);
    if (user.isActive === isActive) return toUserView(user);
    if (String(user._id) === actor.id)
      throw new ConflictError('You cannot deactivate your own account', 'OWN_ACCOUNT_DEACTIVATE');
    if (!isActive && user.role === 'admin')
      await this.keepAnotherActiveAdmin(user._id, 'The last active admin cannot be deactivated');
    const updated = await this.users
      // deactivating ends every session for good: reactivating does not revive old tokens
      .findOneAndUpdate(
        { _id: user._id, isActive: user.isActive },
        { $set: { isActive }, ...(isActive ? {} : { $inc: { tokenVersion: 1 } }) },
        { new: true },
      )
      .lean()
      .exec();
    if (!updated) throw new ConflictError(RECORD_CHANGED, 'RECORD_CHANGED');
    this.accountChanged(user._id);
    await this.audit.record(actor, {
      entity: 'user',
      entityId: String(user._id),
      action: 'user.active',
      from: user.isActive,
      to: isActive,
    });
    return toUserView(updated);
  }

  /** Removes the account; orders keep the customer's name and email as they were at order time. */
  async removeAccount(id: string, actor: AuthUser) {
    const user = await this.find(id);
    if (String(user._id) === actor.id)
      throw new ConflictError('You cannot delete your own account', 'OWN_ACCOUNT_DELETE');
    if (user.role === 'admin' && user.isActive)
      await this.keepAnotherActiveAdmin(user._id, 'The last active admin cannot be deleted');
    const deleted = await this.users.findByIdAndDelete(user._id).lean().exec();
    if (!deleted) throw new NotFoundError(USER_NOT_FOUND, 'USER_NOT_FOUND');
    this.accountChanged(user._id);
    await this.audit.record(actor, {
      entity: 'user',
      entityId: String(user._id),
      action: 'user.delete',
      from: { email: user.email, role: user.role },
    });
    return String(user._id);
  }

  private async find(id: string) {
    const user = await this.users
      .findById(parseObjectId(id, USER_NOT_FOUND, 'USER_NOT_FOUND'))
      .lean()
      .exec();
    if (!user) throw new NotFoundError(USER_NOT_FOUND, 'USER_NOT_FOUND');
    return user;
  }

  /** The shop must always keep one active admin besides the one being removed, demoted or deactivated. */
  private async keepAnotherActiveAdmin(except: unknown, message: string) {
    const others = await this.users
      .countDocuments({ _id: { $ne: except }, role: 'admin', isActive: true })
      .exec();
    if (others === 0) throw new ConflictError(message, 'LAST_ADMIN');
  }

  // ---- Lookups for other modules ----

  /** An account by email (any case), or null; `activeOnly` leaves deactivated accounts out. */
  findByEmail(email: string, options: { activeOnly?: boolean } = {}) {
    return this.users
      .findOne({ email: email.trim().toLowerCase(), ...(options.activeOnly ? { isActive: true } : {}) })
      .lean()
      .exec();
  }

  /** `GET /api/auth/me`: the account as every answer shows it. */
  async me(userId: string) {
    return toUserView(await this.load(userId));
  }

  /** Names (and emails) of accounts, for pages that list what customers wrote; deleted ones are absent. */
  async namesByIds(ids: readonly (Types.ObjectId | string)[]) {
    const users = await this.byIds(ids, {}, { name: 1, email: 1 });
    return new Map(users.map((u) => [String(u._id), { name: u.name, email: u.email }]));
  }

  /** Who may receive a customer message (notifications): active accounts only, with their language. */
  async recipientsByIds(ids: readonly (Types.ObjectId | string)[]) {
    const users = await this.byIds(ids, { isActive: { $ne: false } }, { name: 1, email: 1, language: 1 });
    return new Map(
      users.map((u) => [String(u._id), { name: u.name, email: u.email, language: u.language ?? undefined }]),
    );
  }

  private async byIds(
    ids: readonly (Types.ObjectId | string)[],
    where: FilterQuery<User>,
    projection: Record<string, 1>,
  ) {
    const valid = ids
      .filter((id) => Types.ObjectId.isValid(String(id)))
      .map((id) => new Types.ObjectId(String(id)));
    if (!valid.length) return [];
    return this.users
      .find({ _id: { $in: valid }, ...where }, projection)
      .lean()
      .exec();
  }

  /** The account's phone, whether it is verified, and its language (phone verification). */
  async phoneOf(userId: string): Promise<{ phone?: string; phoneVerified: boolean; language?: string }> {
    const user = await this.load(userId);
    return {
      phone: user.phone || undefined,
      phoneVerified: Boolean(user.phone && user.phoneVerifiedAt),
      language: user.language ?? undefined,
    };
  }

  /**
   * Marks the phone verified if it is still `phone` (not changed meanwhile); answers whether it did.
   * The latest proof wins: another account that had this number verified loses that (numbers change
   * hands), so phone sign-in finds one account (docs/decisions/0064-phone-sign-in.md).
   */
  async markPhoneVerified(userId: string, phone: string): Promise<boolean> {
    const id = new Types.ObjectId(userId);
    const res = await this.users
      .updateOne({ _id: id, phone }, { $set: { phoneVerifiedAt: new Date() } })
      .exec();
    if (!res.matchedCount) return false;
    await this.forgetPhoneElsewhere(id, phone);
    this.accountChanged(id);
    return true;
  }

  private async forgetPhoneElsewhere(keeper: Types.ObjectId, phone: string): Promise<void> {
    const others = await this.users
      .find({ _id: { $ne: keeper }, phone, phoneVerifiedAt: { $exists: true } }, { _id: 1 })
      .lean()
      .exec();
    if (!others.length) return;
    await this.users
      .updateMany({ _id: { $in: others.map((o) => o._id) }, phone }, { $unset: { phoneVerifiedAt: 1 } })
      .exec();
    for (const other of others) this.accountChanged(other._id);
  }

  // ---- Phone sign-in (docs/decisions/0064-phone-sign-in.md) ----

  /** The account whose verified phone is `phone` (E.164), or null; with its password hash left out. */
  findByVerifiedPhone(phone: string) {
    return this.users
      .findOne({ phone, phoneVerifiedAt: { $exists: true } })
      .sort({ phoneVerifiedAt: -1 })
      .lean()
      .exec();
  }

  /** A customer account for a phone proven by a sign-in code: no email, no password, no name yet. */
  async createPhoneAccount(phone: string, language?: string) {
    const [created] = await this.users.create([
      {
        name: '',
        phone,
        phoneVerifiedAt: new Date(),
        role: 'customer',
        isActive: true,
        ...(language === 'en' || language === 'am' ? { language } : {}),
      },
    ]);
    await this.forgetPhoneElsewhere(created._id, phone);
    return created.toObject();
  }

  /** The language an account chose for messages, if any (notifications). */
  async languageOf(userId: string): Promise<string | undefined> {
    if (!Types.ObjectId.isValid(userId)) return undefined;
    const user = await this.users.findById(new Types.ObjectId(userId), { language: 1 }).lean().exec();
    return user?.language ?? undefined;
  }

  /**
   * The active staff account with this email (the settings' admin email), if any, and the language it
   * chose: staff messages use it (docs/decisions/0077-links-and-message-language.md).
   */
  async staffLanguageOf(email: string): Promise<{ id?: string; language?: string }> {
    const user = await this.users
      .findOne(
        { email: email.trim().toLowerCase(), role: 'admin', isActive: { $ne: false } },
        { language: 1 },
      )
      .lean()
      .exec();
    return { id: user ? String(user._id) : undefined, language: user?.language ?? undefined };
  }

  /** Accounts in the shop (the dashboard). */
  count(): Promise<number> {
    return this.users.countDocuments({}).exec();
  }

  // ---- One's own profile ----

  private async load(userId: string) {
    const user = await this.users.findById(new Types.ObjectId(userId)).lean();
    if (!user) throw unknownAccount();
    return user;
  }

  async getProfile(userId: string) {
    const user = await this.load(userId);
    return { ...toUserView(user), addresses: (user.addresses ?? []).map(toAddressView) };
  }

  /** Name, email (unique, 409 when taken) and phone (Ethiopian, normalised to +251...). */
  async updateProfile(userId: string, dto: UpdateProfileDto) {
    const set: Partial<User> = {};
    const unset: Record<string, 1> = {};
    const fullName =
      dto.name !== undefined
        ? requireText('name', dto.name)
        : dto.firstName !== undefined || dto.lastName !== undefined
          ? requireText('name', [dto.firstName, dto.lastName].filter(Boolean).join(' '))
          : undefined;
    if (fullName) set.name = fullName;
    if (dto.email !== undefined) set.email = dto.email.trim().toLowerCase();
    if (dto.phone === null || (typeof dto.phone === 'string' && dto.phone.trim() === '')) {
      unset.phone = 1;
    } else if (dto.phone !== undefined) {
      set.phone = ethiopianPhone(dto.phone);
    }
    if (dto.language !== undefined) set.language = dto.language;
    if (!Object.keys(set).length && !Object.keys(unset).length) {
      throw new InvalidDataError(
        'Nothing to update: send name, email, phone or language',
        undefined,
        'NOTHING_TO_UPDATE',
      );
    }
    const id = new Types.ObjectId(userId);
    if (set.phone || unset.phone) {
      // a new number is not proven yet: SMS codes (password reset) wait until it is verified again
      const stored = await this.users.findById(id, { phone: 1 }).lean().exec();
      if (stored?.phone !== set.phone) unset.phoneVerifiedAt = 1;
    }
    if (set.email && (await this.users.exists({ email: set.email, _id: { $ne: id } }))) {
      throw new ConflictError(DUPLICATE_EMAIL, 'DUPLICATE_EMAIL');
    }
    const user = await conflictOnDuplicate(
      this.users
        .findByIdAndUpdate(
          id,
          {
            ...(Object.keys(set).length ? { $set: set } : {}),
            ...(Object.keys(unset).length ? { $unset: unset } : {}),
          },
          { new: true, runValidators: true },
        )
        .lean()
        .exec(),
      DUPLICATE_EMAIL,
      'DUPLICATE_EMAIL',
    );
    if (!user) throw unknownAccount();
    // the signed-in identity carries name, email, phone and language (checkout reads them)
    this.accountChanged(id);
    return toUserView(user);
  }

  private accountChanged(userId: Types.ObjectId): void {
    this.changes.publish({ kind: 'account', ids: [String(userId)] });
  }
}
