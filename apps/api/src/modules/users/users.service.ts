import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DELIVERY_COUNTRY_MESSAGE, deliveryCountry, isStrongEnough } from '@shop/shared';
import * as bcrypt from 'bcryptjs';
import { FilterQuery, Model, Types } from 'mongoose';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
} from '../../common/errors/domain-error';
import { conflictOnDuplicate, escapeRegex, parseObjectId } from '../../common/mongo';
import {
  filterBoolean,
  filterEnum,
  filterText,
  listResource,
  type ReactAdminListQuery,
} from '../admin/list/react-admin';
import { AuditService } from '../audit/audit.service';
import type { AuthUser } from '../../common/auth/auth-user';
import { SessionCache } from '../../common/auth/session-cache';
import { APP_CONFIG, type AppConfig } from '../../config';
import { BCRYPT_ROUNDS, DUPLICATE_EMAIL, ethiopianPhone, toUserView } from './user.view';
import type {
  AddressInputDto,
  ChangePasswordDto,
  UpdateAddressDto,
  UpdateProfileDto,
} from './dto/profile.dto';
import { Address, User } from './schemas/user.schema';

export const ADDRESS_NOT_FOUND = 'Address not found';
export const MAX_ADDRESSES = 20;
/** Revoked token ids kept per user; beyond this many unexpired ones, a logout ends every session. */
export const MAX_REVOKED_TOKENS = 50;
export const USER_NOT_FOUND = 'User not found';

type Role = 'customer' | 'admin';
const asRole = (role: string | undefined): Role => (role === 'admin' ? 'admin' : 'customer');

export function toAddressView(address: Address) {
  return {
    id: address.id,
    street: address.street,
    city: address.city,
    state: address.state,
    ...(address.zipCode ? { zipCode: address.zipCode } : {}),
    country: address.country,
    ...(address.phone ? { phone: address.phone } : {}),
    ...(address.landmark ? { landmark: address.landmark } : {}),
    isDefault: !!address.isDefault,
  };
}

/** Delivery is only within Ethiopia: the country may be left out or spelled in any case. */
function countryOf(input: string | undefined): string {
  const country = deliveryCountry(input);
  if (country) return country;
  throw new InvalidDataError('Validation failed', [{ field: 'country', message: DELIVERY_COUNTRY_MESSAGE }]);
}

/** The optional parts of an address (postal code, phone, landmark), left out when blank. */
function optionalText(dto: { zipCode?: string; phone?: string; landmark?: string }) {
  const out: { zipCode?: string; phone?: string; landmark?: string } = {};
  for (const field of ['zipCode', 'phone', 'landmark'] as const) {
    const value = dto[field]?.trim();
    if (value) out[field] = value;
  }
  return out;
}

function requireText(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!trimmed)
    throw new InvalidDataError('Validation failed', [{ field, message: `${field} must not be empty` }]);
  return trimmed;
}

/** One's own profile and address book; every method is keyed by the signed-in user's id. */
@Injectable()
export class UsersService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'sessionCacheTtlMs'>,
  ) {
    this.sessions = new SessionCache(config.sessionCacheTtlMs);
  }

  /** Signed-in users this instance remembers for a moment (common/auth/session-cache.ts). */
  readonly sessions: SessionCache;

  /**
   * The signed-in identity of an active account, or null when the account is gone or deactivated:
   * the one token-to-user check (JwtAuthGuard, MaintenanceGuard).
   */
  async activeAccount(userId: string, tokenVersion = 0, tokenId?: string): Promise<AuthUser | null> {
    if (!Types.ObjectId.isValid(userId)) return null;
    // one read by _id with a projection: the hot path of every signed-in request
    const filter: Record<string, unknown> = { _id: new Types.ObjectId(userId), isActive: true };
    if (tokenId) filter['revokedTokens.jti'] = { $ne: tokenId };
    // the model's collection: a filter of exact types needs no casting, and skipping Mongoose's query
    // machinery on every signed-in request is worth it (docs/quality.md, issue 18 point 2)
    const user = await this.users.collection.findOne<
      Pick<User, 'role' | 'email' | 'name' | 'tokenVersion' | 'phone' | 'language'> & { _id: Types.ObjectId }
    >(filter, {
      projection: { role: 1, email: 1, name: 1, isActive: 1, tokenVersion: 1, phone: 1, language: 1 },
    });
    // a token from before the last password change or reset, logout everywhere, deactivation or
    // role change (an older version) no longer counts
    if (!user || (user.tokenVersion ?? 0) !== tokenVersion) return null;
    return {
      id: String(user._id),
      role: user.role as AuthUser['role'],
      email: user.email,
      name: user.name,
      contact: {
        ...(user.phone ? { phone: user.phone } : {}),
        ...(user.language ? { language: user.language } : {}),
      },
    };
  }

  /** The current token version of an account (null when it is gone), to sign a new token with. */
  async tokenVersionOf(userId: string): Promise<number | null> {
    const user = await this.users.findById(new Types.ObjectId(userId), { tokenVersion: 1 }).lean().exec();
    return user ? (user.tokenVersion ?? 0) : null;
  }

  /** Ends every session of an account: each earlier token is refused from the next request on. */
  async endAllSessions(userId: string): Promise<void> {
    await this.users.updateOne({ _id: new Types.ObjectId(userId) }, { $inc: { tokenVersion: 1 } }).exec();
  }

  /**
   * Ends one session: the token's id is revoked until its own expiry (expired entries are dropped
   * first). A token without an id (issued before ids) or a full list ends every session instead.
   */
  async endSession(userId: string, tokenId: string | undefined, expiresAtSeconds?: number): Promise<void> {
    if (!tokenId) return this.endAllSessions(userId);
    const _id = new Types.ObjectId(userId);
    await this.users
      .updateOne({ _id }, { $pull: { revokedTokens: { expiresAt: { $lt: new Date() } } } })
      .exec();
    const expiresAt = new Date((expiresAtSeconds ?? Date.now() / 1000 + 7 * 24 * 3600) * 1000);
    const pushed = await this.users
      .updateOne(
        { _id, [`revokedTokens.${MAX_REVOKED_TOKENS - 1}`]: { $exists: false } },
        { $push: { revokedTokens: { jti: tokenId, expiresAt } } },
      )
      .exec();
    if (!pushed.matchedCount) await this.endAllSessions(userId);
  }

  /** Registration and the back office's "Add User": 409 when the email is taken (the unique index decides races). */
  async assertEmailFree(email: string): Promise<void> {
    if (await this.users.exists({ email })) throw new ConflictError(DUPLICATE_EMAIL, 'DUPLICATE_EMAIL');
  }

  /** Creates an account; one made by staff (`actor`) is audited. */
  async createAccount(
    account: { name: string; email: string; phone?: string; passwordHash: string; role: Role },
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

  // ---- The back office: lists and the self and last-admin protections of DECISIONS.md ----

  /** react-admin list: filters q (name or email, literal text), role, isActive, id. */
  listForAdmin(query: ReactAdminListQuery) {
    return listResource(this.users, query, {
      sortFields: {
        name: 'name',
        email: 'email',
        role: 'role',
        isActive: 'isActive',
        createdAt: 'createdAt',
      },
      filters: ['q', 'role', 'isActive'],
      defaultSort: ['createdAt', 'DESC'],
      where: (filter) => {
        const where: FilterQuery<User> = {};
        const q = filterText(filter, 'q');
        if (q) {
          const pattern = new RegExp(escapeRegex(q), 'i');
          where.$or = [{ name: pattern }, { email: pattern }];
        }
        const roles = filterEnum(filter, 'role', ['customer', 'admin', 'user']);
        if (roles) where.role = { $in: [...new Set(roles.map(asRole))] };
        const isActive = filterBoolean(filter, 'isActive');
        if (isActive !== undefined) where.isActive = isActive;
        return where;
      },
      toRecords: (docs) => docs.map(toUserView),
    });
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
    if (self && next.role !== user.role) throw new ConflictError('You cannot change your own role');
    if (self && !next.isActive) throw new ConflictError('You cannot deactivate your own account');
    if (user.role === 'admin' && user.isActive && (next.role !== 'admin' || !next.isActive))
      await this.keepAnotherActiveAdmin(
        user._id,
        next.role !== 'admin'
          ? 'The last active admin cannot be demoted'
          : 'The last active admin cannot be deactivated',
      );
    if (next.email !== user.email && (await this.users.exists({ email: next.email, _id: { $ne: user._id } })))
      throw new ConflictError(DUPLICATE_EMAIL);
    const set = Object.fromEntries(changed.map((k) => [k, next[k]]));
    const updated = await conflictOnDuplicate(
      this.users
        .findOneAndUpdate(
          { _id: user._id, email: user.email, role: user.role, isActive: user.isActive },
          { $set: set },
          { new: true },
        )
        .lean()
        .exec(),
      DUPLICATE_EMAIL,
    );
    if (!updated) throw new ConflictError('The user changed meanwhile; please try again');
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
    if (!updated) throw new ConflictError('The user changed meanwhile; please try again', 'RECORD_CHANGED');
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
    if (!updated) throw new ConflictError('The user changed meanwhile; please try again', 'RECORD_CHANGED');
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

  /** An account by email (any case), or null; `activeOnly` leaves deactivated accounts out. */
  findByEmail(email: string, options: { activeOnly?: boolean } = {}) {
    return this.users
      .findOne({ email: email.trim().toLowerCase(), ...(options.activeOnly ? { isActive: true } : {}) })
      .lean()
      .exec();
  }

  /** The one place a password is replaced: the token version goes up, so every earlier session ends. */
  async replacePasswordHash(userId: Types.ObjectId | string, passwordHash: string): Promise<void> {
    await this.users
      .updateOne(
        { _id: new Types.ObjectId(String(userId)) },
        { $set: { passwordHash }, $inc: { tokenVersion: 1 } },
      )
      .exec();
  }

  /** The account with its password hash, for signing in only. */
  findWithPasswordHash(email: string) {
    return this.users.findOne({ email: email.trim().toLowerCase() }).select('+passwordHash').lean().exec();
  }

  /** `GET /api/auth/me`: the account as every answer shows it. */
  async me(userId: string) {
    return toUserView(await this.load(userId));
  }

  /** Names (and emails) of accounts, for pages that list what customers wrote; deleted ones are absent. */
  async namesByIds(ids: readonly (Types.ObjectId | string)[]) {
    const valid = ids
      .filter((id) => Types.ObjectId.isValid(String(id)))
      .map((id) => new Types.ObjectId(String(id)));
    if (!valid.length) return new Map<string, { name: string; email: string }>();
    const users = await this.users
      .find({ _id: { $in: valid } }, { name: 1, email: 1 })
      .lean()
      .exec();
    return new Map(users.map((u) => [String(u._id), { name: u.name, email: u.email }]));
  }

  /** Who may receive a customer message (notifications): active accounts only, with their language. */
  async recipientsByIds(ids: readonly (Types.ObjectId | string)[]) {
    const valid = ids
      .filter((id) => Types.ObjectId.isValid(String(id)))
      .map((id) => new Types.ObjectId(String(id)));
    const found = new Map<string, { name: string; email: string; language?: string }>();
    if (!valid.length) return found;
    const users = await this.users
      .find({ _id: { $in: valid }, isActive: { $ne: false } }, { name: 1, email: 1, language: 1 })
      .lean()
      .exec();
    for (const u of users)
      found.set(String(u._id), { name: u.name, email: u.email, language: u.language ?? undefined });
    return found;
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

  /** Marks the phone verified if it is still `phone` (not changed meanwhile); answers whether it did. */
  async markPhoneVerified(userId: string, phone: string): Promise<boolean> {
    const res = await this.users
      .updateOne({ _id: new Types.ObjectId(userId), phone }, { $set: { phoneVerifiedAt: new Date() } })
      .exec();
    return res.matchedCount > 0;
  }

  /** The language an account chose for messages, if any (notifications). */
  async languageOf(userId: string): Promise<string | undefined> {
    if (!Types.ObjectId.isValid(userId)) return undefined;
    const user = await this.users.findById(new Types.ObjectId(userId), { language: 1 }).lean().exec();
    return user?.language ?? undefined;
  }

  /** Accounts in the shop (the dashboard). */
  count(): Promise<number> {
    return this.users.countDocuments({}).exec();
  }

  private async load(userId: string) {
    const user = await this.users.findById(new Types.ObjectId(userId)).lean();
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
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
      throw new InvalidDataError('Nothing to update: send name, email, phone or language');
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
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
    return toUserView(user);
  }

  /** The current password is required; the new one follows the sign-up strength rule. */
  async changePassword(userId: string, dto: ChangePasswordDto) {
    const current = dto.currentPassword ?? dto.oldPassword;
    if (!current) {
      throw new InvalidDataError(
        'Current password is required',
        [{ field: 'currentPassword', message: 'Current password is required' }],
        'CURRENT_PASSWORD_REQUIRED',
      );
    }
    if (dto.confirmPassword !== undefined && dto.confirmPassword !== dto.newPassword) {
      throw new InvalidDataError(
        'Passwords do not match',
        [{ field: 'confirmPassword', message: 'Passwords do not match' }],
        'PASSWORDS_DO_NOT_MATCH',
      );
    }
    if (!isStrongEnough(dto.newPassword)) {
      throw new InvalidDataError(
        'Please choose a stronger password',
        [{ field: 'newPassword', message: 'Please choose a stronger password' }],
        'WEAK_PASSWORD',
      );
    }
    const user = await this.users.findById(new Types.ObjectId(userId)).select('+passwordHash').lean();
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
    // 400, not 401: a 401 makes the spec's client forget its session
    if (!(await bcrypt.compare(current, user.passwordHash))) {
      throw new InvalidDataError(
        'Current password is incorrect',
        [{ field: 'currentPassword', message: 'Current password is incorrect' }],
        'CURRENT_PASSWORD_INCORRECT',
      );
    }
    const passwordHash = await bcrypt.hash(dto.newPassword, BCRYPT_ROUNDS);
    // every earlier session ends with the old password (the caller gets a new token)
    await this.users.updateOne({ _id: user._id }, { $set: { passwordHash }, $inc: { tokenVersion: 1 } });
  }

  async listAddresses(userId: string) {
    return ((await this.load(userId)).addresses ?? []).map(toAddressView);
  }

  /**
   * Adds an address with the next numeric id; the first address (or one marked so) becomes the
   * default. One conditional `$push` (the filter holds the size guard), so parallel adds never lose
   * each other and the cap holds; ids come from an atomic counter, so they are never shared.
   */
  async addAddress(userId: string, dto: AddressInputDto) {
    const id = new Types.ObjectId(userId);
    const country = countryOf(dto.country);
    const fields = {
      street: requireText('street', dto.street)!,
      city: requireText('city', dto.city)!,
      state: requireText('state', dto.state)!,
      ...optionalText(dto),
    };
    const full = { _id: id, [`addresses.${MAX_ADDRESSES - 1}`]: { $exists: false } };
    const counter = await this.users
      .findOneAndUpdate(full, { $inc: { addressSeq: 1 } }, { new: true, projection: { addressSeq: 1 } })
      .lean();
    if (!counter) throw await this.addressBookFull(userId);
    const address: Address = {
      id: counter.addressSeq,
      ...fields,
      country,
      isDefault: dto.isDefault === true,
    };
    const pushed = await this.users.updateOne(full, { $push: { addresses: address } });
    if (!pushed.matchedCount) throw await this.addressBookFull(userId);
    if (address.isDefault) await this.clearOtherDefaults(id, address.id);
    await this.ensureDefault(id);
    return this.addressAnswer(userId, address.id);
  }

  /** Changes only the fields sent, each with a positional update of this one address. */
  async updateAddress(userId: string, addressId: number, dto: UpdateAddressDto) {
    const id = new Types.ObjectId(userId);
    const set: Record<string, unknown> = {};
    for (const field of ['street', 'city', 'state'] as const) {
      const value = requireText(field, dto[field]);
      if (value !== undefined) set[`addresses.$.${field}`] = value;
    }
    // The optional parts: a blank value removes them.
    const unset: Record<string, 1> = {};
    for (const field of ['zipCode', 'phone', 'landmark'] as const) {
      if (dto[field] === undefined) continue;
      const value = dto[field]?.trim();
      if (value) set[`addresses.$.${field}`] = value;
      else unset[`addresses.$.${field}`] = 1;
    }
    if (dto.country !== undefined) set['addresses.$.country'] = countryOf(dto.country);
    if (dto.isDefault !== undefined) set['addresses.$.isDefault'] = dto.isDefault;
    const filter = { _id: id, 'addresses.id': addressId };
    const res =
      Object.keys(set).length || Object.keys(unset).length
        ? await this.users.updateOne(
            filter,
            {
              ...(Object.keys(set).length ? { $set: set } : {}),
              ...(Object.keys(unset).length ? { $unset: unset } : {}),
            },
            { runValidators: true },
          )
        : { matchedCount: Number(Boolean(await this.users.exists(filter))) };
    if (!res.matchedCount) {
      await this.load(userId);
      throw new NotFoundError(ADDRESS_NOT_FOUND, 'ADDRESS_NOT_FOUND');
    }
    if (dto.isDefault === true) {
      await this.clearOtherDefaults(id, addressId);
      await this.ensureDefault(id);
    }
    return this.addressAnswer(userId, addressId);
  }

  /** Removes an address; when it was the default, the oldest remaining one takes its place. */
  async removeAddress(userId: string, addressId: number) {
    const id = new Types.ObjectId(userId);
    const before = await this.users
      .findOneAndUpdate({ _id: id }, { $pull: { addresses: { id: addressId } } })
      .lean();
    if (!before)
      throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
    const removed = (before.addresses ?? []).find((a) => a.id === addressId);
    if (!removed) throw new NotFoundError(ADDRESS_NOT_FOUND, 'ADDRESS_NOT_FOUND');
    if (removed.isDefault) await this.ensureDefault(id);
    return this.listAddresses(userId);
  }

  /** Every other address stops being the default (array filters: one atomic update, nothing rewritten). */
  private async clearOtherDefaults(id: Types.ObjectId, keep: number): Promise<void> {
    await this.users.updateOne(
      { _id: id },
      { $set: { 'addresses.$[other].isDefault': false } },
      { arrayFilters: [{ 'other.id': { $ne: keep }, 'other.isDefault': true }] },
    );
  }

  /**
   * A non-empty address book has a default: when none is (two addresses made default at once each
   * cleared the other), the oldest one becomes it. Conditional, so it never overrides a default.
   */
  private async ensureDefault(id: Types.ObjectId): Promise<void> {
    await this.users.updateOne(
      { _id: id, 'addresses.0': { $exists: true }, 'addresses.isDefault': { $ne: true } },
      { $set: { 'addresses.0.isDefault': true } },
    );
  }

  private async addressAnswer(userId: string, addressId: number) {
    const addresses = await this.listAddresses(userId);
    const address = addresses.find((a) => a.id === addressId);
    if (!address) throw new NotFoundError(ADDRESS_NOT_FOUND, 'ADDRESS_NOT_FOUND'); // removed meanwhile in another tab
    return { address, addresses };
  }

  private async addressBookFull(userId: string): Promise<DomainError> {
    await this.load(userId);
    const error = new InvalidDataError(`An address book holds at most ${MAX_ADDRESSES} addresses`);
    error.code = 'ADDRESS_LIMIT';
    error.params = { max: MAX_ADDRESSES };
    return error;
  }
}
