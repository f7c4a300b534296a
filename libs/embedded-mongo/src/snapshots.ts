import { Timestamp, type Document } from 'bson';
import { Collection } from './collection';
import type { CommandContext } from './context';
import { MongoCommandError } from './errors';
import type { IndexSpec } from './indexes';
import { runFind } from './planner/find';
import type { QueryOptions } from './planner/query';
import type { Storage } from './storage';
import type { CollectionOptions } from './validation';
import { aggregate, count, distinct, find, onView } from './commands/reads';

/** mongod's `minSnapshotHistoryWindowInSeconds`: how long a snapshot stays readable after its time. */
export const DEFAULT_SNAPSHOT_WINDOW_SECONDS = 300;
/** Snapshots kept at most (the oldest goes first); each holds the documents of its moment alive. */
const MAX_SNAPSHOTS = 64;
/** The reads mongod serves with `readConcern: { level: 'snapshot' }` outside a transaction. */
const SNAPSHOT_READS = new Set(['find', 'aggregate', 'distinct']);

/** One collection as it was: its documents (in scan order, by `_id` key), index specs and options. */
interface FrozenCollection {
  entries: Array<[string, Document]>;
  indexes: IndexSpec[];
  options: CollectionOptions;
  /** Built at the first read of it: a read-only Collection with its indexes, over the same documents. */
  built?: Collection;
}

/** The whole committed state at one moment, named by its cluster time. */
export class Snapshot {
  constructor(
    readonly atClusterTime: Timestamp,
    readonly takenAt: number,
    private readonly frozen: Map<string, FrozenCollection>,
  ) {}

  /** The collection as it was at the snapshot's time (undefined when it did not exist then). */
  collection(db: string, name: string): Collection | undefined {
    const frozen = this.frozen.get(`${db}.${name}`);
    if (!frozen) return undefined;
    if (!frozen.built) {
      const coll = new Collection(db, name);
      coll.beginLoad();
      for (const spec of frozen.indexes) if (spec.name !== '_id_') coll.addIndex(spec);
      for (const [idKey, doc] of frozen.entries) coll.put(idKey, doc);
      coll.finishLoad();
      coll.options = frozen.options;
      frozen.built = coll;
    }
    return frozen.built;
  }
}

/**
 * Snapshot reads (`readConcern: { level: 'snapshot' }` outside a transaction, what the driver sends in
 * a session started with `{ snapshot: true }`): the first such read takes a snapshot of every
 * collection and answers its `atClusterTime` (in the cursor for find and aggregate, at the top for
 * distinct, as mongod does); the session's later reads name that time and read the same state,
 * whatever was committed since. Taking one copies references to the committed documents (stored
 * documents are never changed in place: a write stores a new one), in one synchronous step between
 * two commands, so a snapshot never holds half of a transaction. A snapshot stays readable for
 * `windowSeconds` (mongod's `minSnapshotHistoryWindowInSeconds`, 300): an older or unknown time
 * answers SnapshotTooOld (239). Reads inside transactions are not snapshot reads here (README).
 */
export class Snapshots {
  private readonly live = new Map<string, Snapshot>();
  private lastSeconds = 0;
  private increment = 0;
  windowSeconds = DEFAULT_SNAPSHOT_WINDOW_SECONDS;
  /** The clock (tests move it). */
  now: () => number = () => Date.now();

  constructor(private readonly storage: Storage) {}

  /** How many snapshots are readable (for tests and diagnostics). */
  get size(): number {
    this.forgetOld();
    return this.live.size;
  }

  /** The snapshot a command reads, taking one when it asks for a snapshot without a time; else undefined. */
  forCommand(command: Document, name: string): Snapshot | undefined {
    const readConcern = command.readConcern as Document | undefined;
    if (readConcern?.level !== 'snapshot' || !SNAPSHOT_READS.has(name)) return undefined;
    if (name === 'aggregate' && Array.isArray(command.pipeline)) {
      const last = command.pipeline[command.pipeline.length - 1] as Document | undefined;
      const op = last && typeof last === 'object' ? Object.keys(last)[0] : undefined;
      if (op === '$out' || op === '$merge')
        throw new MongoCommandError(
          72,
          'InvalidOptions',
          `${op} cannot be used with readConcern level snapshot outside a transaction`,
        );
    }
    this.forgetOld();
    const at = readConcern.atClusterTime;
    if (at === undefined) return this.take();
    const snapshot = at instanceof Timestamp ? this.live.get(at.toString()) : undefined;
    if (!snapshot)
      throw new MongoCommandError(
        239,
        'SnapshotTooOld',
        `Read timestamp ${String(at)} is older than the oldest available timestamp or was not issued by this server.`,
      );
    return snapshot;
  }

  private take(): Snapshot {
    const now = this.now();
    const seconds = Math.floor(now / 1000);
    if (seconds > this.lastSeconds) {
      this.lastSeconds = seconds;
      this.increment = 0;
    }
    const atClusterTime = new Timestamp({ t: this.lastSeconds, i: ++this.increment });
    const frozen = new Map<string, FrozenCollection>();
    for (const collections of this.storage.dbs.values()) {
      for (const coll of collections.values()) {
        frozen.set(coll.ns, {
          entries: Array.from(coll.docs),
          indexes: coll.indexes.map((spec) => ({ ...spec })),
          options: { ...coll.options },
        });
      }
    }
    const snapshot = new Snapshot(atClusterTime, now, frozen);
    this.live.set(atClusterTime.toString(), snapshot);
    while (this.live.size > MAX_SNAPSHOTS) this.live.delete(this.live.keys().next().value!);
    return snapshot;
  }

  private forgetOld(): void {
    const oldest = this.now() - this.windowSeconds * 1000;
    for (const [key, snapshot] of this.live) if (snapshot.takenAt < oldest) this.live.delete(key);
  }
}

/**
 * The command context of a snapshot read: collections come from the snapshot, nobody's transaction
 * overlays them, and writes are refused. Everything else (cursors, identity) is the engine's.
 */
export class SnapshotContext implements CommandContext {
  constructor(
    private readonly engine: CommandContext,
    private readonly snapshot: Snapshot,
  ) {}

  get storage() {
    return this.engine.storage;
  }
  get txns() {
    return this.engine.txns;
  }
  get cursors() {
    return this.engine.cursors;
  }
  get identity() {
    return this.engine.identity;
  }
  get lastRun() {
    return this.engine.lastRun;
  }
  set lastRun(run: CommandContext['lastRun']) {
    this.engine.lastRun = run;
  }

  collectionFor(db: string, name: string): Collection | undefined {
    return this.snapshot.collection(db, name);
  }

  docsOf(coll: Collection | undefined): Document[] {
    return coll ? Array.from(coll.docs.values()) : [];
  }

  overlayOf(): undefined {
    return undefined;
  }

  matching(
    coll: Collection | undefined,
    filter: Document | undefined,
    _txn: unknown,
    extra: Partial<QueryOptions> = {},
  ) {
    const { docs, stats } = runFind(coll, { filter, ...extra }, undefined);
    this.lastRun = { stats, filter };
    return docs;
  }

  getDoc(coll: Collection, idKey: string): Document | undefined {
    return coll.docs.get(idKey);
  }

  write(): void {
    throw new MongoCommandError(72, 'InvalidOptions', 'a snapshot read cannot write');
  }

  dispatch(name: string, db: string, cmd: Document, _txn: unknown, connectionId: number): Document {
    const target = typeof cmd[name] === 'string' ? this.collectionFor(db, cmd[name]) : undefined;
    if (target?.options.viewOn) return onView(this, name, db, cmd, target.options, undefined, connectionId);
    switch (name) {
      case 'find':
        return find(this, db, cmd, undefined);
      case 'aggregate':
        return aggregate(this, db, cmd, undefined);
      case 'distinct':
        return distinct(this, db, cmd, undefined);
      case 'count':
        return count(this, db, cmd, undefined);
      default:
        throw new MongoCommandError(72, 'InvalidOptions', `${name} is not a snapshot read`);
    }
  }

  /** Runs the read and adds its `atClusterTime` where the driver looks for it. */
  run(name: string, db: string, cmd: Document, connectionId: number): Document {
    const reply = this.dispatch(name, db, cmd, undefined, connectionId);
    const atClusterTime = this.snapshot.atClusterTime;
    if (reply.cursor) return { ...reply, cursor: { ...reply.cursor, atClusterTime } };
    return { ...reply, atClusterTime };
  }
}
