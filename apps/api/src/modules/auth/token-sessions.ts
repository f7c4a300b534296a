import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { AuthUser } from '../../common/auth/auth-user';
import { SessionLookup, verifySession } from '../../common/auth/session';
import { SessionCache } from '../../cache/session-cache';
import { SessionsService } from '../users/sessions.service';

/**
 * The session lookup every guard uses (`SessionLookup`, provided by the auth module): a token's
 * signature and expiry, then its account through SessionsService.activeAccount (one read by _id with
 * a projection), read through the session cache (cache/session-cache.ts), which the domain's
 * `account` changes empty.
 */
@Injectable()
export class TokenSessions implements SessionLookup {
  constructor(
    private readonly jwt: JwtService,
    private readonly sessions: SessionsService,
    private readonly cache: SessionCache,
  ) {}

  async userFromToken(token: string): Promise<AuthUser | null> {
    const cache = this.cache.enabled ? this.cache : undefined;
    // what this token stood for a moment ago
    const known = cache?.get(token);
    if (known) return known;
    const mark = cache?.mark();
    const claims = await verifySession(this.jwt, token);
    if (!claims) return null;
    const user = await this.sessions.activeAccount(claims.sub, claims.ver ?? 0, claims.jti);
    if (user && cache && mark !== undefined) {
      // one object answers several requests: nobody may change it
      Object.freeze(user.contact);
      cache.set(token, Object.freeze(user), mark, claims.exp);
    }
    return user;
  }
}
