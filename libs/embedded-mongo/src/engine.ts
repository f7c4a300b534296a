import { Long, ObjectId, Timestamp, type Document } from 'bson';
import { MongoCommandError, badValue, commandNotFound, toCommandError } from './errors';
import { Collection } from './collection';
import type { CommandContext, ServerIdentity } from './context';
import { Cursors } from './cursors';
import { runFind } from './planner/find';
import type { ExecStats, Overlay, QueryOptions } from './planner/query';
import type { Storage } from './storage';
import { Transactions, type Transaction } from './transactions';
import { SnapshotContext, Snapshots } from './snapshots';
import {
  collMod,
  create,
  createIndexes,
  dbStats,
  drop,
  dropIndexes,
  listCollections,
  listDatabases,
  listIndexes,
} from './commands/catalog';
import { aggregate, count, distinct, explain, find, onView } from './commands/reads';
import { deleteCommand, findAndModify, insert, update } from './commands/writes';

export type { ServerIdentity } from './context';

const MAX_BSON = 16 * 1024 * 1024;

/**
 * The command layer: it routes each MongoDB command to its module (commands/reads, commands/writes,
 * commands/catalog) with the command's transaction, and gives them the committed state as that
 * transaction sees it. Query planning is in planner/ over indexes.ts; transactions in
 * transactions.ts; collections in collection.ts; the data folder in storage.ts.
 */
export class Engine implements CommandContext {
  readonly cursors = new Cursors();
  readonly txns: Transactions;
  readonly snapshots: Snapshots;
  private readonly electionId = new ObjectId('7fffffff0000000000000001');
  private readonly startedAt = new Date();
  lastRun?: { stats: ExecStats; filter: Document | undefined };

  constructor(
    readonly storage: Storage,
    readonly identity: ServerIdentity,
  ) {
    this.txns = new Transactions(storage);
    this.snapshots = new Snapshots(storage);
  }

  run(db: string, command: Document, connectionId: number): Document {
    const name = Object.keys(command)[0];
    try {
      const txn = this.txns.forCommand(command, name);
      const snapshot = txn ? undefined : this.snapshots.forCommand(command, name);
      const reply = snapshot
        ? new SnapshotContext(this, snapshot).run(name, db, command, connectionId)
        : this.dispatch(name, db, command, txn, connectionId);
      return { ...reply, ok: 1 };
    } catch (error) {
      return toCommandError(error).toReply();
    } finally {
      // the command's journal records reach the file before its reply is sent
      this.storage.flush();
    }
  }

  /**
   * One pass of mongod's TTL monitor: in every collection, each single-field index with
   * `expireAfterSeconds` deletes the documents whose indexed value is a date (or an array holding a
   * date) at least that many seconds in the past, within the index's partial filter if it has one.
   * Other values (missing, strings, numbers) never expire. The deletes are ordinary journaled writes
   * outside any transaction, as mongod's are. Answers how many documents were deleted.
   */
  expireTtl(now: Date = new Date()): number {
    let removed = 0;
    for (const [db, collections] of this.storage.dbs) {
      for (const coll of [...collections.values()]) {
        if (coll.options.viewOn) continue;
        for (const spec of coll.indexes) {
          const seconds = spec.expireAfterSeconds;
          const fields = Object.keys(spec.key);
          if (typeof seconds !== 'number' || !Number.isFinite(seconds) || fields.length !== 1) continue;
          const expired = { [fields[0]]: { $lte: new Date(now.getTime() - seconds * 1000) } };
          const q = spec.partialFilterExpression
            ? { $and: [spec.partialFilterExpression, expired] }
            : expired;
          const reply = this.run(db, { delete: coll.name, deletes: [{ q, limit: 0 }] }, 0);
          removed += typeof reply.n === 'number' ? reply.n : 0;
        }
      }
    }
    return removed;
  }

  // ---------------------------------------------------------------- views over committed + transaction state

  collectionFor(
    db: string,
    name: string,
    txn: Transaction | undefined,
    create: boolean,
  ): Collection | undefined {
    const existing = this.storage.collection(db, name) ?? txn?.collections.get(`${db}.${name}`);
    if (existing || !create) return existing;
    if (txn) {
      const coll = new Collection(db, name);
      txn.collections.set(coll.ns, coll);
      return coll;
    }
    return this.storage.ensureCollection(db, name);
  }

  docsOf(coll: Collection | undefined, txn: Transaction | undefined): Document[] {
    if (!coll) return [];
    const overlay = txn?.writes.get(coll.ns);
    if (!overlay) return Array.from(coll.docs.values());
    const out: Document[] = [];
    for (const [idKey, doc] of coll.docs) {
      if (!overlay.has(idKey)) out.push(doc);
      else if (overlay.get(idKey)) out.push(overlay.get(idKey)!);
    }
    for (const [idKey, doc] of overlay) if (doc && !coll.docs.has(idKey)) out.push(doc);
    return out;
  }

  /** This transaction's writes on a collection, if any. */
  overlayOf(coll: Collection | undefined, txn: Transaction | undefined): Overlay | undefined {
    return coll ? txn?.writes.get(coll.ns) : undefined;
  }

  /** The documents matching `filter` in scan order, through the planner. */
  matching(
    coll: Collection | undefined,
    filter: Document | undefined,
    txn: Transaction | undefined,
    extra: Partial<QueryOptions> = {},
  ): Document[] {
    const { docs, stats } = runFind(coll, { filter, ...extra }, this.overlayOf(coll, txn));
    this.lastRun = { stats, filter };
    return docs;
  }

  getDoc(coll: Collection, idKey: string, txn: Transaction | undefined): Document | undefined {
    const overlay = txn?.writes.get(coll.ns);
    if (overlay?.has(idKey)) return overlay.get(idKey) ?? undefined;
    return coll.docs.get(idKey);
  }

  /** Stores (or deletes, with null) one document, checking unique indexes first. */
  write(coll: Collection, idKey: string, doc: Document | null, txn: Transaction | undefined): void {
    if (!txn) {
      if (doc) {
        coll.checkUnique(doc, idKey);
        coll.put(idKey, doc);
        this.storage.append({ t: 'put', d: coll.db, c: coll.name, doc });
      } else {
        const id = coll.docs.get(idKey)?._id;
        coll.remove(idKey);
        this.storage.append({ t: 'del', d: coll.db, c: coll.name, id });
      }
      return;
    }
    this.txns.stage(coll, idKey, doc, txn);
  }

  dispatch(
    name: string,
    db: string,
    cmd: Document,
    txn: Transaction | undefined,
    connectionId: number,
  ): Document {
    const target = typeof cmd[name] === 'string' ? this.storage.collection(db, cmd[name]) : undefined;
    if (target?.options.viewOn) return onView(this, name, db, cmd, target.options, txn, connectionId);
    switch (name) {
      case 'hello':
      case 'isMaster':
      case 'ismaster':
        return this.hello(connectionId, name !== 'hello');
      case 'endSessions':
      case 'killSessions':
        this.txns.endSessions(cmd[name], name === 'endSessions');
        return {};
      case 'killAllSessions':
        this.txns.killAll();
        return {};
      case 'killAllSessionsByPattern':
        killByPattern(this.txns, cmd.killAllSessionsByPattern);
        return {};
      case 'setParameter':
        return setParameter(this.txns, db, cmd);
      case 'ping':
      case 'refreshSessions':
      case 'logout':
        return {};
      case 'buildInfo':
      case 'buildinfo':
        return {
          version: '7.0.0',
          gitVersion: 'embedded',
          versionArray: [7, 0, 0, 0],
          bits: 64,
          maxBsonObjectSize: MAX_BSON,
          javascriptEngine: 'none',
          modules: [],
        };
      case 'getParameter':
        return {
          featureCompatibilityVersion: { version: '7.0' },
          ...(cmd.getParameter === '*' || cmd.transactionLifetimeLimitSeconds !== undefined
            ? { transactionLifetimeLimitSeconds: this.txns.lifetimeLimitSeconds }
            : {}),
        };
      case 'hostInfo':
        return {
          system: { hostname: this.identity.host, cpuArch: process.arch },
          os: { type: process.platform },
        };
      case 'getCmdLineOpts':
        return { argv: ['embedded-mongo'], parsed: {} };
      case 'serverStatus':
        return {
          host: this.identity.host,
          version: '7.0.0',
          process: 'embedded-mongo',
          uptime: (Date.now() - this.startedAt.getTime()) / 1000,
          localTime: new Date(),
          connections: {},
        };
      case 'connectionStatus':
        return { authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] } };
      case 'whatsmyuri':
        return { you: `${this.identity.host}:0` };
      case 'getLog':
        return { totalLinesWritten: 0, log: [] };
      case 'listCommands':
        return { commands: {} };
      case 'dbStats':
        return dbStats(this, db);
      case 'commitTransaction':
        if (txn) this.txns.commit(txn);
        return {};
      case 'abortTransaction':
        if (txn) this.txns.abort(txn);
        return {};
      case 'find':
        return find(this, db, cmd, txn);
      case 'getMore':
        return this.cursors.getMore(cmd);
      case 'explain':
        return explain(this, db, cmd, txn, connectionId);
      case 'killCursors':
        return this.cursors.killCursors(cmd);
      case 'insert':
        return insert(this, db, cmd, txn);
      case 'update':
        return update(this, db, cmd, txn);
      case 'delete':
        return deleteCommand(this, db, cmd, txn);
      case 'findAndModify':
      case 'findandmodify':
        return findAndModify(this, db, cmd, txn);
      case 'aggregate':
        return aggregate(this, db, cmd, txn);
      case 'count':
        return count(this, db, cmd, txn);
      case 'distinct':
        return distinct(this, db, cmd, txn);
      case 'create':
        return create(this, db, cmd);
      case 'collMod':
        return collMod(this, db, cmd);
      case 'drop':
        return drop(this, db, cmd);
      case 'dropDatabase':
        this.storage.dropDatabase(db);
        return { dropped: db };
      case 'listCollections':
        return listCollections(this, db, cmd, txn);
      case 'listDatabases':
        return listDatabases(this, cmd);
      case 'createIndexes':
        return createIndexes(this, db, cmd);
      case 'listIndexes':
        return listIndexes(this, db, cmd);
      case 'dropIndexes':
      case 'deleteIndexes':
        return dropIndexes(this, db, cmd);
      default:
        throw commandNotFound(name);
    }
  }

  hello(connectionId: number, legacy: boolean): Document {
    const me = `${this.identity.host}:${this.identity.port}`;
    return {
      ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
      helloOk: true,
      secondary: false,
      setName: this.identity.replSetName,
      setVersion: 1,
      hosts: [me],
      primary: me,
      me,
      electionId: this.electionId,
      lastWrite: {
        opTime: { ts: Timestamp.fromNumber(Math.floor(Date.now() / 1000)), t: Long.fromNumber(1) },
        lastWriteDate: new Date(),
      },
      maxBsonObjectSize: MAX_BSON,
      maxMessageSizeBytes: 48000000,
      maxWriteBatchSize: 100000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
    };
  }
}

/** `killAllSessionsByPattern`: patterns naming an lsid kill those sessions; any other pattern (or none) kills all. */
function killByPattern(txns: Transactions, patterns: unknown): void {
  const list = Array.isArray(patterns) ? (patterns as Document[]) : [];
  if (list.length && list.every((p) => p?.lsid))
    txns.endSessions(
      list.map((p) => p.lsid),
      false,
    );
  else txns.killAll();
}

/** `setParameter` (admin only, as mongod): `transactionLifetimeLimitSeconds`, an integer of at least 1. */
function setParameter(txns: Transactions, db: string, cmd: Document): Document {
  if (db !== 'admin')
    throw new MongoCommandError(
      13,
      'Unauthorized',
      'setParameter may only be run against the admin database.',
    );
  const names = Object.keys(cmd).filter(
    (key) => !['setParameter', 'lsid', 'comment'].includes(key) && !key.startsWith('$'),
  );
  if (!names.length)
    throw new MongoCommandError(
      72,
      'InvalidOptions',
      'no option found to set, use help:true to see options ',
    );
  const unknown = names.find((name) => name !== 'transactionLifetimeLimitSeconds');
  if (unknown)
    throw new MongoCommandError(
      72,
      'InvalidOptions',
      `attempted to set unrecognized parameter [${unknown}], use help:true to see options `,
    );
  const value = Number(cmd.transactionLifetimeLimitSeconds);
  if (!Number.isInteger(value) || value < 1)
    throw badValue(
      `Bad value for parameter "transactionLifetimeLimitSeconds": ${String(cmd.transactionLifetimeLimitSeconds)} is not greater than or equal to 1`,
    );
  const was = txns.lifetimeLimitSeconds;
  txns.lifetimeLimitSeconds = value;
  return { was };
}
