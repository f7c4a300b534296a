import type { JwtService } from '@nestjs/jwt';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { Types, type Model } from 'mongoose';
import type { User } from '../../modules/users/schemas/user.schema';

/**
 * Sessions that can be ended (issue 16, docs/decisions.md). A token carries its user's token
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

/** Revoked token ids kept per user; beyond this many unexpired ones, a logout ends every session. */
export const MAX_REVOKED_TOKENS = 50;

/** The user fields the per-request check reads: a projection keeps the hot path light. */
export const SESSION_PROJECTION = { name: 1, email: 1, role: 1, isActive: 1, tokenVersion: 1 } as const;

export type SessionUser = Pick<User, 'name' | 'email' | 'role' | 'isActive' | 'tokenVersion'> & {
  _id: Types.ObjectId;
};

export function signSession(jwt: JwtService, user: { _id: unknown; tokenVersion?: number }): Promise<string> {
  return jwt.signAsync({ sub: String(user._id), ver: user.tokenVersion ?? 0 }, { jwtid: randomUUID() });
}

/** The claims of a token with a valid signature and expiry, or null. */
export async function verifySession(jwt: JwtService, token: string): Promise<SessionClaims | null> {
  try {
    const claims = await jwt.verifyAsync<SessionClaims>(token);
    if (typeof claims?.sub !== 'string' || !Types.ObjectId.isValid(claims.sub)) return null;
    if (claims.ver !== undefined && !Number.isSafeInteger(claims.ver)) return null;
    return claims;
  } catch {
    return null;
  }
}

/**
 * The active user a token stands for, or null when the token is invalid or expired, revoked, older
 * than its user's token version, or its user is gone or deactivated. One indexed read by _id with
 * a projection. The one place a token is turned into a user (JwtAuthGuard, MaintenanceGuard).
 */
export async function activeUserFromToken(
  jwt: JwtService,
  users: Model<User>,
  token: string,
): Promise<SessionUser | null> {
  const claims = await verifySession(jwt, token);
  if (!claims) return null;
  const filter: Record<string, unknown> = { _id: new Types.ObjectId(claims.sub), isActive: true };
  if (claims.jti) filter['revokedTokens.jti'] = { $ne: claims.jti };
  const user = (await users.findOne(filter, SESSION_PROJECTION).lean().exec()) as SessionUser | null;
  if (!user || (user.tokenVersion ?? 0) !== (claims.ver ?? 0)) return null;
  return user;
}

/** Ends every session of a user: each token issued before is refused from the next request on. */
export async function endAllSessions(users: Model<User>, userId: unknown): Promise<void> {
  await users.updateOne({ _id: userId }, { $inc: { tokenVersion: 1 } }).exec();
}

/**
 * Ends the session of one token: its id is revoked until the token's own expiry (expired entries
 * are dropped first). A token without an id (issued before ids) or a full list ends them all.
 */
export async function endSession(users: Model<User>, claims: SessionClaims): Promise<void> {
  const _id = new Types.ObjectId(claims.sub);
  if (!claims.jti) return endAllSessions(users, _id);
  await users.updateOne({ _id }, { $pull: { revokedTokens: { expiresAt: { $lt: new Date() } } } }).exec();
  const expiresAt = new Date((claims.exp ?? Date.now() / 1000 + 7 * 24 * 3600) * 1000);
  const pushed = await users
    .updateOne(
      { _id, [`revokedTokens.${MAX_REVOKED_TOKENS - 1}`]: { $exists: false } },
      { $push: { revokedTokens: { jti: claims.jti, expiresAt } } },
    )
    .exec();
  if (!pushed.matchedCount) await endAllSessions(users, _id);
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
