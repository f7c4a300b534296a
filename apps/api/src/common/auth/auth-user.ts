import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The signed-in user as guards attach it to the request. */
export interface AuthUser {
  id: string;
  role: 'customer' | 'admin';
  /** Absent for an account made by phone sign-in (docs/decisions/0064-phone-sign-in.md). */
  email?: string;
  name: string;
  /**
   * Read with the token check (one projection, no extra round trip), for checkout: the profile phone
   * (E.164) and chosen language, each absent when the account has none. Absent as a whole when the
   * user was not loaded by the token check (then whoever needs them reads the account).
   */
  contact?: { phone?: string; language?: string };
}

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
    return ctx.switchToHttp().getRequest<{ user?: AuthUser }>().user;
  },
);
