import type { HotCache } from '../../common/hot-cache';
import { WriteWatch } from '../../common/write-watch';

/** Moved by every write to the products collection through its model (hooked in product.schema.ts). */
export const productWrites = new WriteWatch();

/** Where the world stood when a read began: a kept product is valid only while both stand there. */
export interface ReadMark {
  writes: number;
  epoch: number;
}

/**
 * Products as this instance last read them by id, for the cart's answers (an add, the cart itself),
 * which otherwise read every line's product on every call. A product is kept for at most
 * HOT_CACHE_TTL_MS from the start of its read, and forgotten at once when this instance writes any
 * product (`productWrites`: every write through the Product model) or public data (`HotCache.epoch`:
 * stock reserved or given back, reviews, settings), and when the shared version moves (another
 * instance wrote). A read that a write overtook keeps nothing. Another instance's write thus shows
 * within the TTL, as it does in the hot cache; the cart never refuses or drops a line on what it kept
 * (it reads the product again first), and the order reserves stock on the database's figures.
 * A TTL of 0 keeps nothing.
 */
export class RecentProducts<T extends { _id: { toHexString(): string } }> {
  private readonly kept = new Map<string, { product: T; until: number }>();
  private mark_: ReadMark = { writes: productWrites.generation, epoch: 0 };

  constructor(
    private readonly hot: Pick<HotCache, 'epoch' | 'ttlMs'>,
    private readonly maxEntries = 10_000,
  ) {
    this.mark_.epoch = hot.epoch;
  }

  get size(): number {
    this.follow();
    return this.kept.size;
  }

  /** Marks the start of a read: hand it to `keep`, which keeps nothing if a write came in between. */
  mark(): ReadMark {
    return { writes: productWrites.generation, epoch: this.hot.epoch };
  }

  /** The product as kept, if it is. */
  get(id: string, now = Date.now()): T | undefined {
    this.follow();
    const entry = this.kept.get(id);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.product;
    this.kept.delete(id);
    return undefined;
  }

  /** Keeps products read from the mark `mark` on (read at `startedAt`). */
  keep(products: readonly T[], mark: ReadMark, startedAt: number): void {
    this.follow();
    if (this.hot.ttlMs <= 0 || mark.writes !== this.mark_.writes || mark.epoch !== this.mark_.epoch) return;
    const until = startedAt + this.hot.ttlMs;
    for (const product of products) {
      const id = product._id.toHexString();
      this.kept.delete(id); // a Map iterates in insertion order: the oldest first
      if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(id, { product, until });
    }
  }

  /** Forgets everything when a product or public data was written since the last look. */
  private follow(): void {
    const writes = productWrites.generation;
    const epoch = this.hot.epoch;
    if (writes === this.mark_.writes && epoch === this.mark_.epoch) return;
    this.kept.clear();
    this.mark_ = { writes, epoch };
  }
}
