import { Types } from 'mongoose';
import { RecentProducts } from '../src/cache/recent-products';
import { Changes } from '../src/common/changes';

const product = (stock: number) => ({ _id: new Types.ObjectId(), stock });

/** A shared-version stand-in: `move()` is another instance's write seen through the database. */
function sharedVersion(ttlMs = 2000) {
  const moved: (() => void)[] = [];
  return {
    ttlMs,
    onMoved: (forget: () => void) => void moved.push(forget),
    move: () => moved.forEach((f) => f()),
  };
}

describe('RecentProducts: the products the cart read a moment ago', () => {
  it('keeps a product for the TTL counted from the start of its read', () => {
    const recent = new RecentProducts(sharedVersion(), new Changes());
    const p = product(5);
    const now = 1_000_000;
    recent.keep([p], recent.mark(), now);
    expect(recent.get(p._id.toHexString(), now + 1999)).toBe(p);
    expect(recent.get(p._id.toHexString(), now + 2000)).toBeUndefined();
    expect(recent.size).toBe(0);
  });

  it('forgets everything at a change of products, stock, reviews or orders, and at a move of the shared version', () => {
    const version = sharedVersion();
    const changes = new Changes();
    const recent = new RecentProducts(version, changes);
    const [a, b] = [product(1), product(2)];
    for (const kind of ['product', 'stock', 'review', 'order'] as const) {
      recent.keep([a, b], recent.mark(), Date.now());
      expect(recent.size).toBe(2);
      changes.publish({ kind, ids: [a._id.toHexString()] });
      expect(recent.get(b._id.toHexString())).toBeUndefined();
      expect(recent.size).toBe(0);
    }
    // settings and accounts say nothing about products
    recent.keep([a], recent.mark(), Date.now());
    changes.publish({ kind: 'settings' });
    changes.publish({ kind: 'account' });
    expect(recent.get(a._id.toHexString())).toBe(a);
    version.move(); // another instance's write seen through the shared version
    expect(recent.get(a._id.toHexString())).toBeUndefined();
  });

  it('keeps nothing read across a change', async () => {
    const version = sharedVersion();
    const changes = new Changes();
    const recent = new RecentProducts(version, changes);
    const a = product(1);
    const before = recent.mark();
    changes.publish({ kind: 'stock' }); // the write lands while the read is on its way
    recent.keep([a], before, Date.now());
    expect(recent.get(a._id.toHexString())).toBeUndefined();
    // a read that starts while a write is under way keeps nothing either
    let during = 0;
    await changes.around({ kind: 'product' }, async () => {
      during = recent.mark();
    });
    recent.keep([a], during, Date.now());
    expect(recent.get(a._id.toHexString())).toBeUndefined();
    const again = recent.mark();
    version.move();
    recent.keep([a], again, Date.now());
    expect(recent.get(a._id.toHexString())).toBeUndefined();
  });

  it('is off with a TTL of 0, and bounded in size (the oldest dropped first)', () => {
    const off = new RecentProducts(sharedVersion(0), new Changes());
    const a = product(1);
    off.keep([a], off.mark(), Date.now());
    expect(off.get(a._id.toHexString())).toBeUndefined();
    const small = new RecentProducts(sharedVersion(), new Changes(), 3);
    const four = [product(1), product(2), product(3), product(4)];
    small.keep(four, small.mark(), Date.now());
    expect(small.size).toBe(3);
    expect(small.get(four[0]._id.toHexString())).toBeUndefined();
    expect(small.get(four[3]._id.toHexString())).toBe(four[3]);
  });
});
