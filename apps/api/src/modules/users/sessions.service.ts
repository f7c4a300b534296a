import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isStrongEnough } from '@shop/shared';
import * as bcrypt from 'bcryptjs';
import { Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { Changes } from '../../common/changes';
import { DomainError, InvalidDataError } from '../../common/errors/domain-error';
import type { ChangePasswordDto } from './dto/profile.dto';
import { User } from './schemas/user.schema';
import { BCRYPT_ROUNDS } from './user.view';

/** Revoked token ids kept per user; beyond this many unexpired ones, a logout ends every session. */
export const MAX_REVOKED_TOKENS = 50;

/**
 * Sessions and credentials (common/auth/session.ts): the token-to-user check, ending one or every
 * session, and the password, whose change ends every session. Each write that ends sessions says so
 * as an `account` change with the user's id, which the session cache (cache/session-cache.ts) hears.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly changes: Changes,
  ) {}

  /**
   * The signed-in identity of an active account, or null when the account is gone or deactivated,
   * the token is older than the account's token version or its id was revoked: the one token-to-user
   * check (the auth module's session lookup).
   */
  async activeAccount(userId: string, tokenVersion = 0, tokenId?: string): Promise<AuthUser | null> {
    if (!Types.ObjectId.isValid(userId)) return null;
    // one read by _id with a projection: the hot path of every signed-in request
    const filter: Record<string, unknown> = { _id: new Types.ObjectId(userId), isActive: true };
    if (tokenId) filter['revokedTokens.jti'] = { $ne: tokenId };
    // the model's collection: a filter of exact types needs no casting, and skipping Mongoose's query
    // machinery on every signed-in request is worth it (docs/quality.md, issue 18 point 2); a read
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
    this.accountChanged(userId);
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
    if (!pushed.matchedCount) return this.endAllSessions(userId);
    this.accountChanged(userId);
  }

  /** The account with its password hash, for signing in only. */
  findWithPasswordHash(email: string) {
    return this.users.findOne({ email: email.trim().toLowerCase() }).select('+passwordHash').lean().exec();
  }

  /**
   * The current password is required; the new one follows the sign-up strength rule. An account
   * made by phone sign-in has no password yet: its first one is set without (the session proves the
   * phone; docs/decisions/0064-phone-sign-in.md).
   */
  async changePassword(userId: string, dto: ChangePasswordDto): Promise<void> {
    const user = await this.users.findById(new Types.ObjectId(userId)).select('+passwordHash').lean();
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
    const current = dto.currentPassword ?? dto.oldPassword;
    if (!current && user.passwordHash) {
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
    // 400, not 401: a 401 makes the spec's client forget its session
    if (user.passwordHash && !(await bcrypt.compare(current ?? '', user.passwordHash))) {
      throw new InvalidDataError(
        'Current password is incorrect',
        [{ field: 'currentPassword', message: 'Current password is incorrect' }],
        'CURRENT_PASSWORD_INCORRECT',
      );
    }
    // every earlier session ends with the old password (the caller gets a new token)
    await this.replacePasswordHash(user._id, await bcrypt.hash(dto.newPassword, BCRYPT_ROUNDS));
  }

  /** The one place a password is replaced: the token version goes up, so every earlier session ends. */
  async replacePasswordHash(userId: Types.ObjectId | string, passwordHash: string): Promise<void> {
    await this.users
      .updateOne(
        { _id: new Types.ObjectId(String(userId)) },
        { $set: { passwordHash }, $inc: { tokenVersion: 1 } },
      )
      .exec();
    this.accountChanged(String(userId));
  }

  private accountChanged(userId: string): void {
    this.changes.publish({ kind: 'account', ids: [userId] });
  }
}
