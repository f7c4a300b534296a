import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Types } from 'mongoose';
import { Changes, type Change } from '../common/changes';
import type { CatalogueReads, ListedProduct, LoadProducts } from '../modules/catalog/catalogue-reads';
import type { CatalogProduct } from '../modules/catalog/catalog.types';
import { forgets } from './invalidation';
import { onModelWrite } from './model-writes';
import { PRODUCT_STAMP_FIELDS, ProductFragments } from './product-fragments';
import { RecentProducts } from './recent-products';
import { SharedVersion } from './shared-version';

/** Counts kept at most (a number and a key each). */
const MAX_COUNTS = 10000;

/**
 * The catalogue's reads (modules/catalog/catalogue-reads.ts) answered from what this instance read
 * before where the invalidation table allows it:
 * - `count`: the count of a listing filter, shared by all its pages, kept as an answer is (until a
 *   change of products, stock, reviews or orders here, a move of the shared version, HOT_CACHE_MAX_AGE_MS);
 *   a count that a change overtook is answered but not kept; off with HOT_CACHE_TTL_MS=0;
 * - `listedJson`: each listed product's JSON from `ProductFragments` while its stamp is the one read;
 * - `recentByIds` / `freshByIds`: products read moments ago (`RecentProducts`, HOT_CACHE_TTL_MS), also
 *   forgotten at any write through the Product model in this process (model-writes.ts).
 */
@Injectable()
export class CachedCatalogueReads implements CatalogueReads, OnModuleDestroy {
  readonly listedFields = PRODUCT_STAMP_FIELDS;
  private readonly counts = new Map<string, { value: number; expires: number }>();
  private countsGeneration = 0;
  private readonly fragments: ProductFragments;
  private readonly recent: RecentProducts<CatalogProduct>;
  private readonly unwatch: () => void;

  constructor(
    private readonly version: SharedVersion,
    changes: Changes,
  ) {
    this.fragments = new ProductFragments(version, changes);
    this.recent = new RecentProducts<CatalogProduct>(version, changes);
    const forget = (change: Change) => {
      if (!forgets(change, 'counts')) return;
      this.countsGeneration++;
      this.counts.clear();
    };
    changes.listen({ begin: forget, changed: forget });
    version.onMoved(() => forget({ kind: 'product' }));
    this.unwatch = onModelWrite('products', () => this.recent.forgetAll());
  }

  onModuleDestroy(): void {
    this.unwatch();
  }

  async count(key: string, count: () => Promise<number>): Promise<number> {
    if (!this.version.ttlMs) return count();
    const started = Date.now();
    const kept = this.counts.get(key);
    if (kept && this.version.vouches(kept.expires, started)) return kept.value;
    const generation = this.countsGeneration;
    const value = await count();
    if (generation === this.countsGeneration) {
      if (kept) this.counts.delete(key);
      if (this.counts.size >= MAX_COUNTS) this.counts.delete(this.counts.keys().next().value as string);
      this.counts.set(key, { value, expires: started + this.version.lifeMs });
    }
    return value;
  }

  onChangedElsewhere(listener: () => void): void {
    this.version.onMoved(listener);
  }

  async listedJson(
    listed: readonly ListedProduct[],
    load: LoadProducts,
    render: (doc: CatalogProduct) => string,
  ): Promise<(string | undefined)[]> {
    const now = Date.now();
    const parts = new Array<string | undefined>(listed.length);
    let missing: Types.ObjectId[] | undefined;
    for (let i = 0; i < listed.length; i++) {
      const json = this.fragments.get(listed[i]._id.toHexString(), listed[i], now);
      if (json === undefined) (missing ??= []).push(listed[i]._id);
      else parts[i] = json;
    }
    if (!missing) return parts;
    const mark = this.fragments.mark();
    const docs = new Map((await load(missing)).map((doc) => [doc._id.toHexString(), doc]));
    for (let i = 0; i < listed.length; i++) {
      if (parts[i] !== undefined) continue;
      const id = listed[i]._id.toHexString();
      const doc = docs.get(id);
      if (!doc) continue; // deleted for good in between: as if read a moment later
      const json = render(doc);
      this.fragments.set(id, doc, json, mark, now);
      parts[i] = json;
    }
    return parts;
  }

  async recentByIds(
    ids: readonly Types.ObjectId[],
    load: LoadProducts,
    readNow?: Set<string>,
  ): Promise<Map<string, CatalogProduct>> {
    const now = Date.now();
    const found = new Map<string, CatalogProduct>();
    let missing: Types.ObjectId[] | undefined;
    for (const id of ids) {
      const key = id.toHexString();
      const kept = this.recent.get(key, now);
      if (kept) found.set(key, kept);
      else (missing ??= []).push(id);
    }
    if (missing) {
      for (const [key, product] of await this.freshByIds(missing, load)) found.set(key, product);
      if (readNow) for (const id of missing) readNow.add(id.toHexString());
    }
    return found;
  }

  async freshByIds(ids: readonly Types.ObjectId[], load: LoadProducts): Promise<Map<string, CatalogProduct>> {
    const mark = this.recent.mark();
    const startedAt = Date.now();
    const products = await load(ids);
    this.recent.keep(products, mark, startedAt);
    return new Map(products.map((p) => [p._id.toHexString(), p]));
  }
}
