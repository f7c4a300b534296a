import { BSON, EJSON, type Document } from 'bson';
import { Query } from './mingo';
import { MongoCommandError } from './errors';

import { OrderedIndex, isOrderedSpec, type IndexSpec } from './indexes';
import type { CollectionOptions } from './validation';

export type { IndexSpec } from './indexes';

export const BSON_OPTS = { promoteLongs: true, promoteValues: true, promoteBuffers: false };

export function cloneDoc<T extends Document>(doc: T): T {
  return BSON.deserialize(BSON.serialize(doc), BSON_OPTS) as T;
}

/** A stable string for an `_id` (or any BSON value), type-aware: 1 and '1' differ. */
export function valueKey(value: unknown): string {
  // the common _id types, spelt exactly as EJSON spells them (test/units.spec.ts compares both)
  if (typeof value === 'string') return `{"v":${JSON.stringify(value)}}`;
  if ((value as { _bsontype?: string } | null)?._bsontype === 'ObjectId')
    return `{"v":{"$oid":"${(value as { toHexString(): string }).toHexString()}"}}`;
  return EJSON.stringify({ v: value === undefined ? null : value }, { relaxed: false });
}

export function getPath(doc: Document, dotted: string): unknown {
  let current: unknown = doc;
  for (const part of dotted.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Document)[part];
  }
  return current;
}

export function defaultIndexName(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([field, dir]) => `${field}_${dir}`)
    .join('_');
}

/** One collection: documents by `_id` in insertion order, index specs, and maps for unique indexes. */
export class Collection {
  readonly docs = new Map<string, Document>();
  readonly indexes: IndexSpec[] = [{ v: 2, key: { _id: 1 }, name: '_id_' }];
  /** index name -> unique key -> _id key */
  private readonly uniqueMaps = new Map<string, Map<string, string>>();
  /** _id key -> version, bumped on every committed write (transaction conflict detection). */
  readonly versions = new Map<string, number>();
  /** _id key -> position in `docs` (insertion order), so index lookups return documents in scan order. */
  private readonly positions = new Map<string, number>();
  private nextPosition = 0;
  /** position -> _id key, to fetch the documents an index walk finds. */
  readonly byPosition = new Map<number, string>();
  /** position -> document (the same documents as `docs`, by position). */
  private readonly slots: Array<Document | undefined> = [];
  /** The ordered (B+tree) indexes, `_id_` first, by name. */
  readonly ordered = new Map<string, OrderedIndex>([['_id_', new OrderedIndex(this.indexes[0])]]);
  /** create/collMod options: validator, validation level and action, a view's viewOn and pipeline. */
  options: CollectionOptions = {};
  /** Bumped on every committed write. */
  writeVersion = 0;
  /** Index-only counts by index and bounds, valid while `writeVersion` is unchanged. */
  readonly countCache = new Map<string, { version: number; count: number; keys: number }>();
  private planCacheSize = 0;
  private readonly plans = new Map<string, string>();
  /**
   * While the journal is replayed, documents are stored without index upkeep (and index specs are only
   * recorded); `finishLoad` then builds every index once, in bulk, over the final documents.
   */
  private loading = false;
  /** Index orders read from a snapshot (index name -> positions of its entries in index order). */
  private storedOrders?: Map<string, number[]>;

  /** Query shape -> chosen index name; emptied when the indexes change or the size crosses a power of two. */
  get planCache(): Map<string, string> {
    const bucket = Math.floor(Math.log2(this.docs.size + 1));
    if (bucket !== this.planCacheSize) {
      this.plans.clear();
      this.planCacheSize = bucket;
    }
    return this.plans;
  }

  constructor(
    readonly db: string,
    readonly name: string,
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  uniqueIndexes(): IndexSpec[] {
    return this.indexes.filter((i) => i.unique && i.name !== '_id_');
  }

  /** The unique key of a document for an index, or undefined when the index does not cover it. */
  static uniqueKey(index: IndexSpec, doc: Document): string | undefined {
    const fields = Object.keys(index.key);
    const values = fields.map((f) => getPath(doc, f));
    if (index.sparse && values.every((v) => v === undefined)) return undefined;
    if (index.partialFilterExpression && !new Query(index.partialFilterExpression).test(doc))
      return undefined;
    return valueKey(values.map((v) => (v === undefined ? null : v)));
  }

  static duplicateError(ns: string, index: IndexSpec, doc: Document): MongoCommandError {
    const keyValue: Document = {};
    for (const field of Object.keys(index.key)) keyValue[field] = getPath(doc, field) ?? null;
    const shown = Object.entries(keyValue)
      .map(([k, v]) => `${k}: ${EJSON.stringify(v)}`)
      .join(', ');
    return new MongoCommandError(
      11000,
      'DuplicateKey',
      `E11000 duplicate key error collection: ${ns} index: ${index.name} dup key: { ${shown} }`,
      { keyPattern: { ...index.key }, keyValue },
    );
  }

  /**
   * Throws the duplicate-key error if storing `doc` would break a unique index. `pending` are the other
   * writes committed together with it (a transaction): an owner that they delete or move off the key
   * no longer holds it.
   */
  checkUnique(doc: Document, idKey: string, pending?: Map<string, Document | null>): void {
    for (const index of this.uniqueIndexes()) {
      const key = Collection.uniqueKey(index, doc);
      if (key === undefined) continue;
      const owner = this.uniqueMaps.get(index.name)?.get(key);
      if (owner === undefined || owner === idKey) continue;
      if (pending?.has(owner)) {
        const next = pending.get(owner);
        if (!next || Collection.uniqueKey(index, next) !== key) continue;
      }
      throw Collection.duplicateError(this.ns, index, doc);
    }
  }

  /** The `_id` key of the committed document holding a unique index key, if any. */
  uniqueOwner(indexName: string, key: string): string | undefined {
    return this.uniqueMaps.get(indexName)?.get(key);
  }

  /** Position of a committed document in scan order (undefined when it is not stored). */
  position(idKey: string): number | undefined {
    return this.positions.get(idKey);
  }

  /** The committed document at a position. */
  atPosition(position: number): Document | undefined {
    return this.slots[position];
  }

  /** Starts a bulk load (journal replay): puts and removes skip the indexes until `finishLoad`. */
  beginLoad(): void {
    this.loading = true;
  }

  /** Records (part of) an index's order as a snapshot wrote it, for `finishLoad`. */
  loadOrder(indexName: string, positions: ArrayLike<number>): void {
    if (!this.loading) return;
    if (!this.storedOrders) this.storedOrders = new Map();
    let order = this.storedOrders.get(indexName);
    if (!order) this.storedOrders.set(indexName, (order = []));
    for (let i = 0; i < positions.length; i++) order.push(positions[i]);
  }

  /** Ends a bulk load: builds the unique maps and every ordered index from the stored documents. */
  finishLoad(): void {
    if (!this.loading) return;
    this.loading = false;
    for (const index of this.uniqueIndexes()) {
      const map = new Map<string, string>();
      for (const [idKey, doc] of this.docs) {
        const key = Collection.uniqueKey(index, doc);
        if (key !== undefined) map.set(key, idKey);
      }
      this.uniqueMaps.set(index.name, map);
    }
    for (const index of this.ordered.values())
      index.build(this.byPositionOrder(), this.storedOrders?.get(index.name));
    this.storedOrders = undefined;
    this.plans.clear();
    this.writeVersion++;
  }

  /** The stored documents with their positions, in position (scan) order. */
  *byPositionOrder(): Iterable<[number, Document]> {
    for (let position = 0; position < this.slots.length; position++) {
      const doc = this.slots[position];
      if (doc) yield [position, doc];
    }
  }

  put(idKey: string, doc: Document): void {
    const previous = this.docs.get(idKey);
    let position = this.positions.get(idKey);
    const replacing = previous !== undefined && position !== undefined;
    if (replacing) {
      if (!this.loading) this.unindexUnique(idKey, previous);
    } else {
      position = this.nextPosition++;
      this.positions.set(idKey, position);
      this.byPosition.set(position, idKey);
    }
    this.docs.set(idKey, doc);
    this.slots[position!] = doc;
    if (!this.loading) {
      this.indexUnique(idKey, doc);
      for (const index of this.ordered.values()) {
        if (replacing) index.replace(position!, previous, doc);
        else index.add(position!, doc);
      }
    }
    this.versions.set(idKey, (this.versions.get(idKey) ?? 0) + 1);
    this.writeVersion++;
  }

  remove(idKey: string): void {
    const previous = this.docs.get(idKey);
    const position = this.positions.get(idKey);
    if (!previous || position === undefined) return;
    if (!this.loading) this.unindex(idKey, position, previous);
    this.docs.delete(idKey);
    this.positions.delete(idKey);
    this.byPosition.delete(position);
    this.slots[position] = undefined;
    this.versions.set(idKey, (this.versions.get(idKey) ?? 0) + 1);
    this.writeVersion++;
  }

  private indexUnique(idKey: string, doc: Document): void {
    for (const index of this.uniqueIndexes()) {
      const key = Collection.uniqueKey(index, doc);
      if (key === undefined) continue;
      let map = this.uniqueMaps.get(index.name);
      if (!map) this.uniqueMaps.set(index.name, (map = new Map()));
      map.set(key, idKey);
    }
  }

  private unindexUnique(idKey: string, doc: Document): void {
    for (const index of this.uniqueIndexes()) {
      const key = Collection.uniqueKey(index, doc);
      const map = this.uniqueMaps.get(index.name);
      if (key !== undefined && map?.get(key) === idKey) map.delete(key);
    }
  }

  private unindex(idKey: string, position: number, doc: Document): void {
    this.unindexUnique(idKey, doc);
    for (const index of this.ordered.values()) index.remove(position, doc);
  }

  addIndex(spec: IndexSpec): void {
    if (this.loading) {
      // replay: the journal only holds states that kept the index's constraints; built in finishLoad
      this.indexes.push(spec);
      if (isOrderedSpec(spec)) this.ordered.set(spec.name, new OrderedIndex(spec));
      return;
    }
    if (spec.unique) {
      const map = new Map<string, string>();
      for (const [idKey, doc] of this.docs) {
        const key = Collection.uniqueKey(spec, doc);
        if (key === undefined) continue;
        if (map.has(key)) throw Collection.duplicateError(this.ns, spec, doc);
        map.set(key, idKey);
      }
      this.uniqueMaps.set(spec.name, map);
    }
    this.indexes.push(spec);
    if (isOrderedSpec(spec)) {
      const index = new OrderedIndex(spec);
      index.build(this.byPositionOrder());
      this.ordered.set(spec.name, index);
    }
    this.plans.clear();
    this.writeVersion++;
  }

  dropIndex(name: string): void {
    const at = this.indexes.findIndex((i) => i.name === name);
    if (at > 0) this.indexes.splice(at, 1);
    this.uniqueMaps.delete(name);
    this.ordered.delete(name);
    this.plans.clear();
    this.writeVersion++;
  }
}
