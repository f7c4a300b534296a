import { Inject, Injectable, Optional } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { AuthUser } from '../../common/auth/auth-user';
import { SessionLookup, verifySession } from '../../common/auth/session';
import { SessionsService } from '../users/sessions.service';
import { READ_SESSIONS_EACH_TIME, SESSION_READS, type SessionReads } from './session-reads';

/**
 * The session lookup every guard uses (`SessionLookup`, provided by the auth module): a token's
 * signature and expiry, then its account through SessionsService.activeAccount (one read by _id with
 * a projection), read through `SESSION_READS` (session-reads.ts: the cache module's session cache, which the
 * domain's `account` changes empty).
 */
@Injectable()
export class TokenSessions implements SessionLookup {
  constructor(
    private readonly jwt: JwtService,
    private readonly sessions: SessionsService,
    @Optional() @Inject(SESSION_READS) private readonly reads: SessionReads = READ_SESSIONS_EACH_TIME,
  ) {}

  userFromToken(token: string): Promise<AuthUser | null> {
    return this.reads.session(token, async () => {
      const claims = await verifySession(this.jwt, token);
      if (!claims) return { user: null };
      const user = await this.sessions.activeAccount(claims.sub, claims.ver ?? 0, claims.jti);
      return { user, expSeconds: claims.exp };
    });
  }
}
