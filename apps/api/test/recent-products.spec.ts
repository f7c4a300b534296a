import { Types } from 'mongoose';
import { RecentProducts, productWrites } from '../src/modules/catalog/recent-products';

const product = (stock: number) => ({ _id: new Types.ObjectId(), stock });

/** A HotCache stand-in: its epoch moves when this instance writes public data or another instance wrote. */
const hotCache = (ttlMs = 2000) => ({ epoch: 0, ttlMs });

describe('RecentProducts: the products the cart read a moment ago', () => {
  it('keeps a product for the TTL counted from the start of its read', () => {
    const recent = new RecentProducts(hotCache());
    const p = product(5);
    const now = 1_000_000;
    recent.keep([p], recent.mark(), now);
    expect(recent.get(p._id.toHexString(), now + 1999)).toBe(p);
    expect(recent.get(p._id.toHexString(), now + 2000)).toBeUndefined();
    expect(recent.size).toBe(0);
  });

  it('forgets everything at a product write through the model, and at a move of the public-data epoch', () => {
    const hot = hotCache();
    const recent = new RecentProducts(hot);
    const [a, b] = [product(1), product(2)];
    recent.keep([a, b], recent.mark(), Date.now());
    expect(recent.size).toBe(2);
    productWrites.note();
    expect(recent.get(a._id.toHexString())).toBeUndefined();
    expect(recent.size).toBe(0);
    recent.keep([a], recent.mark(), Date.now());
    expect(recent.get(a._id.toHexString())).toBe(a);
    hot.epoch++; // stock reserved by an order, or another instance's write seen through the shared version
    expect(recent.get(a._id.toHexString())).toBeUndefined();
  });

  it('keeps nothing read across a write', () => {
    const hot = hotCache();
    const recent = new RecentProducts(hot);
    const a = product(1);
    const before = recent.mark();
    productWrites.note(); // the write lands while the read is on its way
    recent.keep([a], before, Date.now());
    expect(recent.get(a._id.toHexString())).toBeUndefined();
    const again = recent.mark();
    hot.epoch++;
    recent.keep([a], again, Date.now());
    expect(recent.get(a._id.toHexString())).toBeUndefined();
  });

  it('is off with a TTL of 0, and bounded in size (the oldest dropped first)', () => {
    const off = new RecentProducts(hotCache(0));
    const a = product(1);
    off.keep([a], off.mark(), Date.now());
    expect(off.get(a._id.toHexString())).toBeUndefined();
    const small = new RecentProducts(hotCache(), 3);
    const four = [product(1), product(2), product(3), product(4)];
    small.keep(four, small.mark(), Date.now());
    expect(small.size).toBe(3);
    expect(small.get(four[0]._id.toHexString())).toBeUndefined();
    expect(small.get(four[3]._id.toHexString())).toBe(four[3]);
  });
});
