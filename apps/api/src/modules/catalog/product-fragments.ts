import type { HotCache } from '../../common/hot-cache';

/**
 * What a catalogue page reads of each of its products (besides the order the index gives): the
 * fields whose change must show on the next read even when made where `HotCache.bump()` does not
 * run (another instance, a script), `updatedAt` standing for every edit made through Mongoose or the
 * catalogue's own writes.
 */
export const PRODUCT_STAMP_FIELDS = {
  _id: 1,
  updatedAt: 1,
  priceSantim: 1,
  stock: 1,
  rating: 1,
  reviewCount: 1,
} as const;

export interface StampedProduct {
  _id: { toHexString(): string };
  updatedAt?: Date;
  priceSantim?: number;
  stock?: number;
  rating?: number;
  reviewCount?: number;
}

/** The stamp of a product as stored: its fragment is reused only while the page query reads the same. */
interface Stamp {
  updated: number | undefined;
  price: unknown;
  stock: unknown;
  rating: unknown;
  reviews: unknown;
}

function stampOf(doc: StampedProduct): Stamp {
  return {
    updated: doc.updatedAt instanceof Date ? doc.updatedAt.getTime() : undefined,
    price: doc.priceSantim,
    stock: doc.stock,
    rating: doc.rating,
    reviews: doc.reviewCount,
  };
}

/** Whether a product as just read still has the stamp a fragment was made from. */
function sameStamp(stamp: Stamp, doc: StampedProduct): boolean {
  return (
    stamp.updated === (doc.updatedAt instanceof Date ? doc.updatedAt.getTime() : undefined) &&
    stamp.price === doc.priceSantim &&
    stamp.stock === doc.stock &&
    stamp.rating === doc.rating &&
    stamp.reviews === doc.reviewCount
  );
}

interface Fragment {
  stamp: Stamp;
  json: string;
  expires: number;
  bytes: number;
}

/** What a fragment costs besides its JSON (id, stamp, bookkeeping), counted against the byte bound. */
const FRAGMENT_OVERHEAD_BYTES = 256;

/**
 * Each product's public view as the catalogue list sends it (`JSON.stringify(toProductView(doc,
 * origin))`), kept so that a page that is not in the hot cache costs one query of ids and stamps
 * instead of whole documents, their decoding, views and serialisation. A fragment is used only when
 * the page's own query (run for every request) reads the same stamp for the product (`stampOf`),
 * and only until the next public-data write of this instance or move of the shared version
 * (`HotCache.epoch`), and at most `HotCache.maxAgeMs` (HOT_CACHE_MAX_AGE_MS, default 60 s) after it was
 * made. Bounded by bytes (HOT_CACHE_MAX_BYTES), oldest first.
 */
export class ProductFragments {
  private readonly kept = new Map<string, Fragment>();
  private bytes = 0;
  private epoch: number;

  constructor(private readonly hot: Pick<HotCache, 'epoch' | 'maxAgeMs' | 'maxBytes'>) {
    this.epoch = hot.epoch;
  }

  get size(): number {
    return this.kept.size;
  }

  /** The fragment of product `id` if it was made from a document with the stamp of `read` and is still valid. */
  get(id: string, read: StampedProduct, now: number): string | undefined {
    this.follow();
    const fragment = this.kept.get(id);
    if (fragment === undefined) return undefined;
    if (sameStamp(fragment.stamp, read) && fragment.expires > now) return fragment.json;
    this.drop(id, fragment);
    return undefined;
  }

  /** Keeps the fragment of `doc`, read while the epoch was `epoch` (not kept if it moved since). */
  set(id: string, doc: StampedProduct, json: string, epoch: number, now: number): void {
    this.follow();
    if (epoch !== this.epoch || this.hot.maxBytes <= 0) return;
    const previous = this.kept.get(id);
    if (previous) this.drop(id, previous);
    const fragment = {
      stamp: stampOf(doc),
      json,
      expires: now + this.hot.maxAgeMs,
      bytes: json.length + id.length + FRAGMENT_OVERHEAD_BYTES,
    };
    this.kept.set(id, fragment);
    this.bytes += fragment.bytes;
    while (this.bytes > this.hot.maxBytes && this.kept.size) {
      const [oldestId, oldest] = this.kept.entries().next().value as [string, Fragment];
      this.drop(oldestId, oldest);
    }
  }

  /** Forgets everything once the hot cache's epoch moved (a write here, or another instance's). */
  private follow(): void {
    if (this.epoch === this.hot.epoch) return;
    this.epoch = this.hot.epoch;
    this.kept.clear();
    this.bytes = 0;
  }

  private drop(id: string, fragment: Fragment): void {
    this.kept.delete(id);
    this.bytes -= fragment.bytes;
  }
}
