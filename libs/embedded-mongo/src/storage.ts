import { BSON, Binary, type Document } from 'bson';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BSON_OPTS, Collection, valueKey, type IndexSpec } from './collection';
import type { CollectionOptions } from './validation';

export type JournalRecord =
  | { t: 'put'; d: string; c: string; doc: Document }
  | { t: 'del'; d: string; c: string; id: unknown }
  | { t: 'create'; d: string; c: string }
  | { t: 'drop'; d: string; c: string }
  | { t: 'dropDb'; d: string }
  | { t: 'index'; d: string; c: string; spec: IndexSpec }
  | { t: 'dropIndex'; d: string; c: string; name: string }
  | { t: 'options'; d: string; c: string; options: CollectionOptions }
  | { t: 'batch'; ops: JournalRecord[] }
  /** Snapshot only: part of an index's order, as the positions (int32 LE) of its entries in the snapshot. */
  | { t: 'order'; d: string; c: string; name: string; positions: Binary };

/** Files of a data folder. */
export const SNAPSHOT_FILE = 'snapshot.bson';
export const JOURNAL_FILE = 'journal.bson';

/**
 * A start compacts when the journal has grown to this share of the snapshot (or there is no snapshot
 * yet): below it, replaying the journal on top of the snapshot costs less than rewriting the snapshot.
 */
const COMPACT_RATIO = 0.25;
/** Snapshot writes are gathered into chunks of this size. */
const CHUNK_BYTES = 4 * 1024 * 1024;
/** Entries per `order` record (4 MB, well under BSON's 16 MB). */
const ORDER_CHUNK = 1 << 20;

/**
 * For the crash tests only: `EMBEDDED_MONGO_FAULT=<point>` kills the process with SIGKILL at that
 * point of a compaction, exactly as a crash or `kill -9` there would.
 */
function faultPoint(point: string): void {
  if (process.env.EMBEDDED_MONGO_FAULT === point) process.kill(process.pid, 'SIGKILL');
}

/**
 * Replays a file of BSON records through `apply`, up to the first torn or unreadable record (the last
 * one written when the process died); answers where the readable part ends and the file's size.
 */
function replayFile(file: string, apply: (record: JournalRecord) => void): { good: number; size: number } {
  if (!fs.existsSync(file)) return { good: 0, size: 0 };
  const data = fs.readFileSync(file);
  let offset = 0;
  while (offset + 4 <= data.length) {
    const size = data.readInt32LE(offset);
    if (size < 5 || offset + size > data.length) break;
    let record: JournalRecord;
    try {
      record = BSON.deserialize(data.subarray(offset, offset + size), BSON_OPTS) as JournalRecord;
    } catch {
      break;
    }
    apply(record);
    offset += size;
  }
  return { good: offset, size: data.length };
}

/** Appends buffers to a file descriptor in chunks (one write per chunk). */
class ChunkWriter {
  private parts: Buffer[] = [];
  private bytes = 0;
  written = 0;

  constructor(private readonly fd: number) {}

  push(buffer: Uint8Array): void {
    this.parts.push(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength));
    this.bytes += buffer.byteLength;
    if (this.bytes >= CHUNK_BYTES) this.flush();
  }

  flush(): void {
    if (!this.bytes) return;
    fs.writeSync(this.fd, this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.bytes));
    this.written += this.bytes;
    this.parts = [];
    this.bytes = 0;
  }
}

/**
 * All databases, and with a data folder their durable form: `snapshot.bson`, the whole state as of the
 * last compaction, and `journal.bson`, every write since, appended before the command is acknowledged.
 * A start replays the snapshot then the journal on top (every record sets an absolute state, so a
 * journal replayed over a snapshot that already holds it gives the same state), builds the indexes in
 * bulk, and compacts when the journal has grown. A compaction writes the snapshot to a temporary file,
 * fsyncs it, renames it over the old one, fsyncs the folder, and only then empties the journal: a crash
 * at any point leaves either the old snapshot and the full journal, or the new snapshot and a journal
 * that replays on top of it.
 */
export class Storage {
  readonly dbs = new Map<string, Map<string, Collection>>();
  private fd: number | undefined;
  private readonly dir?: string;
  /** Records of the command being run, written together by `flush` before it is acknowledged. */
  private pending: Buffer[] = [];
  /** True during the replay at start: collections load without index upkeep. */
  private loading = false;
  /** What the last start did (for logs and the benchmarks). */
  readonly startInfo = {
    snapshotBytes: 0,
    journalBytes: 0,
    compacted: false,
    /** Milliseconds spent reading the snapshot, building indexes, replaying the journal, compacting. */
    ms: { snapshot: 0, indexes: 0, journal: 0, compaction: 0 },
  };

  constructor(dbPath?: string) {
    if (!dbPath) return;
    fs.mkdirSync(dbPath, { recursive: true });
    this.dir = dbPath;
    fs.rmSync(this.file(`${SNAPSHOT_FILE}.tmp`), { force: true }); // a compaction that did not finish
    const apply = (record: JournalRecord) => this.apply(record);
    const ms = this.startInfo.ms;
    let mark = performance.now();
    const lap = () => {
      const now = performance.now();
      const spent = now - mark;
      mark = now;
      return Math.round(spent);
    };
    this.loading = true;
    const snapshot = replayFile(this.file(SNAPSHOT_FILE), apply);
    ms.snapshot = lap();
    const journalSize = fs.existsSync(this.file(JOURNAL_FILE))
      ? fs.statSync(this.file(JOURNAL_FILE)).size
      : 0;
    // a short journal replays on indexes built from the snapshot; a long one (or one without a
    // snapshot) loads in bulk too, and is compacted afterwards
    const compact = journalSize > 0 && (snapshot.size === 0 || journalSize >= snapshot.good * COMPACT_RATIO);
    if (!compact) {
      this.finishLoading();
      ms.indexes = lap();
    }
    const journal = replayFile(this.file(JOURNAL_FILE), apply);
    ms.journal = lap();
    if (compact) {
      this.finishLoading();
      ms.indexes = lap();
    }
    this.startInfo.snapshotBytes = snapshot.good;
    this.startInfo.journalBytes = journal.good;
    if (compact) {
      this.compact();
      this.startInfo.compacted = true;
      ms.compaction = lap();
    } else {
      // keep the journal, without a torn last record (the next record would follow the torn bytes)
      if (journal.size > journal.good) fs.truncateSync(this.file(JOURNAL_FILE), journal.good);
      this.fd = fs.openSync(this.file(JOURNAL_FILE), 'a');
    }
  }

  /** Ends the bulk load: every collection builds its indexes. */
  private finishLoading(): void {
    if (!this.loading) return;
    this.loading = false;
    for (const database of this.dbs.values()) for (const coll of database.values()) coll.finishLoad();
  }

  private file(name: string): string {
    return path.join(this.dir!, name);
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
      if (this.loading) coll.beginLoad();
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

  /** Queues a journal record; `flush` writes the queue before the command is acknowledged. */
  append(record: JournalRecord): void {
    if (this.fd === undefined) return;
    this.pending.push(BSON.serialize(record) as Buffer);
  }

  /** Writes the queued records in one write: once written they survive a kill -9 of the process. */
  flush(): void {
    if (this.fd === undefined || this.pending.length === 0) return;
    const records = this.pending;
    this.pending = [];
    fs.writeSync(this.fd, records.length === 1 ? records[0] : Buffer.concat(records));
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
      case 'order': {
        const bytes = record.positions.buffer;
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const positions = new Int32Array(bytes.byteLength >> 2);
        for (let i = 0; i < positions.length; i++) positions[i] = view.getInt32(i * 4, true);
        this.collection(record.d, record.c)?.loadOrder(record.name, positions);
        break;
      }
    }
  }

  /**
   * Writes the current state as the new snapshot and empties the journal (see the class comment for
   * why a crash at any step loses nothing).
   */
  compact(): void {
    if (!this.dir) return;
    this.flush();
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    const tmp = this.file(`${SNAPSHOT_FILE}.tmp`);
    const fd = fs.openSync(tmp, 'w');
    const out = new ChunkWriter(fd);
    let records = 0;
    const write = (record: JournalRecord) => {
      out.push(BSON.serialize(record));
      if (++records === 1000) {
        out.flush();
        faultPoint('compact-partial');
      }
    };
    for (const [db, colls] of this.dbs) {
      for (const [name, coll] of colls) {
        write({ t: 'create', d: db, c: name });
        if (Object.keys(coll.options).length) write({ t: 'options', d: db, c: name, options: coll.options });
        for (const spec of coll.indexes.slice(1)) write({ t: 'index', d: db, c: name, spec });
        // documents in scan order; the n-th becomes position n when the snapshot is loaded
        const ordinal = new Map<number, number>();
        for (const [position, doc] of coll.byPositionOrder()) {
          ordinal.set(position, ordinal.size);
          write({ t: 'put', d: db, c: name, doc });
        }
        // each index's order, so that the next start need not sort its entries
        for (const index of coll.ordered.values()) {
          const positions = index.positionsInOrder();
          for (let from = 0; from < positions.length; from += ORDER_CHUNK) {
            const part = positions.subarray(from, from + ORDER_CHUNK);
            const bytes = Buffer.alloc(part.length * 4);
            for (let i = 0; i < part.length; i++) bytes.writeInt32LE(ordinal.get(part[i])!, i * 4);
            write({ t: 'order', d: db, c: name, name: index.name, positions: new Binary(bytes) });
          }
        }
      }
    }
    out.flush();
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    faultPoint('compact-written');
    fs.renameSync(tmp, this.file(SNAPSHOT_FILE));
    this.syncFolder();
    faultPoint('compact-renamed');
    // the snapshot holds everything the journal did: start a new, empty journal
    const journal = fs.openSync(this.file(JOURNAL_FILE), 'w');
    fs.fsyncSync(journal);
    fs.closeSync(journal);
    this.fd = fs.openSync(this.file(JOURNAL_FILE), 'a');
  }

  /** Makes a rename in the data folder durable. */
  private syncFolder(): void {
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.dir!, 'r');
      fs.fsyncSync(fd);
    } catch {
      // some file systems cannot fsync a folder; the rename is still atomic
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
