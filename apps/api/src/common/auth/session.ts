import type { JwtService } from '@nestjs/jwt';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import type { AuthUser } from './auth-user';

/**
 * Sessions that can be ended (docs/decisions/0014-sessions.md). A token carries its user's token
 * version (`ver`) and an id (`jti`). The one token→user check admits it only while the user is
 * active, still has that version and has not revoked that id: a password change, "log out
 * everywhere", a deactivation and a role change bump the version (every earlier token dies); a
 * plain logout revokes just its own id, kept on the user until the token would have expired anyway.
 */
export interface SessionClaims {
  sub: string;
  /** The user's token version when the token was issued (absent on tokens from before versions: 0). */
  ver?: number;
  jti?: string;
  exp?: number;
}

export function signSession(jwt: JwtService, user: { _id: unknown; tokenVersion?: number }): Promise<string> {
  return jwt.signAsync({ sub: String(user._id), ver: user.tokenVersion ?? 0 }, { jwtid: randomUUID() });
}

/** The claims of a token with a valid signature and expiry, or null. */
export async function verifySession(jwt: JwtService, token: string): Promise<SessionClaims | null> {
  try {
    const claims = await jwt.verifyAsync<SessionClaims>(token);
    if (typeof claims?.sub !== 'string' || !Types.ObjectId.isValid(claims.sub)) return null;
    if (claims.ver !== undefined && !Number.isSafeInteger(claims.ver)) return null;
    if (claims.jti !== undefined && typeof claims.jti !== 'string') return null;
    return claims;
  } catch {
    return null;
  }
}

/**
 * Turns a token into the active user it stands for, or null when the token is invalid or expired,
 * revoked, older than its user's token version, or its user is gone or deactivated. The one place a
 * token is turned into a user (JwtAuthGuard, the maintenance guard, the cart's owner guard, logout);
 * the auth module provides it (modules/auth/token-sessions.ts), so that `common/` needs no module.
 */
export abstract class SessionLookup {
  abstract userFromToken(token: string): Promise<AuthUser | null>;
}

/** The token from `Authorization: Bearer` or, failing that, the httpOnly `token` cookie. */
export function tokenFrom(request: Request): string | undefined {
  return sessionToken(request)?.token;
}

/** The token with where it came from: a cookie-authenticated write needs the CSRF checks. */
export function sessionToken(request: Request): { token: string; from: 'bearer' | 'cookie' } | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    return token ? { token, from: 'bearer' } : undefined;
  }
  const cookie = (request.cookies as Record<string, unknown> | undefined)?.token;
  return typeof cookie === 'string' && cookie ? { token: cookie, from: 'cookie' } : undefined;
}
