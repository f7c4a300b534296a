import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { ThrottlerModule } from '@nestjs/throttler';
import { MongooseModule } from '@nestjs/mongoose';
import { APP_CONFIG, type AppConfig } from '../../config';
import { MongoThrottlerStorage } from '../../common/rate-limit';
import { JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { PasswordResetService } from './password-reset.service';
import { PasswordReset, PasswordResetSchema } from './schemas/password-reset.schema';

type ThrottledRequest = { ip?: string; body?: { email?: unknown } };
const client = (req: Record<string, unknown>) => String((req as ThrottledRequest).ip ?? 'unknown');
const clientAndAccount = (req: Record<string, unknown>) => {
  const email = (req as ThrottledRequest).body?.email;
  return `${client(req)}|${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
};

/** Global so that any module can put JwtAuthGuard (and @Roles) on its routes (it checks tokens through UsersService). */
@Global()
@Module({
  imports: [
    UsersModule,
    MongooseModule.forFeature([{ name: PasswordReset.name, schema: PasswordResetSchema }]),
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
        secret: config.jwt.secret,
        signOptions: { expiresIn: config.jwt.expiresIn as never },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, PasswordResetService, JwtAuthGuard],
  exports: [AuthService, JwtAuthGuard, JwtModule, UsersModule],
})
export class AuthModule {}
