import type { AuthUser } from '../src/common/auth/auth-user';
import { Changes } from '../src/common/changes';
import { SessionCache } from '../src/cache/session-cache';

const user = (id: string): AuthUser => ({ id, role: 'customer', email: `${id}@example.et`, name: id });

function cacheOf(ttlMs: number, maxEntries?: number) {
  const changes = new Changes();
  const cache = new SessionCache({ sessionCacheTtlMs: ttlMs, sessionCacheMaxEntries: maxEntries }, changes);
  return { cache, changes };
}

describe('SessionCache: what a token stood for a moment ago', () => {
  it('answers a token lookup it read through once, and keeps nothing from one an account change overlapped', async () => {
    const { cache, changes } = cacheOf(2000);
    const find = jest.fn(async () => ({ user: user('a') }));
    expect((await cache.session('t', find))?.id).toBe('a');
    expect((await cache.session('t', find))?.id).toBe('a');
    expect(find).toHaveBeenCalledTimes(1);
    // a lookup during which the account changed is answered but not kept
    const during = jest.fn(async () => {
      changes.publish({ kind: 'account', ids: ['b'] });
      return { user: user('b') };
    });
    expect((await cache.session('u', during))?.id).toBe('b');
    await cache.session('u', during);
    expect(during).toHaveBeenCalledTimes(2);
    // a refused token is never kept; with the cache off every lookup reads
    const refused = jest.fn(async () => ({ user: null }));
    await cache.session('x', refused);
    await cache.session('x', refused);
    expect(refused).toHaveBeenCalledTimes(2);
    const off = cacheOf(0).cache;
    await off.session('t', find);
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('remembers a user until the TTL or the token expiry, whichever comes first', () => {
    const { cache } = cacheOf(2000);
    const now = 1_000_000;
    cache.set('a', user('a'), cache.mark(), undefined, now);
    expect(cache.get('a', now + 1999)?.id).toBe('a');
    expect(cache.get('a', now + 2000)).toBeUndefined();
    // a token expiring in one second is remembered one second only
    cache.set('b', user('b'), cache.mark(), (now + 1000) / 1000, now);
    expect(cache.get('b', now + 999)?.id).toBe('b');
    expect(cache.get('b', now + 1000)).toBeUndefined();
    // an expired token is not remembered at all
    cache.set('c', user('c'), cache.mark(), (now - 1) / 1000, now);
    expect(cache.get('c', now)).toBeUndefined();
  });

  it("forgets a user's tokens at once when an 'account' change names the user, and only theirs", () => {
    const { cache, changes } = cacheOf(2000);
    cache.set('a1', user('a'), cache.mark());
    cache.set('a2', user('a'), cache.mark());
    cache.set('b1', user('b'), cache.mark());
    // other kinds of change leave sessions alone
    changes.publish({ kind: 'product', ids: ['a'] });
    changes.publish({ kind: 'settings' });
    expect(cache.get('a1')?.id).toBe('a');
    changes.publish({ kind: 'account', ids: ['a'] });
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')?.id).toBe('b');
    // an account change that names nobody forgets everyone
    changes.publish({ kind: 'account' });
    expect(cache.get('b1')).toBeUndefined();
  });

  it('keeps nothing looked up across an account change, nor during a write announced with around()', async () => {
    const { cache, changes } = cacheOf(2000);
    // a lookup that began before a change (say, a logout) must not store the answer it read before it
    const before = cache.mark();
    changes.publish({ kind: 'account', ids: ['x'] });
    cache.set('b', user('b'), before);
    expect(cache.get('b')).toBeUndefined();
    // a lookup that began while a write was under way keeps nothing either
    let during = -1;
    await changes.around({ kind: 'account', ids: ['c'] }, async () => {
      during = cache.mark();
      cache.set('c', user('c'), during);
    });
    expect(cache.get('c')).toBeUndefined();
    cache.set('c', user('c'), during);
    expect(cache.get('c')).toBeUndefined();
    // a lookup marked after the change is kept
    cache.set('c', user('c'), cache.mark());
    expect(cache.get('c')?.id).toBe('c');
  });

  it('stops listening when the module is destroyed', () => {
    const { cache, changes } = cacheOf(2000);
    cache.set('a', user('a'), cache.mark());
    cache.onModuleDestroy();
    changes.publish({ kind: 'account', ids: ['a'] });
    expect(cache.get('a')?.id).toBe('a');
  });

  it('is off with a TTL of 0, and bounded in size', () => {
    const { cache: off } = cacheOf(0);
    off.set('a', user('a'), off.mark());
    expect(off.enabled).toBe(false);
    expect(off.get('a')).toBeUndefined();
    const { cache: small } = cacheOf(60_000, 10);
    for (let i = 0; i < 25; i++) small.set(`t${i}`, user(`u${i}`), small.mark());
    const kept = Array.from({ length: 25 }, (_, i) => small.get(`t${i}`)).filter(Boolean);
    expect(kept.length).toBeLessThanOrEqual(10);
    expect(small.get('t24')?.id).toBe('u24'); // the newest stay
    expect(small.get('t0')).toBeUndefined(); // the oldest go first
  });
});
