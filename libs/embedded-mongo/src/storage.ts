import { BSON, EJSON, type Document } from 'bson';
import { Query } from 'mingo';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MongoCommandError } from './errors';

export interface IndexSpec {
  v: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  [option: string]: unknown;
}

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

/**
 * A cheap key for a value an equality query can be answered from an index with: strings, numbers,
 * booleans, ObjectIds and dates. Anything else (null, NaN, arrays, documents, regexes, other BSON
 * types) returns undefined, and a query on such a value scans instead. Two values get the same key
 * exactly when mingo's equality matches them (it is strict about types; 0 and -0 are equal).
 */
export function scalarKey(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return `s${value}`;
    case 'number':
      return Number.isNaN(value) ? undefined : `n${value}`;
    case 'boolean':
      return value ? 'bt' : 'bf';
    case 'object': {
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : `d${value.getTime()}`;
      if (value && (value as { _bsontype?: string })._bsontype === 'ObjectId')
        return `o${(value as { toHexString(): string }).toHexString()}`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The keys of every indexable value found at a dotted path, descending into arrays at every level
 * (a document is found by any element of an array, as in a multikey index). Over-collecting is
 * harmless: candidates are always re-checked with the full filter.
 */
export function pathKeys(doc: Document, parts: string[]): Set<string> {
  const out = new Set<string>();
  const visit = (value: unknown, i: number): void => {
    if (Array.isArray(value)) {
      for (const element of value) visit(element, i);
      return;
    }
    if (i === parts.length) {
      const key = scalarKey(value);
      if (key !== undefined) out.add(key);
      return;
    }
    if (value === null || typeof value !== 'object' || value instanceof Date) return;
    visit((value as Document)[parts[i]], i + 1);
  };
  visit(doc, 0);
  return out;
}

/** Fields that can lead an in-memory lookup index: plain dotted names, no positional (numeric) parts. */
function indexableField(field: string): boolean {
  return (
    field !== '_id' &&
    field.split('.').every((part) => part.length > 0 && !/^\d+$/.test(part) && !part.startsWith('$'))
  );
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
  /** leading field of an ascending/descending index -> value key -> _id keys (multikey: one entry per element). */
  private readonly fieldMaps = new Map<string, { parts: string[]; map: Map<string, Set<string>> }>();

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

  /** `_id` keys of committed documents whose `field` may equal one of the value keys, or undefined without an index. */
  lookup(field: string, valueKeys: string[]): Set<string> | undefined {
    const entry = this.fieldMaps.get(field);
    if (!entry) return undefined;
    const out = new Set<string>();
    for (const key of valueKeys) for (const idKey of entry.map.get(key) ?? []) out.add(idKey);
    return out;
  }

  /** How many committed documents a lookup would return, without building it. */
  lookupSize(field: string, valueKeys: string[]): number | undefined {
    const entry = this.fieldMaps.get(field);
    if (!entry) return undefined;
    return valueKeys.reduce((sum, key) => sum + (entry.map.get(key)?.size ?? 0), 0);
  }

  /** Position of a committed document in scan order (undefined when it is not stored). */
  position(idKey: string): number | undefined {
    return this.positions.get(idKey);
  }

  put(idKey: string, doc: Document): void {
    const previous = this.docs.get(idKey);
    if (previous) this.unindex(idKey, previous);
    else this.positions.set(idKey, this.nextPosition++);
    this.docs.set(idKey, doc);
    this.indexDoc(idKey, doc);
    this.versions.set(idKey, (this.versions.get(idKey) ?? 0) + 1);
  }

  remove(idKey: string): void {
    const previous = this.docs.get(idKey);
    if (!previous) return;
    this.unindex(idKey, previous);
    this.docs.delete(idKey);
    this.positions.delete(idKey);
    this.versions.set(idKey, (this.versions.get(idKey) ?? 0) + 1);
  }

  private indexDoc(idKey: string, doc: Document): void {
    for (const index of this.uniqueIndexes()) {
      const key = Collection.uniqueKey(index, doc);
      if (key === undefined) continue;
      let map = this.uniqueMaps.get(index.name);
      if (!map) this.uniqueMaps.set(index.name, (map = new Map()));
      map.set(key, idKey);
    }
    for (const { parts, map } of this.fieldMaps.values()) Collection.addToFieldMap(map, parts, idKey, doc);
  }

  private unindex(idKey: string, doc: Document): void {
    for (const index of this.uniqueIndexes()) {
      const key = Collection.uniqueKey(index, doc);
      const map = this.uniqueMaps.get(index.name);
      if (key !== undefined && map?.get(key) === idKey) map.delete(key);
    }
    for (const { parts, map } of this.fieldMaps.values()) {
      for (const key of pathKeys(doc, parts)) {
        const ids = map.get(key);
        ids?.delete(idKey);
        if (ids?.size === 0) map.delete(key);
      }
    }
  }

  private static addToFieldMap(
    map: Map<string, Set<string>>,
    parts: string[],
    idKey: string,
    doc: Document,
  ): void {
    for (const key of pathKeys(doc, parts)) {
      let ids = map.get(key);
      if (!ids) map.set(key, (ids = new Set()));
      ids.add(idKey);
    }
  }

  /** Keeps one lookup map per leading field of the regular (1/-1) indexes. */
  private syncFieldMaps(): void {
    const wanted = new Set<string>();
    for (const index of this.indexes) {
      const [field, direction] = Object.entries(index.key)[0] ?? [];
      if (field && (direction === 1 || direction === -1) && indexableField(field)) wanted.add(field);
    }
    for (const field of [...this.fieldMaps.keys()]) if (!wanted.has(field)) this.fieldMaps.delete(field);
    for (const field of wanted) {
      if (this.fieldMaps.has(field)) continue;
      const entry = { parts: field.split('.'), map: new Map<string, Set<string>>() };
      for (const [idKey, doc] of this.docs) Collection.addToFieldMap(entry.map, entry.parts, idKey, doc);
      this.fieldMaps.set(field, entry);
    }
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
    this.syncFieldMaps();
  }

  dropIndex(name: string): void {
    const at = this.indexes.findIndex((i) => i.name === name);
    if (at > 0) this.indexes.splice(at, 1);
    this.uniqueMaps.delete(name);
    this.syncFieldMaps();
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
