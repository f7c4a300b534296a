import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { createHmac, randomInt } from 'node:crypto';
import { ConflictError, InvalidDataError, type ErrorCode } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config';
import { NotificationsService } from '../notifications/notifications.service';
import { GuestOrders } from '../orders/orders.module';
import { AccountsService } from '../users/accounts.service';
import { PhoneVerification } from './schemas/phone-verification.schema';
import { inTransaction } from '../../common/mongo';

export const PHONE_CODE_TTL_MS = 10 * 60 * 1000;
/** Codes per account per hour: SMS cost money and a phone's owner should not be flooded. */
export const PHONE_CODES_PER_HOUR = 3;
export const MAX_PHONE_CODE_ATTEMPTS = 5;
export const PHONE_CODE_INVALID = 'This code is invalid or has expired';
export const PHONE_CODE_SENT = 'We sent a 6-digit code to your phone';

/**
 * Proves that the account's phone is the customer's: a 6-digit code by SMS (10 minutes, five tries,
 * kept only as an HMAC). Password reset codes go only to a verified phone; changing the phone
 * number makes it unverified again.
 */
@Injectable()
export class PhoneVerificationService {
  constructor(
    @InjectModel(PhoneVerification.name) private readonly codes: Model<PhoneVerification>,
    @InjectConnection() private readonly connection: Connection,
    private readonly users: AccountsService,
    private readonly notifications: NotificationsService,
    private readonly guestOrders: GuestOrders,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async sendCode(userId: string): Promise<void> {
    const user = await this.users.phoneOf(userId);
    if (!user.phone)
      throw new InvalidDataError(
        'Add a phone number to your profile first',
        [{ field: 'phone', message: 'Add a phone number to your profile first' }],
        'PHONE_REQUIRED',
      );
    if (user.phoneVerified)
      throw new ConflictError('This phone number is already verified', 'PHONE_VERIFIED');
    const id = new Types.ObjectId(userId);
    const since = new Date(Date.now() - 60 * 60 * 1000);
    if ((await this.codes.countDocuments({ user: id, createdAt: { $gte: since } })) >= PHONE_CODES_PER_HOUR)
      throw new HttpException(
        {
          message: 'Too many codes asked for this account; please try again in an hour',
          code: 'PHONE_CODE_LIMIT' satisfies ErrorCode,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const requestId = new Types.ObjectId();
    await inTransaction(
      this.connection,
      async (session) => {
        await this.codes.create(
          [
            {
              _id: requestId,
              user: id,
              phone: user.phone,
              codeHash: this.codeHash(userId, user.phone!, code),
              expiresAt: new Date(Date.now() + PHONE_CODE_TTL_MS),
            },
          ],
          { session },
        );
        await this.notifications.enqueue(session, {
          type: 'phone.verify',
          requestId: String(requestId),
          phone: user.phone!,
          language: user.language,
          code,
        });
      },
      'Too many requests right now, please try again',
    );
  }

  /** Checks the latest code for the account's current phone; right, the phone is verified (single use). */
  async verify(userId: string, code: string): Promise<void> {
    const user = await this.users.phoneOf(userId);
    const now = new Date();
    const id = new Types.ObjectId(userId);
    const pending = user.phone
      ? await this.codes
          .findOne({
            user: id,
            phone: user.phone,
            usedAt: { $exists: false },
            expiresAt: { $gt: now },
            failedAttempts: { $lt: MAX_PHONE_CODE_ATTEMPTS },
          })
          .sort({ createdAt: -1 })
          .lean()
          .exec()
      : null;
    if (pending && pending.codeHash === this.codeHash(userId, pending.phone, code)) {
      const used = await this.codes
        .updateOne({ _id: pending._id, usedAt: { $exists: false } }, { $set: { usedAt: now } })
        .exec();
      if (used.modifiedCount && (await this.users.markPhoneVerified(userId, pending.phone))) {
        // the guest orders placed with this number join the account that proved it
        await this.guestOrders.attachToAccount(userId, pending.phone);
        return;
      }
    } else if (pending) {
      await this.codes.updateOne({ _id: pending._id }, { $inc: { failedAttempts: 1 } }).exec();
    }
    throw new InvalidDataError(
      PHONE_CODE_INVALID,
      [{ field: 'code', message: PHONE_CODE_INVALID }],
      'PHONE_CODE_INVALID',
    );
  }

  private codeHash(userId: string, phone: string, code: string): string {
    return createHmac('sha256', this.config.jwt.secret)
      .update(`phone:${userId}:${phone}:${code}`)
      .digest('hex');
  }
}
