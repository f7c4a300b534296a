import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { Response } from 'express';
import { SessionLookup, signSession, verifySession } from '../../common/auth/session';
import { isStrongEnough } from '@shop/shared';
import * as bcrypt from 'bcryptjs';
import { timingSafeEqual, createHash } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config';
import type { AuthUser } from '../../common/auth/auth-user';
import { DomainError, InvalidDataError } from '../../common/errors/domain-error';
import { AccountsService } from '../users/accounts.service';
import { SessionsService } from '../users/sessions.service';
import { BCRYPT_ROUNDS, ethiopianPhone, toUserView } from '../users/user.view';
import type { LoginDto, RegisterAdminDto, RegisterDto } from './dto/auth.dto';

export { BCRYPT_ROUNDS, DUPLICATE_EMAIL, ethiopianPhone, toUserView } from '../users/user.view';
export const INVALID_CREDENTIALS = 'Invalid email or password';
/** Compared against when the email is unknown, so both failures take the same time. */
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_ROUNDS);

/** What every account creation needs; name may come as first and last name. */
export interface NewAccount {
  name?: string;
  firstName?: string;
  lastName?: string;
  email: string;
  password: string;
  phone?: string;
  /** The language of the account's messages (the sign-up page's). */
  language?: 'en' | 'am';
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
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly lookup: SessionLookup,
    private readonly jwt: JwtService,
  ) {}

  /**
   * The sign-up form of docs/product.md §7: a customer's registration; its client-only fields (role
   * 'customer', an empty adminSecret, confirmPassword) are accepted. Role 'admin' is the admin
   * registration with its secret key rules.
   */
  async register(dto: RegisterDto) {
    if (dto.role === 'admin') return this.registerAdmin(dto, 'adminSecret');
    if (dto.confirmPassword !== undefined && dto.confirmPassword !== dto.password) {
      throw new InvalidDataError(
        'Passwords do not match',
        [{ field: 'confirmPassword', message: 'Passwords do not match' }],
        'PASSWORDS_DO_NOT_MATCH',
      );
    }
    return this.createAccount(dto, 'customer');
  }

  /** Admin registration: needs the configured secret key; the password rules apply too. */
  async registerAdmin(dto: RegisterAdminDto, secretField = 'adminSecretKey') {
    const secret = dto.adminSecretKey || dto.adminSecret;
    if (!secret) {
      throw new InvalidDataError(
        'Admin secret key is required',
        [{ field: secretField, message: 'Admin secret key is required' }],
        'ADMIN_SECRET_REQUIRED',
      );
    }
    if (!sameSecret(secret, this.config.adminSecretKey)) {
      throw new DomainError('FORBIDDEN', 'Admin registration failed', undefined, 'ADMIN_REGISTRATION_FAILED');
    }
    return this.createAccount(dto, 'admin');
  }

  /** Password rules (docs/product.md §5) hold for every account the server creates. */
  private async createAccount(dto: RegisterDto, role: 'customer' | 'admin') {
    const user = await this.createUser(dto, role);
    return { user, token: await signSession(this.jwt, { _id: user._id, tokenVersion: 0 }) };
  }

  /**
   * Creates an account without signing it in (registration and the back office's "Add User"):
   * strength rule, name from name or first and last name, Ethiopian phone, unique email.
   */
  async createUser(dto: NewAccount, role: 'customer' | 'admin', actor?: AuthUser) {
    if (!isStrongEnough(dto.password)) {
      throw new InvalidDataError(
        'Please choose a stronger password',
        [{ field: 'password', message: 'Please choose a stronger password' }],
        'WEAK_PASSWORD',
      );
    }
    const name = (dto.name ?? [dto.firstName, dto.lastName].filter(Boolean).join(' ')).trim();
    if (!name)
      throw new InvalidDataError(
        'Validation failed',
        [{ field: 'name', message: 'name is required', code: 'REQUIRED' }],
        'REQUIRED',
      );
    const phone = dto.phone ? ethiopianPhone(dto.phone) : undefined;
    const email = dto.email.trim().toLowerCase();
    await this.accounts.assertEmailFree(email);
    const passwordHash = await bcrypt.hash(dto.password, BCRYPT_ROUNDS);
    const language = dto.language === 'en' || dto.language === 'am' ? dto.language : undefined;
    return this.accounts.createAccount(
      { name, email, phone, passwordHash, role, ...(language ? { language } : {}) },
      actor,
    );
  }

  /** Same answer for an unknown email and a wrong password; the sign-in role choice is honoured. */
  async login(dto: LoginDto) {
    const user = await this.sessions.findWithPasswordHash(dto.email);
    const ok = await bcrypt.compare(dto.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok)
      throw new DomainError('UNAUTHORIZED', INVALID_CREDENTIALS, undefined, 'INVALID_CREDENTIALS');
    if (dto.role === 'admin' && user.role !== 'admin')
      throw new DomainError('UNAUTHORIZED', INVALID_CREDENTIALS, undefined, 'INVALID_CREDENTIALS');
    if (!user.isActive)
      throw new DomainError(
        'FORBIDDEN',
        'This account has been deactivated',
        undefined,
        'ACCOUNT_DEACTIVATED',
      );
    return { user: toUserView(user), token: await signSession(this.jwt, user) };
  }

  me(id: string) {
    return this.accounts.me(id);
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
    const tokenVersion = await this.sessions.tokenVersionOf(userId);
    if (tokenVersion === null)
      throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
    return signSession(this.jwt, { _id: userId, tokenVersion });
  }

  /**
   * Ends the session of this token, or with `everywhere` every session of its user. A token that is
   * already invalid has nothing to end (a plain logout still succeeds; "everywhere" needs a session).
   */
  async logout(token: string | undefined, everywhere: boolean): Promise<void> {
    const claims = token ? await verifySession(this.jwt, token) : null;
    const user = token ? await this.lookup.userFromToken(token) : null;
    if (!claims || !user) {
      if (everywhere)
        throw new DomainError('UNAUTHORIZED', 'Authentication required', undefined, 'AUTH_REQUIRED');
      return;
    }
    if (everywhere) await this.sessions.endAllSessions(user.id);
    else await this.sessions.endSession(user.id, claims.jti, claims.exp);
  }
}
