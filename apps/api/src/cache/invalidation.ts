import type { Change, ChangeKind } from '../common/changes';

/** The caches of the API (apps/api/src/cache), as the invalidation table names them. */
export type CacheName =
  | 'answers' // HTTP answers of anonymous public reads (answer-store.ts), with the shared version
  | 'counts' // the catalogue's count of a listing filter (catalogue-reads.ts)
  | 'fragments' // each product's public JSON as the listing sends it (product-fragments.ts)
  | 'recentProducts' // products read moments ago, for the cart's answers (recent-products.ts)
  | 'settings' // the settings document (settings-reads.ts)
  | 'sessions'; // what a token stood for (session-cache.ts: it listens to `account` itself)

const PUBLIC_PRODUCT_DATA: readonly CacheName[] = ['answers', 'counts', 'fragments', 'recentProducts'];

/**
 * The one invalidation table: what each cache of this instance forgets, at once, when the domain
 * says what changed (common/changes). Every cache forgets everything it holds of its kind (nothing
 * is forgotten by id but sessions): a change is rare next to the reads it serves.
 *
 * - `order` forgets what `stock` does: an order's stock moves inside its transaction, and the order
 *   is published once the transaction committed (a read between the two saw the old stock).
 * - Other instances hear of every change but `account` through the shared version (shared-version.ts),
 *   within HOT_CACHE_TTL_MS, and then forget every public-data cache at once; the caches that are not
 *   tied to the version (recent products, settings, sessions) keep nothing longer than that TTL.
 */
export const FORGETS: Readonly<Record<ChangeKind, readonly CacheName[]>> = {
  product: PUBLIC_PRODUCT_DATA,
  stock: PUBLIC_PRODUCT_DATA,
  review: PUBLIC_PRODUCT_DATA,
  order: PUBLIC_PRODUCT_DATA,
  settings: ['answers', 'settings'],
  account: ['sessions'],
};

/** Whether `cache` forgets what it holds at this change. */
export function forgets(change: Change, cache: CacheName): boolean {
  return FORGETS[change.kind].includes(cache);
}

/** Whether other instances must hear of this change (the shared version moves). */
export function isPublicData(change: Change): boolean {
  return change.kind !== 'account';
}
