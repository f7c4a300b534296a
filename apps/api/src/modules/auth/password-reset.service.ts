import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { isStrongEnough, storefrontPaths, storefrontUrl } from '@shop/shared';
import * as bcrypt from 'bcryptjs';
import { Connection, Model, Types } from 'mongoose';
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { InvalidDataError } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config';
import { NotificationsService } from '../notifications/notifications.service';
import { AccountsService } from '../users/accounts.service';
import { SessionsService } from '../users/sessions.service';
import { BCRYPT_ROUNDS } from './auth.service';
import { PasswordReset } from './schemas/password-reset.schema';
import { inTransaction } from '../../common/mongo';

export const RESET_TTL_MS = 30 * 60 * 1000;
/** Reset requests per account per hour, from any client: more are answered the same but send nothing. */
export const RESETS_PER_ACCOUNT_PER_HOUR = 3;
/** Wrong SMS codes before the request is spent. */
export const MAX_CODE_ATTEMPTS = 5;
export const RESET_REQUESTED =
  'If an account exists for this email, we have sent instructions to reset its password.';
export const RESET_INVALID = 'This reset link or code is invalid or has expired';
export const RESET_DONE = 'Your password has been changed. Please sign in with your new password.';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Account recovery: a single-use link (email) or 6-digit code (SMS) valid for 30 minutes, stored only
 * as a hash; the answer to a request is the same whether or not the account exists; a new password
 * bumps the account's token version, which ends every earlier session.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger('PasswordReset');

  constructor(
    @InjectModel(PasswordReset.name) private readonly resets: Model<PasswordReset>,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    @InjectConnection() private readonly connection: Connection,
    private readonly notifications: NotificationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async request(
    input: { email: string; channel?: 'email' | 'sms'; app?: 'storefront' | 'admin' },
    ip: string | undefined,
  ): Promise<void> {
    const email = input.email.trim().toLowerCase();
    const user = await this.accounts.findByEmail(email, { activeOnly: true });
    if (!user) return;
    // a code goes only to a phone the customer proved is theirs; otherwise the link goes by email
    const channel = input.channel === 'sms' && user.phone && user.phoneVerifiedAt ? 'sms' : 'email';
    const since = new Date(Date.now() - 60 * 60 * 1000);
    if (
      (await this.resets.countDocuments({ user: user._id, createdAt: { $gte: since } })) >=
      RESETS_PER_ACCOUNT_PER_HOUR
    ) {
      this.logger.warn(`reset requests for account ${String(user._id)} over the hourly limit`);
      return;
    }
    const id = new Types.ObjectId();
    const token = randomBytes(32).toString('base64url');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const staff = input.app === 'admin' && user.role === 'admin';
    const base = staff ? `${this.config.adminUrl}/admin` : this.config.storefrontUrl;
    await inTransaction(
      this.connection,
      async (session) => {
        await this.resets.create(
          [
            {
              _id: id,
              user: user._id,
              channel,
              secretHash: channel === 'sms' ? this.codeHash(String(user._id), code) : sha256(token),
              expiresAt: new Date(Date.now() + RESET_TTL_MS),
              ip,
            },
          ],
          { session },
        );
        await this.notifications.enqueue(session, {
          type: 'password.reset',
          requestId: String(id),
          user: {
            _id: user._id,
            name: user.name,
            email: user.email,
            phone: user.phone,
            language: user.language,
          },
          channel,
          ...(channel === 'sms'
            ? { code }
            : {
                // the storefront's page in the account's language (Amharic: /am/…, docs/decisions/0092)
                link: storefrontUrl(
                  base,
                  storefrontPaths.resetPassword(token),
                  staff ? undefined : user.language,
                ),
              }),
        });
      },
      'Too many requests right now, please try again',
    );
  }

  /** Sets the new password from a link token, or from the account's email and its SMS code. */
  async reset(input: {
    token?: string;
    email?: string;
    code?: string;
    password: string;
    confirmPassword?: string;
  }) {
    if (input.confirmPassword !== undefined && input.confirmPassword !== input.password) {
      throw new InvalidDataError(
        'Passwords do not match',
        [{ field: 'confirmPassword', message: 'Passwords do not match' }],
        'PASSWORDS_DO_NOT_MATCH',
      );
    }
    if (!isStrongEnough(input.password)) {
      throw new InvalidDataError(
        'Please choose a stronger password',
        [{ field: 'password', message: 'Please choose a stronger password' }],
        'WEAK_PASSWORD',
      );
    }
    const now = new Date();
    let reset: (PasswordReset & { _id: Types.ObjectId }) | null = null;
    if (input.token) {
      // single use: the one conditional update that marks it used is the one that may reset
      reset = await this.resets
        .findOneAndUpdate(
          {
            secretHash: sha256(input.token),
            channel: 'email',
            usedAt: { $exists: false },
            expiresAt: { $gt: now },
          },
          { $set: { usedAt: now } },
          { new: true },
        )
        .lean<PasswordReset & { _id: Types.ObjectId }>()
        .exec();
    } else if (input.email && input.code) {
      const user = await this.accounts.findByEmail(input.email);
      const pending = user
        ? await this.resets
            .findOne({
              user: user._id,
              channel: 'sms',
              usedAt: { $exists: false },
              expiresAt: { $gt: now },
              failedAttempts: { $lt: MAX_CODE_ATTEMPTS },
            })
            .sort({ createdAt: -1 })
            .lean()
            .exec()
        : null;
      if (pending && user) {
        if (pending.secretHash === this.codeHash(String(user._id), input.code)) {
          reset = await this.resets
            .findOneAndUpdate(
              { _id: pending._id, usedAt: { $exists: false } },
              { $set: { usedAt: now } },
              { new: true },
            )
            .lean<PasswordReset & { _id: Types.ObjectId }>()
            .exec();
        } else {
          await this.resets.updateOne({ _id: pending._id }, { $inc: { failedAttempts: 1 } }).exec();
        }
      }
    } else {
      throw new InvalidDataError(
        'Send the token from the link, or your email and the code',
        [{ field: 'token', message: 'token, or email and code, are required', code: 'REQUIRED' }],
        'REQUIRED',
      );
    }
    if (!reset) {
      throw new InvalidDataError(RESET_INVALID, undefined, 'RESET_INVALID');
    }
    const passwordHash = await bcrypt.hash(input.password, BCRYPT_ROUNDS);
    await this.setPassword(reset.user, passwordHash);
    // every other open request of this account is spent too
    await this.resets
      .updateMany({ user: reset.user, usedAt: { $exists: false } }, { $set: { usedAt: now } })
      .exec();
  }

  /** The one place a password is replaced: the token version goes up, so every earlier session ends. */
  private async setPassword(user: Types.ObjectId, passwordHash: string): Promise<void> {
    await this.sessions.replacePasswordHash(user, passwordHash);
  }

  private codeHash(userId: string, code: string): string {
    return createHmac('sha256', this.config.jwt.secret).update(`reset:${userId}:${code}`).digest('hex');
  }
}
