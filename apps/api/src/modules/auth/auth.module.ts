import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { createSecretKey } from 'node:crypto';
import { ThrottlerModule } from '@nestjs/throttler';
import { MongooseModule } from '@nestjs/mongoose';
import { normaliseEthiopianPhone } from '@shop/shared';
import { APP_CONFIG, type AppConfig } from '../../config';
import { MongoThrottlerStorage } from '../../common/rate-limit';
import { JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { SessionLookup } from '../../common/auth/session';
import { CartModule } from '../cart/cart.module';
import { OrdersModule } from '../orders/orders.module';
import { UsersModule } from '../users/users.module';
import { WishlistModule } from '../wishlist/wishlist.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { PasswordResetService } from './password-reset.service';
import { PhoneSignInService } from './phone-sign-in.service';
import { PhoneVerificationService } from './phone-verification.service';
import { TokenSessions } from './token-sessions';
import { PasswordReset, PasswordResetSchema } from './schemas/password-reset.schema';
import { PhoneSignIn, PhoneSignInSchema } from './schemas/phone-sign-in.schema';
import { PhoneVerification, PhoneVerificationSchema } from './schemas/phone-verification.schema';

type ThrottledRequest = { ip?: string; body?: { email?: unknown; phone?: unknown } };
const client = (req: Record<string, unknown>) => String((req as ThrottledRequest).ip ?? 'unknown');
const clientAndAccount = (req: Record<string, unknown>) => {
  // the account is named by its email, or by its phone for phone sign-in
  const { email, phone } = (req as ThrottledRequest).body ?? {};
  const account =
    typeof email === 'string'
      ? email
      : typeof phone === 'string'
        ? (normaliseEthiopianPhone(phone) ?? phone)
        : '';
  return `${client(req)}|${account.trim().toLowerCase()}`;
};

/**
 * Global so that any module can put JwtAuthGuard (and @Roles) on its routes: it provides the
 * `SessionLookup` the guards of common/ use (TokenSessions: the token, then the account through
 * SessionsService, read through the session cache).
 */
@Global()
@Module({
  imports: [
    UsersModule,
    // a verified phone attaches the guest orders placed with it
    OrdersModule,
    // the shopper summary (GET /auth/session) reads the cart and the wishlist through their services
    CartModule,
    WishlistModule,
    MongooseModule.forFeature([
      { name: PasswordReset.name, schema: PasswordResetSchema },
      { name: PhoneVerification.name, schema: PhoneVerificationSchema },
      { name: PhoneSignIn.name, schema: PhoneSignInSchema },
    ]),
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, MongoThrottlerStorage],
      useFactory: (config: AppConfig, storage: MongoThrottlerStorage) => ({
        // counted in the database, so that every API instance sees the same counts
        storage,
        throttlers: [
          // per client and account: guessing one account's password is stopped...
          { name: 'auth', ttl: 60_000, limit: config.authRateLimit, getTracker: clientAndAccount },
          // ...without locking out everyone behind one shared mobile-network address, which gets ten times more
          { name: 'authClient', ttl: 60_000, limit: config.authRateLimit * 10, getTracker: client },
        ],
        errorMessage: 'Too many attempts, please try again in a minute',
      }),
    }),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        // A key object made once: given the secret as text, jsonwebtoken first tries to read it as a
        // PEM public key (and fails, building an error with its stack) on every verification, which
        // was a tenth of the CPU of a signed-in request (docs/quality.md, issue 18 point 2).
        secret: createSecretKey(Buffer.from(config.jwt.secret, 'utf8')),
        signOptions: { expiresIn: config.jwt.expiresIn as never },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    PasswordResetService,
    PhoneVerificationService,
    PhoneSignInService,
    { provide: SessionLookup, useClass: TokenSessions },
    JwtAuthGuard,
  ],
  exports: [AuthService, SessionLookup, JwtAuthGuard, JwtModule, UsersModule],
})
export class AuthModule {}
