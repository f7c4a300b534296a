import type { Types } from 'mongoose';
import type { CatalogProduct } from './catalog.types';

/** A listed product as the listing's page query reads it: its id and the fields of `CatalogueReads.listedFields`. */
export type ListedProduct = Partial<CatalogProduct> & { _id: Types.ObjectId };

/** Reads documents of products by id. */
export type LoadProducts = (ids: readonly Types.ObjectId[]) => Promise<CatalogProduct[]>;

/**
 * The catalogue's reads that may be answered from what this instance read before: the catalogue
 * declares them and reads through them, the cache module (apps/api/src/cache/catalogue-reads.ts)
 * supplies them and decides, from the changes the catalogue publishes, what it may keep. Without a
 * cache module, `READ_EVERYTHING` reads each time.
 */
export interface CatalogueReads {
  /** Fields the listing's page query reads of each listed product, besides its id and place. */
  readonly listedFields: Readonly<Record<string, 1>>;
  /** The count of active products matching a listing filter (`key` tells filters apart). */
  count(key: string, count: () => Promise<number>): Promise<number>;
  /**
   * Each listed product's public JSON, in order (`render` makes it from a document); `load` reads
   * the documents of the products whose JSON is not known for what the page query read of them.
   * A product gone in between has no JSON (undefined).
   */
  listedJson(
    listed: readonly ListedProduct[],
    load: LoadProducts,
    render: (doc: CatalogProduct) => string,
  ): Promise<(string | undefined)[]>;
  /**
   * Products by id (every field) as read moments ago where known: for answers, never for a decision
   * that must be exact. Only the others are read (`load`), in one query; their ids go to `readNow`.
   */
  recentByIds(
    ids: readonly Types.ObjectId[],
    load: LoadProducts,
    readNow?: Set<string>,
  ): Promise<Map<string, CatalogProduct>>;
  /** Products by id read now (`load`), known from then on to `recentByIds`. */
  freshByIds(ids: readonly Types.ObjectId[], load: LoadProducts): Promise<Map<string, CatalogProduct>>;
  /**
   * Calls `listener` whenever another API instance changed public data (the shared version moved:
   * within HOT_CACHE_TTL_MS of its write), for what this instance keeps itself (the search index).
   */
  onChangedElsewhere?(listener: () => void): void;
}

/** The injection token of the catalogue's reads (provided by the cache module). */
export const CATALOGUE_READS = 'CatalogueReads';

const byId = (products: CatalogProduct[]) => new Map(products.map((p) => [p._id.toHexString(), p]));

/** Every read reads the database. */
export const READ_EVERYTHING: CatalogueReads = {
  listedFields: { _id: 1 },
  count: (_key, count) => count(),
  async listedJson(listed, load, render) {
    const docs = byId(await load(listed.map((p) => p._id)));
    return listed.map((p) => {
      const doc = docs.get(p._id.toHexString());
      return doc && render(doc);
    });
  },
  async recentByIds(ids, load, readNow) {
    if (readNow) for (const id of ids) readNow.add(id.toHexString());
    return byId(await load(ids));
  },
  async freshByIds(ids, load) {
    return byId(await load(ids));
  },
};
