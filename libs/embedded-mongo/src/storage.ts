import { BSON, EJSON, type Document } from 'bson';
import { Query } from 'mingo';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MongoCommandError } from './errors';

import { OrderedIndex, isOrderedSpec, type IndexSpec } from './indexes';
import type { CollectionOptions } from './validation';

export type { IndexSpec } from './indexes';

const BSON_OPTS = { promoteLongs: true, promoteValues: true, promoteBuffers: false };

export function cloneDoc<T extends Document>(doc: T): T {
  return BSON.deserialize(BSON.serialize(doc), BSON_OPTS) as T;
}

/** A stable string for an `_id` (or any BSON value), type-aware: 1 and '1' differ. */
export function valueKey(value: unknown): string {
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

  put(idKey: string, doc: Document): void {
    const previous = this.docs.get(idKey);
    let position = this.positions.get(idKey);
    if (previous && position !== undefined) this.unindex(idKey, position, previous);
    else {
      position = this.nextPosition++;
      this.positions.set(idKey, position);
      this.byPosition.set(position, idKey);
    }
    this.docs.set(idKey, doc);
    this.slots[position] = doc;
    this.indexDoc(idKey, position, doc);
    this.versions.set(idKey, (this.versions.get(idKey) ?? 0) + 1);
    this.writeVersion++;
  }

  remove(idKey: string): void {
    const previous = this.docs.get(idKey);
    const position = this.positions.get(idKey);
    if (!previous || position === undefined) return;
    this.unindex(idKey, position, previous);
    this.docs.delete(idKey);
    this.positions.delete(idKey);
    this.byPosition.delete(position);
    this.slots[position] = undefined;
    this.versions.set(idKey, (this.versions.get(idKey) ?? 0) + 1);
    this.writeVersion++;
  }

  private indexDoc(idKey: string, position: number, doc: Document): void {
    for (const index of this.uniqueIndexes()) {
      const key = Collection.uniqueKey(index, doc);
      if (key === undefined) continue;
      let map = this.uniqueMaps.get(index.name);
      if (!map) this.uniqueMaps.set(index.name, (map = new Map()));
      map.set(key, idKey);
    }
    for (const index of this.ordered.values()) index.add(position, doc);
  }

  private unindex(idKey: string, position: number, doc: Document): void {
    for (const index of this.uniqueIndexes()) {
      const key = Collection.uniqueKey(index, doc);
      const map = this.uniqueMaps.get(index.name);
      if (key !== undefined && map?.get(key) === idKey) map.delete(key);
    }
    for (const index of this.ordered.values()) index.remove(position, doc);
  }

  addIndex(spec: IndexSpec): void {
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
      for (const [idKey, doc] of this.docs) index.add(this.positions.get(idKey)!, doc);
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

export type JournalRecord =
  | { t: 'put'; d: string; c: string; doc: Document }
  | { t: 'del'; d: string; c: string; id: unknown }
  | { t: 'create'; d: string; c: string }
  | { t: 'drop'; d: string; c: string }
  | { t: 'dropDb'; d: string }
  | { t: 'index'; d: string; c: string; spec: IndexSpec }
  | { t: 'dropIndex'; d: string; c: string; name: string }
  | { t: 'options'; d: string; c: string; options: CollectionOptions }
  | { t: 'batch'; ops: JournalRecord[] };

/** All databases, with an append-only journal when a data folder is given. */
export class Storage {
  readonly dbs = new Map<string, Map<string, Collection>>();
  private fd: number | undefined;
  private readonly journalPath?: string;

  constructor(dbPath?: string) {
    if (!dbPath) return;
    fs.mkdirSync(dbPath, { recursive: true });
    this.journalPath = path.join(dbPath, 'journal.bson');
    this.replay();
    this.compact();
  }

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** Gets or creates a collection (writes create collections implicitly, as MongoDB does). */
  ensureCollection(db: string, name: string, journal = true): Collection {
    let database = this.dbs.get(db);
    if (!database) this.dbs.set(db, (database = new Map()));
    let coll = database.get(name);
    if (!coll) {
      coll = new Collection(db, name);
      database.set(name, coll);
      if (journal) this.append({ t: 'create', d: db, c: name });
    }
    return coll;
  }

  dropCollection(db: string, name: string): boolean {
    const existed = this.dbs.get(db)?.delete(name) ?? false;
    if (existed) this.append({ t: 'drop', d: db, c: name });
    return existed;
  }

  /** Sets a collection's create/collMod options (journaled). */
  setOptions(coll: Collection, options: CollectionOptions): void {
    coll.options = options;
    this.append({ t: 'options', d: coll.db, c: coll.name, options });
  }

  dropDatabase(db: string): void {
    if (this.dbs.delete(db)) this.append({ t: 'dropDb', d: db });
  }

  /** Writes a record before the command is acknowledged; it survives a kill -9 of the process. */
  append(record: JournalRecord): void {
    if (this.fd === undefined) return;
    fs.writeSync(this.fd, BSON.serialize(record));
  }

  apply(record: JournalRecord): void {
    switch (record.t) {
      case 'put': {
        const coll = this.ensureCollection(record.d, record.c, false);
        coll.put(valueKey(record.doc._id), record.doc);
        break;
      }
      case 'del':
        this.collection(record.d, record.c)?.remove(valueKey(record.id));
        break;
      case 'create':
        this.ensureCollection(record.d, record.c, false);
        break;
      case 'drop':
        this.dbs.get(record.d)?.delete(record.c);
        break;
      case 'dropDb':
        this.dbs.delete(record.d);
        break;
      case 'index': {
        const coll = this.ensureCollection(record.d, record.c, false);
        if (!coll.indexes.some((i) => i.name === record.spec.name)) coll.addIndex(record.spec);
        break;
      }
      case 'dropIndex':
        this.collection(record.d, record.c)?.dropIndex(record.name);
        break;
      case 'options':
        this.ensureCollection(record.d, record.c, false).options = record.options;
        break;
      case 'batch':
        for (const op of record.ops) this.apply(op);
        break;
    }
  }

  private replay(): void {
    if (!this.journalPath || !fs.existsSync(this.journalPath)) return;
    const data = fs.readFileSync(this.journalPath);
    let offset = 0;
    while (offset + 4 <= data.length) {
      const size = data.readInt32LE(offset);
      if (size < 5 || offset + size > data.length) break; // torn last record after a crash
      let record: JournalRecord;
      try {
        record = BSON.deserialize(data.subarray(offset, offset + size), BSON_OPTS) as JournalRecord;
      } catch {
        break;
      }
      this.apply(record);
      offset += size;
    }
  }

  /** Rewrites the journal as a snapshot of the current state, atomically (write, fsync, rename). */
  compact(): void {
    if (!this.journalPath) return;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    const tmp = `${this.journalPath}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    for (const [db, colls] of this.dbs) {
      for (const [name, coll] of colls) {
        fs.writeSync(fd, BSON.serialize({ t: 'create', d: db, c: name }));
        if (Object.keys(coll.options).length)
          fs.writeSync(fd, BSON.serialize({ t: 'options', d: db, c: name, options: coll.options }));
        for (const spec of coll.indexes.slice(1))
          fs.writeSync(fd, BSON.serialize({ t: 'index', d: db, c: name, spec }));
        for (const doc of coll.docs.values())
          fs.writeSync(fd, BSON.serialize({ t: 'put', d: db, c: name, doc }));
      }
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.journalPath);
    this.fd = fs.openSync(this.journalPath, 'a');
  }

  close(): void {
    if (this.fd === undefined) return;
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
