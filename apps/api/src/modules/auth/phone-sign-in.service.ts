import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { signSession } from '../../common/auth/session';
import { DomainError, InvalidDataError, type ErrorCode } from '../../common/errors/domain-error';
import { isDuplicateKeyError, inTransaction } from '../../common/mongo';
import { APP_CONFIG, type AppConfig } from '../../config';
import { NotificationsService } from '../notifications/notifications.service';
import { GuestOrders } from '../orders/orders.module';
import { AccountsService } from '../users/accounts.service';
import { toUserView } from '../users/user.view';
import { PhoneSignIn } from './schemas/phone-sign-in.schema';

export const OTP_TTL_MS = 10 * 60 * 1000;
/** Codes per phone number per hour: SMS cost money, and a number's owner should not be flooded. */
export const OTP_CODES_PER_HOUR = 3;
/** Tries of one code, right or wrong: the sixth is refused whatever it says. */
export const OTP_MAX_TRIES = 5;
export const OTP_SENT = 'If this number can receive SMS, we sent it a 6-digit code';
export const OTP_INVALID = 'This code is invalid or has expired';
const HOUR_MS = 60 * 60 * 1000;

const invalid = () =>
  new InvalidDataError(OTP_INVALID, [{ field: 'code', message: OTP_INVALID }], 'OTP_INVALID');

/**
 * Sign-in with a phone number and a 6-digit code sent by SMS (docs/decisions/0064-phone-sign-in.md):
 * the same answer whether or not an account has the number; three codes an hour per number; a code
 * lasts 10 minutes and five tries, is used once and kept only as an HMAC. A right code signs in the
 * account whose verified phone is the number, or makes a customer account for it (no email, no
 * password, no name yet), and attaches the guest orders placed with the number.
 */
@Injectable()
export class PhoneSignInService {
  constructor(
    @InjectModel(PhoneSignIn.name) private readonly codes: Model<PhoneSignIn>,
    @InjectConnection() private readonly connection: Connection,
    private readonly accounts: AccountsService,
    private readonly notifications: NotificationsService,
    private readonly guestOrders: GuestOrders,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sends a new code to `phone` (E.164); the previous code of the number stops working. */
  async request(phone: string, language?: 'en' | 'am'): Promise<void> {
    await this.codes
      .updateOne({ phone }, { $setOnInsert: { phone, sent: [], tries: 0 } }, { upsert: true })
      .exec()
      .catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error; // made at the same moment by another request
      });
    const lang = language ?? (await this.accounts.findByVerifiedPhone(phone))?.language ?? undefined;
    const now = new Date();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const requestId = String(new Types.ObjectId());
    const stored = await inTransaction(
      this.connection,
      async (session) => {
        // the limit is checked and counted in the one update that stores the code: fewer than three
        // codes kept, or the oldest of the three older than an hour
        const updated = await this.codes
          .findOneAndUpdate(
            {
              phone,
              $or: [
                { 'sent.2': { $exists: false } },
                { 'sent.0': { $lte: new Date(now.getTime() - HOUR_MS) } },
              ],
            },
            {
              $push: { sent: { $each: [now], $slice: -OTP_CODES_PER_HOUR } },
              $set: {
                requestId,
                codeHash: this.codeHash(phone, requestId, code),
                expiresAt: new Date(now.getTime() + OTP_TTL_MS),
                tries: 0,
                ...(lang === 'en' || lang === 'am' ? { language: lang } : {}),
              },
              $unset: { usedAt: 1, ...(lang === 'en' || lang === 'am' ? {} : { language: 1 }) },
            },
            { session, new: true },
          )
          .lean()
          .exec();
        if (!updated) return false;
        await this.notifications.enqueue(session, {
          type: 'phone.signin',
          requestId,
          phone,
          language: lang,
          code,
        });
        return true;
      },
      'Too many requests right now, please try again',
    );
    if (!stored)
      throw new HttpException(
        {
          message: 'Too many codes were asked for this number; please try again in an hour',
          code: 'TOO_MANY_CODES' satisfies ErrorCode,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
  }

  /**
   * Checks the number's current code. Each try is counted before the code is compared (so no more
   * than five are ever compared, however many arrive at once); a right one is used in a conditional
   * update, so it signs in once.
   */
  async verify(phone: string, code: string) {
    const now = new Date();
    const tried = await this.codes
      .findOneAndUpdate(
        {
          phone,
          codeHash: { $exists: true },
          usedAt: { $exists: false },
          expiresAt: { $gt: now },
          tries: { $lt: OTP_MAX_TRIES },
        },
        { $inc: { tries: 1 } },
        { new: true },
      )
      .lean()
      .exec();
    if (
      !tried?.codeHash ||
      !tried.requestId ||
      !sameHash(tried.codeHash, this.codeHash(phone, tried.requestId, code))
    )
      throw invalid();
    const used = await this.codes
      .updateOne(
        { _id: tried._id, requestId: tried.requestId, usedAt: { $exists: false } },
        { $set: { usedAt: now } },
      )
      .exec();
    if (!used.modifiedCount) throw invalid();

    const existing = await this.accounts.findByVerifiedPhone(phone);
    if (existing && !existing.isActive)
      throw new DomainError(
        'FORBIDDEN',
        'This account has been deactivated',
        undefined,
        'ACCOUNT_DEACTIVATED',
      );
    if (existing && existing.role !== 'customer')
      throw new DomainError(
        'FORBIDDEN',
        'Staff accounts sign in with their email and password',
        undefined,
        'ACCESS_DENIED',
      );
    const account = existing ?? (await this.accounts.createPhoneAccount(phone, tried.language));
    await this.guestOrders.attachToAccount(String(account._id), phone);
    return {
      user: toUserView(account),
      token: await signSession(this.jwt, account),
      created: !existing,
    };
  }

  private codeHash(phone: string, requestId: string, code: string): string {
    return createHmac('sha256', this.config.jwt.secret)
      .update(`otp:${phone}:${requestId}:${code}`)
      .digest('hex');
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
