import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import type { SessionFound, SessionReads } from '../modules/auth/session-reads';
import { Changes, type Change } from '../common/changes';
import { APP_CONFIG, type AppConfig } from '../config';

/** At most this many tokens are remembered; beyond it the oldest tenth is dropped. */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

/**
 * What a token stood for a moment ago: its active user, for at most SESSION_CACHE_TTL_MS (default 2 s).
 *
 * Every signed-in request turns its token into a user (signature check and one read of the account);
 * a storefront page makes several such calls at once, and a checkout two in a row. The answer is kept
 * for a short while, keyed by the token itself, and forgotten:
 * - at once on this instance, when the domain says an account changed (`Changes`, kind `account`:
 *   sign-out, sign-out everywhere, password change or reset, role change, deactivation, profile edit,
 *   deletion): that user's tokens, or every token when the change names no user; a lookup that began
 *   before such a change never stores its answer;
 * - after the TTL for a change this instance did not hear of (another instance's, or a write outside
 *   the services): a logout through instance A admits the token on instance B for at most the TTL;
 * - when the token itself expires.
 * Only successful lookups are kept (a refused token is checked again next time). 0 turns it off.
 * The guard's session lookup (modules/auth/token-sessions.ts) reads through it (`SESSION_READS`); no domain service
 * calls it.
 */
@Injectable()
export class SessionCache implements SessionReads, OnModuleDestroy {
  private readonly entries = new Map<string, { user: AuthUser; until: number }>();
  /** Moved by every account change heard: a lookup marked before one keeps nothing. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly unlisten: () => void;

  constructor(
    @Inject(APP_CONFIG)
    config: Pick<AppConfig, 'sessionCacheTtlMs'> & { sessionCacheMaxEntries?: number },
    changes: Changes,
  ) {
    this.ttlMs = config.sessionCacheTtlMs;
    this.maxEntries = config.sessionCacheMaxEntries ?? SESSION_CACHE_MAX_ENTRIES;
    this.unlisten = changes.listen({
      begin: (change) => {
        if (change.kind === 'account') this.generation++;
      },
      changed: (change) => {
        if (change.kind === 'account') this.forget(change);
      },
    });
  }

  onModuleDestroy(): void {
    this.unlisten();
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The token's user as found a moment ago, or found now (and kept unless an account changed meanwhile). */
  async session(token: string, find: () => Promise<SessionFound>): Promise<AuthUser | null> {
    if (!this.enabled) return (await find()).user;
    const known = this.get(token);
    if (known) return known;
    const mark = this.mark();
    const { user, expSeconds } = await find();
    if (user) {
      // one object answers several requests: nobody may change it
      Object.freeze(user.contact);
      this.set(token, Object.freeze(user), mark, expSeconds);
    }
    return user;
  }

  /** The user the token stood for, if known and still fresh. */
  get(token: string, now = Date.now()): AuthUser | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.user;
  }

  /** Marks the start of a lookup: pass the mark to `set`, which keeps nothing if an account changed since. */
  mark(): number {
    return this.generation;
  }

  set(token: string, user: AuthUser, mark: number, expSeconds?: number, now = Date.now()): void {
    if (!this.enabled || mark !== this.generation) return;
    const until = Math.min(now + this.ttlMs, expSeconds ? expSeconds * 1000 : Infinity);
    if (until <= now) return;
    if (this.entries.size >= this.maxEntries) {
      // drop the oldest entries (a Map iterates in insertion order)
      let drop = Math.ceil(this.maxEntries / 10);
      for (const key of this.entries.keys()) {
        this.entries.delete(key);
        if (--drop <= 0) break;
      }
    }
    this.entries.set(token, { user, until });
  }

  /** An account change: its users' tokens are forgotten (all of them when it names no user). */
  private forget(change: Change): void {
    this.generation++;
    if (!change.ids) {
      this.entries.clear();
      return;
    }
    const users = new Set(change.ids);
    for (const [token, entry] of this.entries) if (users.has(entry.user.id)) this.entries.delete(token);
  }
}
