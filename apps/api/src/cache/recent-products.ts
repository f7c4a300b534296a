import type { Change, Changes } from '../common/changes';
import { forgets } from './invalidation';
import type { SharedVersion } from './shared-version';

/** Where the world stood when a read began: what it read is kept only if no change came in between. */
export type ReadMark = number;

/**
 * Products as this instance last read them by id, for the cart's answers (an add, the cart itself),
 * which otherwise read every line's product on every call. A product is kept for at most
 * HOT_CACHE_TTL_MS from the start of its read, and forgotten at once when this instance hears of a
 * change of products, stock, reviews or orders (the invalidation table), at any write through the
 * Product model in this process (model-writes.ts), and when the shared version moves (another
 * instance wrote). A read that a change overtook keeps nothing. Another instance's
 * write, or one made outside the domain services (a script), thus shows within the TTL, as it does
 * in the HTTP answers; the cart never refuses or drops a line on what it kept (it reads the product
 * again first), and the order reserves stock on the database's figures. A TTL of 0 keeps nothing.
 */
export class RecentProducts<T extends { _id: { toHexString(): string } }> {
  private readonly kept = new Map<string, { product: T; until: number }>();
  private generation = 0;

  constructor(
    private readonly version: Pick<SharedVersion, 'ttlMs' | 'onMoved'>,
    changes: Pick<Changes, 'listen'>,
    private readonly maxEntries = 10_000,
  ) {
    const forget = (change: Change) => {
      if (forgets(change, 'recentProducts')) this.forgetAll();
    };
    changes.listen({ begin: forget, changed: forget });
    version.onMoved(() => this.forgetAll());
  }

  get size(): number {
    return this.kept.size;
  }

  /** Marks the start of a read: hand it to `keep`, which keeps nothing if a change came in between. */
  mark(): ReadMark {
    return this.generation;
  }

  /** The product as kept, if it is. */
  get(id: string, now = Date.now()): T | undefined {
    const entry = this.kept.get(id);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.product;
    this.kept.delete(id);
    return undefined;
  }

  /** Keeps products read from the mark `mark` on (read at `startedAt`). */
  keep(products: readonly T[], mark: ReadMark, startedAt: number): void {
    if (this.version.ttlMs <= 0 || mark !== this.generation) return;
    const until = startedAt + this.version.ttlMs;
    for (const product of products) {
      const id = product._id.toHexString();
      this.kept.delete(id); // a Map iterates in insertion order: the oldest first
      if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(id, { product, until });
    }
  }

  /** Forgets everything; a read under way keeps nothing. */
  forgetAll(): void {
    this.generation++;
    this.kept.clear();
  }
}
