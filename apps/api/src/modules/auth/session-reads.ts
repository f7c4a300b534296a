import type { AuthUser } from '../../common/auth/auth-user';

/** What a token lookup found: the active user (or none) and when the token expires (seconds). */
export interface SessionFound {
  user: AuthUser | null;
  expSeconds?: number;
}

/**
 * The token lookup that may be answered from what this instance found a moment ago: the auth module
 * declares it and reads through it, the cache module (apps/api/src/cache/session-cache.ts) supplies it
 * and forgets on the `account` changes the users module publishes. Without a cache module,
 * `READ_SESSIONS_EACH_TIME` looks up each time.
 */
export interface SessionReads {
  session(token: string, find: () => Promise<SessionFound>): Promise<AuthUser | null>;
}

/** The injection token of the session read (provided by the cache module). */
export const SESSION_READS = 'SessionReads';

export const READ_SESSIONS_EACH_TIME: SessionReads = {
  session: async (_token, find) => (await find()).user,
};
