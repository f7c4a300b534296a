import { WriteWatch } from '../write-watch';
import type { AuthUser } from './auth-user';

/**
 * What a token stood for a moment ago: its active user, for at most SESSION_CACHE_TTL_MS (default 2 s).
 *
 * Every signed-in request turns its token into a user (signature check and one read of the account);
 * a storefront page makes several such calls at once, and a checkout two in a row. The answer is kept
 * for a short while, keyed by the token itself, and forgotten:
 * - at once on this instance, when anything writes an account (any write through the User model:
 *   logout, log out everywhere, password change or reset, role change, deactivation, profile edit,
 *   deletion); a lookup that began before such a write never stores its answer;
 * - after the TTL on other instances (a logout through instance A admits the token on instance B for
 *   at most the TTL, as the hot cache bounds other instances' catalogue writes);
 * - when the token itself expires.
 * Only successful lookups are kept (a refused token is checked again next time). 0 turns it off.
 */
export class SessionCache {
  private readonly entries = new Map<string, { user: AuthUser; until: number; generation: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The user the token stood for, if known and still fresh. */
  get(token: string, now = Date.now()): AuthUser | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.until <= now || entry.generation !== accountWrites.generation) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.user;
  }

  /** Marks the start of a lookup: pass the mark to `set`, which keeps nothing if an account changed since. */
  mark(): number {
    return accountWrites.generation;
  }

  set(token: string, user: AuthUser, mark: number, expSeconds?: number, now = Date.now()): void {
    if (!this.enabled || mark !== accountWrites.generation) return;
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
    this.entries.set(token, { user, until, generation: mark });
  }
}

/** Moved by every write to the users collection through its model (hooked in user.schema.ts). */
export const accountWrites = new WriteWatch();
