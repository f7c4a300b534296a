import type { Change, Changes } from '../common/changes';
import { forgets } from './invalidation';
import type { SharedVersion } from './shared-version';

/**
 * What a catalogue page reads of each of its products (besides the order the index gives): the
 * fields whose change must show on the next read even when made where no change is published
 * (another instance, a script), `updatedAt` standing for every edit made through Mongoose.
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
 * Each product's public view as the catalogue list sends it, kept so that a page that is not among
 * the kept answers costs one query of ids and stamps instead of whole documents, their decoding,
 * views and serialisation. A fragment is used only when the page's own query (run for every
 * request) reads the same stamp for the product (`stampOf`), until this instance hears of a change
 * of products, stock, reviews or orders or the shared version moves, and at most
 * HOT_CACHE_MAX_AGE_MS (default 60 s) after it was made. Bounded by bytes (HOT_CACHE_MAX_BYTES),
 * oldest first.
 */
export class ProductFragments {
  private readonly kept = new Map<string, Fragment>();
  private bytes = 0;
  private generation = 0;

  constructor(
    private readonly version: Pick<SharedVersion, 'maxAgeMs' | 'maxBytes' | 'onMoved'>,
    changes: Pick<Changes, 'listen'>,
  ) {
    const forget = (change: Change) => {
      if (forgets(change, 'fragments')) this.forgetAll();
    };
    changes.listen({ begin: forget, changed: forget });
    version.onMoved(() => this.forgetAll());
  }

  get size(): number {
    return this.kept.size;
  }

  /** Marks the start of a read of documents: `set` keeps nothing read across a change. */
  mark(): number {
    return this.generation;
  }

  /** The fragment of product `id` if it was made from a document with the stamp of `read` and is still valid. */
  get(id: string, read: StampedProduct, now: number): string | undefined {
    const fragment = this.kept.get(id);
    if (fragment === undefined) return undefined;
    if (sameStamp(fragment.stamp, read) && fragment.expires > now) return fragment.json;
    this.drop(id, fragment);
    return undefined;
  }

  /** Keeps the fragment of `doc`, read from the mark `mark` on (not kept if a change came since). */
  set(id: string, doc: StampedProduct, json: string, mark: number, now: number): void {
    if (mark !== this.generation || this.version.maxBytes <= 0) return;
    const previous = this.kept.get(id);
    if (previous) this.drop(id, previous);
    const fragment = {
      stamp: stampOf(doc),
      json,
      expires: now + this.version.maxAgeMs,
      bytes: json.length + id.length + FRAGMENT_OVERHEAD_BYTES,
    };
    this.kept.set(id, fragment);
    this.bytes += fragment.bytes;
    while (this.bytes > this.version.maxBytes && this.kept.size) {
      const [oldestId, oldest] = this.kept.entries().next().value as [string, Fragment];
      this.drop(oldestId, oldest);
    }
  }

  private forgetAll(): void {
    this.generation++;
    this.kept.clear();
    this.bytes = 0;
  }

  private drop(id: string, fragment: Fragment): void {
    this.kept.delete(id);
    this.bytes -= fragment.bytes;
  }
}
