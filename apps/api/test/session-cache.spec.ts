import type { AuthUser } from '../src/common/auth/auth-user';
import { SessionCache, accountWrites } from '../src/common/auth/session-cache';

const noteAccountWrite = accountWrites.note;

const user = (id: string): AuthUser => ({ id, role: 'customer', email: `${id}@example.et`, name: id });

describe('SessionCache: what a token stood for a moment ago', () => {
  it('remembers a user until the TTL or the token expiry, whichever comes first', () => {
    const cache = new SessionCache(2000);
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

  it('forgets everything when an account is written, and keeps nothing looked up across a write', () => {
    const cache = new SessionCache(2000);
    cache.set('a', user('a'), cache.mark());
    expect(cache.get('a')?.id).toBe('a');
    noteAccountWrite();
    expect(cache.get('a')).toBeUndefined();
    // a lookup that began before a write (say, a logout) must not store the answer it read before it
    const mark = cache.mark();
    noteAccountWrite();
    cache.set('b', user('b'), mark);
    expect(cache.get('b')).toBeUndefined();
  });

  it('is off with a TTL of 0, and bounded in size', () => {
    const off = new SessionCache(0);
    off.set('a', user('a'), off.mark());
    expect(off.enabled).toBe(false);
    expect(off.get('a')).toBeUndefined();
    const small = new SessionCache(60_000, 10);
    for (let i = 0; i < 25; i++) small.set(`t${i}`, user(`u${i}`), small.mark());
    const kept = Array.from({ length: 25 }, (_, i) => small.get(`t${i}`)).filter(Boolean);
    expect(kept.length).toBeLessThanOrEqual(10);
    expect(small.get('t24')?.id).toBe('u24'); // the newest stay
    expect(small.get('t0')).toBeUndefined(); // the oldest go first
  });
});
