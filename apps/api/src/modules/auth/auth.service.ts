import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { Response } from 'express';
import {
  activeUserFromToken,
  endAllSessions,
  endSession,
  signSession,
  verifySession,
} from '../../common/auth/session';
import { InjectModel } from '@nestjs/mongoose';
import { isStrongEnough, normaliseEthiopianPhone } from '@shop/shared';
import * as bcrypt from 'bcryptjs';
import { Model } from 'mongoose';
import { timingSafeEqual, createHash } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config';
import { ConflictError, DomainError, InvalidDataError } from '../../common/errors/domain-error';
import { conflictOnDuplicate } from '../../common/mongo';
import { User } from '../users/schemas/user.schema';
import type { LoginDto, RegisterAdminDto, RegisterDto } from './dto/auth.dto';

export const BCRYPT_ROUNDS = 10;
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const DUPLICATE_EMAIL = 'An account with this email already exists';
/** Compared against when the email is unknown, so both failures take the same time. */
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_ROUNDS);

type UserRecord = User & { _id: unknown };

/** What every account creation needs; name may come as first and last name. */
export interface NewAccount {
  name?: string;
  firstName?: string;
  lastName?: string;
  email: string;
  password: string;
  phone?: string;
}

/** The user as every answer shows it: name canonical, first and last name derived, never the hash. */
export function toUserView(user: UserRecord) {
  const [firstName, ...rest] = user.name.split(' ');
  return {
    _id: String(user._id),
    id: String(user._id),
    name: user.name,
    firstName,
    lastName: rest.join(' '),
    email: user.email,
    ...(user.phone ? { phone: user.phone } : {}),
    ...(user.language ? { language: user.language } : {}),
    role: user.role,
    isActive: user.isActive,
    createdAt: user.createdAt,
  };
}

/** An Ethiopian mobile number (+2519..., 09..., 07...) normalised to +251...; anything else is a 400. */
export function ethiopianPhone(input: string): string {
  const phone = normaliseEthiopianPhone(input);
  if (!phone) {
    throw new InvalidDataError('Validation failed', [
      { field: 'phone', message: 'phone must be an Ethiopian mobile number (+2519..., 09..., 07...)' },
    ]);
  }
  return phone;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly jwt: JwtService,
  ) {}

  /** Customer registration with the password rules of SPEC section 5. */
  async register(dto: RegisterDto) {
    if (dto.confirmPassword !== undefined && dto.confirmPassword !== dto.password) {
      throw new InvalidDataError('Passwords do not match', [
        { field: 'confirmPassword', message: 'Passwords do not match' },
      ]);
    }
    return this.createAccount(dto, 'customer');
  }

  /** Admin registration: needs the configured secret key; the password rules apply too. */
  async registerAdmin(dto: RegisterAdminDto) {
    if (!dto.adminSecretKey) {
      throw new InvalidDataError('Admin secret key is required', [
        { field: 'adminSecretKey', message: 'Admin secret key is required' },
      ]);
    }
    if (!sameSecret(dto.adminSecretKey, this.config.adminSecretKey)) {
      throw new DomainError('FORBIDDEN', 'Admin registration failed');
    }
    return this.createAccount(dto, 'admin');
  }

  /** Password rules (SPEC section 5) hold for every account the server creates. */
  private async createAccount(dto: RegisterDto, role: 'customer' | 'admin') {
    const user = await this.createUser(dto, role);
    return { user, token: await signSession(this.jwt, { _id: user._id, tokenVersion: 0 }) };
  }

  /**
   * Creates an account without signing it in (registration and the back office's "Add User"):
   * strength rule, name from name or first and last name, Ethiopian phone, unique email.
   */
  async createUser(dto: NewAccount, role: 'customer' | 'admin') {
    if (!isStrongEnough(dto.password)) {
      throw new InvalidDataError('Please choose a stronger password', [
        { field: 'password', message: 'Please choose a stronger password' },
      ]);
    }
    const name = (dto.name ?? [dto.firstName, dto.lastName].filter(Boolean).join(' ')).trim();
    if (!name)
      throw new InvalidDataError('Validation failed', [{ field: 'name', message: 'name is required' }]);
    const phone = dto.phone ? ethiopianPhone(dto.phone) : undefined;
    const email = dto.email.trim().toLowerCase();
    if (await this.users.exists({ email })) throw new ConflictError(DUPLICATE_EMAIL);
    const passwordHash = await bcrypt.hash(dto.password, BCRYPT_ROUNDS);
    // two registrations racing for one email: the unique index decides
    const user = await conflictOnDuplicate(
      this.users.create({ name, email, phone, passwordHash, role, isActive: true }),
      DUPLICATE_EMAIL,
    );
    return toUserView(user.toObject());
  }

  /** Same answer for an unknown email and a wrong password; the sign-in role choice is honoured. */
  async login(dto: LoginDto) {
    const user = await this.users
      .findOne({ email: dto.email.trim().toLowerCase() })
      .select('+passwordHash')
      .lean();
    const ok = await bcrypt.compare(dto.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) throw new DomainError('UNAUTHORIZED', INVALID_CREDENTIALS);
    if (dto.role === 'admin' && user.role !== 'admin')
      throw new DomainError('UNAUTHORIZED', INVALID_CREDENTIALS);
    if (!user.isActive) throw new DomainError('FORBIDDEN', 'This account has been deactivated');
    return { user: toUserView(user), token: await signSession(this.jwt, user) };
  }

  async me(id: string) {
    const user = await this.users.findById(id).lean();
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    return toUserView(user);
  }

  /** The httpOnly session cookie, as sign-in sets it. */
  setSessionCookie(res: Response, token: string): void {
    res.cookie('token', token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.nodeEnv === 'production',
      path: '/',
      maxAge: 7 * 24 * 60 * 60 * 1000,
    });
  }

  /** A new token for a user as they are now (e.g. right after a password change ended the others). */
  async issueToken(userId: string): Promise<string> {
    const user = await this.users.findById(userId, { tokenVersion: 1 }).lean();
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    return signSession(this.jwt, user);
  }

  /**
   * Ends the session of this token, or with `everywhere` every session of its user. A token that is
   * already invalid has nothing to end (a plain logout still succeeds; "everywhere" needs a session).
   */
  async logout(token: string | undefined, everywhere: boolean): Promise<void> {
    const claims = token ? await verifySession(this.jwt, token) : null;
    const user = token ? await activeUserFromToken(this.jwt, this.users, token) : null;
    if (!claims || !user) {
      if (everywhere) throw new DomainError('UNAUTHORIZED', 'Authentication required');
      return;
    }
    if (everywhere) await endAllSessions(this.users, user._id);
    else await endSession(this.users, claims);
  }
}
