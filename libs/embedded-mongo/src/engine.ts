import { Long, ObjectId, Timestamp, type Document } from 'bson';
import { Query, aggregate } from 'mingo';
import { parseSort, type SortField } from './bson-order';
import { enforceValidator, type CollectionOptions } from './validation';
import { explainPlan, runCount, runFind, type ExecStats, type Overlay, type QueryOptions } from './planner';
import {
  MongoCommandError,
  badValue,
  commandNotFound,
  cursorNotFound,
  failedToParse,
  invalidNamespace,
  namespaceNotFound,
  toCommandError,
} from './errors';
import { collateFilter, collator } from './collation';
import { Transactions, type Transaction } from './transactions';
import { applyUpdateTo, isOperatorUpdate, upsertSeed } from './update';
import { Collection, cloneDoc, defaultIndexName, valueKey, type IndexSpec } from './collection';
import type { Storage } from './storage';

interface CursorState {
  ns: string;
  docs: Document[];
}

export interface ServerIdentity {
  host: string;
  port: number;
  replSetName: string;
}

const DEFAULT_BATCH = 101;
const MAX_BSON = 16 * 1024 * 1024;

function serializedEqual(a: Document, b: Document): boolean {
  return valueKey(a) === valueKey(b);
}

/** The distinct values of a (dotted) field over documents; array elements count one by one. */
function distinctValues(docs: Document[], key: string): unknown[] {
  const seen = new Map<string, unknown>();
  for (const doc of docs) {
    const values = new Query({}).find([doc], { [key]: 1, _id: 0 }).all()[0] as Document;
    let value: unknown = values;
    for (const part of key.split('.'))
      value = value && typeof value === 'object' ? (value as Document)[part] : undefined;
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) seen.set(valueKey(v), v);
  }
  return [...seen.values()];
}

/**
 * A find's projection: top-level exclusions (`{ secret: 0 }`, what Mongoose sends for `select: false`)
 * copy each document without those fields; anything else goes through mingo.
 */
function project(docs: Document[], projection: Document): Document[] {
  const fields = Object.keys(projection);
  if (
    fields.every(
      (f) => !f.includes('.') && !f.startsWith('$') && (projection[f] === 0 || projection[f] === false),
    )
  ) {
    return docs.map((doc) => {
      const out: Document = {};
      for (const key in doc) if (!fields.includes(key)) out[key] = doc[key];
      return out;
    });
  }
  return new Query({}).find(docs, projection).all() as Document[];
}

/** `{ $group: { _id: <constant>, n: { $sum: 1 } } }`, the counting stage of countDocuments. */
function isCountGroup(stage: Document): boolean {
  const group = stage?.$group as Document | undefined;
  if (!group || Object.keys(stage).length !== 1) return false;
  const fields = Object.keys(group).filter((k) => k !== '_id');
  if (fields.length !== 1) return false;
  const id = group._id;
  if (typeof id === 'string' && id.startsWith('$')) return false;
  if (id !== null && typeof id === 'object') return false;
  const acc = group[fields[0]] as Document;
  return !!acc && Object.keys(acc).length === 1 && acc.$sum === 1;
}

const UPDATE_FIELDS = [
  'q',
  'u',
  'c',
  'multi',
  'upsert',
  'upsertSupplied',
  'arrayFilters',
  'hint',
  'collation',
];
const DELETE_FIELDS = ['q', 'limit', 'hint', 'collation'];

/** MongoDB 7.0 refuses a statement field it does not know (`sort` in an update arrived in 8.0). */
function checkStatementFields(command: string, statements: unknown, allowed: string[]): void {
  if (!Array.isArray(statements)) return;
  const list = command === 'update' ? 'updates' : 'deletes';
  for (const statement of statements as Document[]) {
    for (const field of Object.keys(statement ?? {})) {
      if (!allowed.includes(field))
        throw new MongoCommandError(
          40415,
          'Location40415',
          `BSON field '${command}.${list}.${field}' is an unknown field.`,
        );
    }
  }
}

/** An `_id` may not be an array, nor hold `$`-prefixed field names at any depth. */
function checkIdField(id: unknown): void {
  if (Array.isArray(id))
    throw new MongoCommandError(53, 'InvalidIdField', 'The _id value cannot be of type array');
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return;
    if ((value as { _bsontype?: string })._bsontype) return;
    for (const [key, inner] of Object.entries(value as Document)) {
      if (key.startsWith('$'))
        throw new MongoCommandError(
          52,
          'DollarPrefixedFieldName',
          `_id fields may not contain '$'-prefixed fields: ${key} is not valid for storage.`,
        );
      visit(inner);
    }
  };
  visit(id);
}

function validationOptions(cmd: Document): CollectionOptions {
  const out: CollectionOptions = {};
  if (cmd.validator !== undefined) {
    if (!cmd.validator || typeof cmd.validator !== 'object' || Array.isArray(cmd.validator))
      throw badValue('validator must be a document');
    out.validator = cmd.validator as Document;
  }
  if (cmd.validationLevel !== undefined) {
    if (!['off', 'strict', 'moderate'].includes(cmd.validationLevel))
      throw badValue(
        `Enumeration value '${String(cmd.validationLevel)}' for field 'validationLevel' is not a valid value.`,
      );
    out.validationLevel = cmd.validationLevel;
  }
  if (cmd.validationAction !== undefined) {
    if (!['error', 'warn'].includes(cmd.validationAction))
      throw badValue(
        `Enumeration value '${String(cmd.validationAction)}' for field 'validationAction' is not a valid value.`,
      );
    out.validationAction = cmd.validationAction;
  }
  return out;
}

function checkCollectionName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0 || name.includes('$') || name.includes('\0')) {
    throw invalidNamespace(`Invalid collection name: ${String(name)}`);
  }
  return name;
}

/** The command layer: MongoDB commands over the storage, with sessions and transactions. */
export class Engine {
  private readonly cursors = new Map<string, CursorState>();
  private nextCursorId = 1;
  private readonly txns: Transactions;
  private readonly electionId = new ObjectId('7fffffff0000000000000001');
  private readonly startedAt = new Date();
  /** The plan and counters of the last query run (for `explain`). */
  private lastRun?: { stats: ExecStats; filter: Document | undefined };

  constructor(
    readonly storage: Storage,
    private readonly identity: ServerIdentity,
  ) {
    this.txns = new Transactions(storage);
  }

  run(db: string, command: Document, connectionId: number): Document {
    const name = Object.keys(command)[0];
    try {
      const txn = this.txns.forCommand(command, name);
      const reply = this.dispatch(name, db, command, txn, connectionId);
      return { ...reply, ok: 1 };
    } catch (error) {
      return toCommandError(error).toReply();
    } finally {
      // the command's journal records reach the file before its reply is sent
      this.storage.flush();
    }
  }

  // ---------------------------------------------------------------- views over committed + transaction state

  private collectionFor(
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

  private docsOf(coll: Collection | undefined, txn: Transaction | undefined): Document[] {
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
  private overlayOf(coll: Collection | undefined, txn: Transaction | undefined): Overlay | undefined {
    return coll ? txn?.writes.get(coll.ns) : undefined;
  }

  /** The documents matching `filter` in scan order, through the planner. */
  private matching(
    coll: Collection | undefined,
    filter: Document | undefined,
    txn: Transaction | undefined,
    extra: Partial<QueryOptions> = {},
  ): Document[] {
    const { docs, stats } = runFind(coll, { filter, ...extra }, this.overlayOf(coll, txn));
    this.lastRun = { stats, filter };
    return docs;
  }

  private getDoc(coll: Collection, idKey: string, txn: Transaction | undefined): Document | undefined {
    const overlay = txn?.writes.get(coll.ns);
    if (overlay?.has(idKey)) return overlay.get(idKey) ?? undefined;
    return coll.docs.get(idKey);
  }

  /** Stores (or deletes, with null) one document, checking unique indexes first. */
  private write(coll: Collection, idKey: string, doc: Document | null, txn: Transaction | undefined): void {
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

  // ---------------------------------------------------------------- dispatch

  private dispatch(
    name: string,
    db: string,
    cmd: Document,
    txn: Transaction | undefined,
    connectionId: number,
  ): Document {
    const target = typeof cmd[name] === 'string' ? this.storage.collection(db, cmd[name]) : undefined;
    if (target?.options.viewOn) return this.onView(name, db, cmd, target.options, txn, connectionId);
    switch (name) {
      case 'hello':
      case 'isMaster':
      case 'ismaster':
        return this.hello(connectionId, name !== 'hello');
      case 'ping':
      case 'endSessions':
      case 'killSessions':
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
        return { featureCompatibilityVersion: { version: '7.0' } };
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
        return this.dbStats(db);
      case 'commitTransaction':
        if (txn) this.txns.commit(txn);
        return {};
      case 'abortTransaction':
        if (txn) this.txns.abort(txn);
        return {};
      case 'find':
        return this.find(db, cmd, txn);
      case 'getMore':
        return this.getMore(cmd);
      case 'explain':
        return this.explain(db, cmd, txn, connectionId);
      case 'killCursors':
        return this.killCursors(cmd);
      case 'insert':
        return this.insert(db, cmd, txn);
      case 'update':
        return this.update(db, cmd, txn);
      case 'delete':
        return this.delete(db, cmd, txn);
      case 'findAndModify':
      case 'findandmodify':
        return this.findAndModify(db, cmd, txn);
      case 'aggregate':
        return this.aggregate(db, cmd, txn);
      case 'count':
        return this.count(db, cmd, txn);
      case 'distinct':
        return this.distinct(db, cmd, txn);
      case 'create':
        return this.create(db, cmd);
      case 'collMod':
        return this.collMod(db, cmd);
      case 'drop': {
        // MongoDB 7.0 answers ok for a collection that does not exist
        const coll = this.storage.collection(db, checkCollectionName(cmd.drop));
        if (!coll) return {};
        this.storage.dropCollection(db, cmd.drop);
        return { ns: `${db}.${cmd.drop}`, nIndexesWas: coll.indexes.length };
      }
      case 'dropDatabase':
        this.storage.dropDatabase(db);
        return { dropped: db };
      case 'listCollections':
        return this.listCollections(db, cmd, txn);
      case 'listDatabases':
        return this.listDatabases(cmd);
      case 'createIndexes':
        return this.createIndexes(db, cmd);
      case 'listIndexes':
        return this.listIndexes(db, cmd);
      case 'dropIndexes':
      case 'deleteIndexes':
        return this.dropIndexes(db, cmd);
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

  // ---------------------------------------------------------------- reads

  private cursorReply(
    ns: string,
    docs: Document[],
    batchSize: number | undefined,
    singleBatch: boolean,
  ): Document {
    const size = batchSize && batchSize > 0 ? batchSize : singleBatch ? docs.length : DEFAULT_BATCH;
    const firstBatch = docs.slice(0, size);
    let id = Long.ZERO;
    if (!singleBatch && docs.length > size) {
      id = Long.fromNumber(this.nextCursorId++);
      this.cursors.set(id.toString(), { ns, docs: docs.slice(size) });
    }
    return { cursor: { firstBatch, id, ns } };
  }

  private query(docs: Document[], filter: Document | undefined): Document[] {
    if (!filter || Object.keys(filter).length === 0) return docs;
    return new Query(filter).find(docs).all() as Document[];
  }

  private find(db: string, cmd: Document, txn: Transaction | undefined): Document {
    const name = checkCollectionName(cmd.find);
    const coll = this.collectionFor(db, name, txn, false);
    const filter = (cmd.filter ?? {}) as Document;
    const limit = Number(cmd.limit ?? 0);
    const skip = Number(cmd.skip ?? 0);
    if (!Number.isFinite(skip) || skip < 0) throw badValue('Skip value must be non-negative');
    const sort = parseSort(cmd.sort);
    let results: Document[];
    if (sort) {
      const { docs, stats } = runFind(
        coll,
        {
          filter,
          sort,
          skip,
          limit: limit ? Math.abs(limit) : undefined,
          hint: cmd.hint,
          variables: cmd.let,
          collation: cmd.collation,
        },
        this.overlayOf(coll, txn),
      );
      this.lastRun = { stats, filter };
      results = docs;
    } else {
      // $natural or $meta sorts: mingo's cursor over the matches
      let cursor = new Query({}).find(this.matching(coll, filter, txn, { variables: cmd.let }));
      cursor = cursor.sort(cmd.sort);
      if (skip) cursor = cursor.skip(skip);
      if (limit) cursor = cursor.limit(Math.abs(limit));
      results = cursor.all() as Document[];
    }
    if (cmd.projection && Object.keys(cmd.projection).length) results = project(results, cmd.projection);
    return this.cursorReply(`${db}.${name}`, results, cmd.batchSize, !!cmd.singleBatch || limit < 0);
  }

  /** A command on a view: reads run the view's pipeline over its source; writes are refused. */
  private onView(
    name: string,
    db: string,
    cmd: Document,
    view: CollectionOptions,
    txn: Transaction | undefined,
    connectionId: number,
  ): Document {
    const base = (view.pipeline ?? []) as Document[];
    const filterStage = (filter: unknown) =>
      filter && typeof filter === 'object' && Object.keys(filter).length ? [{ $match: filter }] : [];
    const run = (pipeline: Document[], batchSize?: number) =>
      this.dispatch(
        'aggregate',
        db,
        { aggregate: view.viewOn, pipeline, cursor: batchSize ? { batchSize } : {}, let: cmd.let },
        txn,
        connectionId,
      );
    const all = (pipeline: Document[]) => run(pipeline, 2 ** 31 - 1).cursor.firstBatch as Document[];
    switch (name) {
      case 'aggregate':
        return run([...base, ...((cmd.pipeline ?? []) as Document[])], cmd.cursor?.batchSize);
      case 'find': {
        const stages = [...base, ...filterStage(cmd.filter)];
        if (cmd.sort && Object.keys(cmd.sort).length) stages.push({ $sort: cmd.sort });
        if (cmd.skip) stages.push({ $skip: Number(cmd.skip) });
        if (cmd.limit) stages.push({ $limit: Math.abs(Number(cmd.limit)) });
        if (cmd.projection && Object.keys(cmd.projection).length) stages.push({ $project: cmd.projection });
        return run(stages, cmd.batchSize);
      }
      case 'count': {
        const stages = [...base, ...filterStage(cmd.query)];
        if (cmd.skip) stages.push({ $skip: Number(cmd.skip) });
        if (cmd.limit) stages.push({ $limit: Math.abs(Number(cmd.limit)) });
        return { n: all(stages).length };
      }
      case 'distinct': {
        if (typeof cmd.key !== 'string') throw failedToParse('distinct key must be a string');
        return { values: distinctValues(all([...base, ...filterStage(cmd.query)]), cmd.key) };
      }
      case 'create':
        throw new MongoCommandError(
          48,
          'NamespaceExists',
          `Collection ${db}.${String(cmd.create)} already exists.`,
        );
      case 'drop':
      case 'listIndexes':
      case 'collMod':
        break;
      default:
        throw new MongoCommandError(
          166,
          'CommandNotSupportedOnView',
          `Namespace ${db}.${String(cmd[name])} is a view, not a collection`,
        );
    }
    if (name === 'listIndexes')
      throw new MongoCommandError(
        166,
        'CommandNotSupportedOnView',
        `Namespace ${db}.${String(cmd[name])} is a view, not a collection`,
      );
    if (name === 'collMod') return this.collMod(db, cmd);
    this.storage.dropCollection(db, cmd.drop);
    return { ns: `${db}.${cmd.drop}` };
  }

  /** `explain` of a read (find, count, aggregate, distinct): the chosen plan and what it examined. */
  private explain(db: string, cmd: Document, txn: Transaction | undefined, connectionId: number): Document {
    const inner = cmd.explain as Document;
    const innerName = inner && typeof inner === 'object' ? Object.keys(inner)[0] : undefined;
    if (!innerName || !['find', 'count', 'aggregate', 'distinct'].includes(innerName))
      throw badValue(
        `explain is supported for find, count, aggregate and distinct, not ${String(innerName)}`,
      );
    const firstCursor = this.nextCursorId;
    this.lastRun = undefined;
    this.dispatch(innerName, db, inner, txn, connectionId);
    for (let id = firstCursor; id < this.nextCursorId; id++) this.cursors.delete(String(id));
    const ns = `${db}.${String(inner[innerName])}`;
    const run = this.lastRun ?? {
      stats: {
        plan: {
          kind: 'collscan' as const,
          intervals: [],
          bounded: 0,
          direction: 1 as const,
          providesSort: true,
          sortPositions: [],
          exact: false,
          streams: [],
          cost: 0,
        },
        keysExamined: 0,
        docsExamined: 0,
        nReturned: 0,
      },
      filter: undefined,
    };
    return {
      ...explainPlan(ns, run.stats, run.filter),
      command: inner,
      serverInfo: { host: this.identity.host, port: this.identity.port, version: '7.0.0' },
    };
  }

  private getMore(cmd: Document): Document {
    const key = String(cmd.getMore);
    const state = this.cursors.get(key);
    if (!state) throw cursorNotFound(key);
    const size = cmd.batchSize && cmd.batchSize > 0 ? Number(cmd.batchSize) : state.docs.length;
    const nextBatch = state.docs.splice(0, size);
    let id = Long.fromString(key);
    if (state.docs.length === 0) {
      this.cursors.delete(key);
      id = Long.ZERO;
    }
    return { cursor: { nextBatch, id, ns: state.ns } };
  }

  private killCursors(cmd: Document): Document {
    const killed: unknown[] = [];
    const notFound: unknown[] = [];
    for (const id of (cmd.cursors ?? []) as unknown[]) {
      (this.cursors.delete(String(id)) ? killed : notFound).push(id);
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
  }

  private count(db: string, cmd: Document, txn: Transaction | undefined): Document {
    const coll = this.collectionFor(db, checkCollectionName(cmd.count), txn, false);
    const { n, stats } = runCount(
      coll,
      {
        filter: cmd.query,
        skip: cmd.skip ? Number(cmd.skip) : undefined,
        limit: cmd.limit ? Math.abs(Number(cmd.limit)) : undefined,
        hint: cmd.hint,
        collation: cmd.collation,
      },
      this.overlayOf(coll, txn),
    );
    this.lastRun = { stats, filter: cmd.query };
    return { n };
  }

  private distinct(db: string, cmd: Document, txn: Transaction | undefined): Document {
    const coll = this.collectionFor(db, checkCollectionName(cmd.distinct), txn, false);
    if (typeof cmd.key !== 'string') throw failedToParse('distinct key must be a string');
    return {
      values: distinctValues(this.matching(coll, cmd.query, txn, { collation: cmd.collation }), cmd.key),
    };
  }

  private aggregate(db: string, cmd: Document, txn: Transaction | undefined): Document {
    if (!Array.isArray(cmd.pipeline)) throw failedToParse("'pipeline' option must be specified as an array");
    const stages = cmd.pipeline as Document[];
    stages.forEach((stage, i) => {
      const op = stage && typeof stage === 'object' ? Object.keys(stage)[0] : undefined;
      if ((op === '$out' || op === '$merge') && i !== stages.length - 1)
        throw new MongoCommandError(
          40601,
          'Location40601',
          `${op} can only be the final stage in the pipeline`,
        );
    });
    const final = stages.length ? Object.keys(stages[stages.length - 1] ?? {})[0] : undefined;
    if (final === '$out' || final === '$merge') {
      if (txn)
        throw new MongoCommandError(
          263,
          'OperationNotSupportedInTransaction',
          `${final} cannot be used in a transaction`,
        );
      const reply = this.aggregate(
        db,
        { ...cmd, pipeline: stages.slice(0, -1), cursor: { batchSize: 2 ** 31 - 1 } },
        txn,
      );
      const docs = reply.cursor.firstBatch as Document[];
      const spec = stages[stages.length - 1][final];
      if (final === '$out') this.writeOut(db, spec, docs);
      else this.writeMerge(db, spec, docs);
      return this.cursorReply(`${db}.${String(cmd.aggregate)}`, [], cmd.cursor?.batchSize, false);
    }
    const collName = cmd.aggregate === 1 ? undefined : checkCollectionName(cmd.aggregate);
    const pipeline = cmd.pipeline as Document[];
    const resolver = (name: string) => this.docsOf(this.collectionFor(db, name, txn, false), txn);
    if (!collName) {
      const results = aggregate([], pipeline, {
        collectionResolver: resolver,
        variables: cmd.let,
      }) as Document[];
      return this.cursorReply(`${db}.$cmd.aggregate`, results, cmd.cursor?.batchSize, false);
    }
    const coll = this.collectionFor(db, collName, txn, false);
    // the leading $match / $sort / $skip / $limit stages run through the planner
    const only = (stage: Document | undefined, op: string) =>
      stage && typeof stage === 'object' && Object.keys(stage).length === 1 && op in stage;
    let at = 0;
    let filter: Document | undefined;
    let sort: SortField[] = [];
    let skip: number | undefined;
    let limit: number | undefined;
    if (only(pipeline[at], '$match')) filter = pipeline[at++].$match as Document;
    if (only(pipeline[at], '$sort')) {
      const parsed = parseSort(pipeline[at].$sort);
      if (parsed && parsed.length) {
        sort = parsed;
        at++;
      }
    }
    if (only(pipeline[at], '$skip') && Number(pipeline[at].$skip) >= 0) skip = Number(pipeline[at++].$skip);
    if (only(pipeline[at], '$limit') && Number(pipeline[at].$limit) > 0)
      limit = Number(pipeline[at++].$limit);
    const rest = pipeline.slice(at);
    const overlay = this.overlayOf(coll, txn);
    // countDocuments: [$match, $skip?, $limit?, { $group: { _id: 1, n: { $sum: 1 } } }]
    if (!sort.length && rest.length === 1 && isCountGroup(rest[0])) {
      const { n, stats } = runCount(
        coll,
        { filter, skip, limit, hint: cmd.hint, variables: cmd.let, collation: cmd.collation },
        overlay,
      );
      this.lastRun = { stats, filter };
      const idValue = rest[0].$group._id;
      const field = Object.keys(rest[0].$group).find((k) => k !== '_id')!;
      const results = n ? [{ _id: idValue, [field]: n }] : [];
      return this.cursorReply(`${db}.${collName}`, results, cmd.cursor?.batchSize, false);
    }
    const { docs, stats } = runFind(
      coll,
      { filter, sort, skip, limit, hint: cmd.hint, variables: cmd.let, collation: cmd.collation },
      overlay,
    );
    this.lastRun = { stats, filter };
    const results = rest.length
      ? (aggregate(docs, rest, { collectionResolver: resolver, variables: cmd.let }) as Document[])
      : docs;
    return this.cursorReply(`${db}.${collName}`, results, cmd.cursor?.batchSize, false);
  }

  /** The target of `$out`/`$merge`: a name, or `{ db, coll }`. */
  private outputTarget(db: string, spec: unknown, op: string): Collection {
    let targetDb = db;
    let name: unknown = spec;
    if (spec && typeof spec === 'object') {
      const s = spec as Document;
      targetDb = typeof s.db === 'string' ? s.db : db;
      name = s.coll;
    }
    if (typeof name !== 'string') throw failedToParse(`${op} needs a collection name`);
    return this.storage.ensureCollection(targetDb, checkCollectionName(name));
  }

  /** `$out`: the target collection's documents become the pipeline's results (its indexes stay). */
  private writeOut(db: string, spec: unknown, docs: Document[]): void {
    const target = this.outputTarget(db, spec, '$out');
    const incoming = docs.map((d) => (d._id === undefined ? { _id: new ObjectId(), ...d } : d));
    const seen = new Set<string>();
    for (const doc of incoming) {
      checkIdField(doc._id);
      const key = valueKey(doc._id);
      if (seen.has(key)) throw Collection.duplicateError(target.ns, target.indexes[0], doc);
      seen.add(key);
    }
    // unique indexes are checked before anything is replaced
    const check = new Collection(target.db, target.name);
    for (const index of target.indexes.slice(1)) check.addIndex(index);
    for (const doc of incoming) {
      const key = valueKey(doc._id);
      check.checkUnique(doc, key);
      check.put(key, doc);
    }
    for (const idKey of [...target.docs.keys()]) this.write(target, idKey, null, undefined);
    for (const doc of incoming) this.write(target, valueKey(doc._id), doc, undefined);
  }

  /** `$merge`: each result matched to the target on `on` (default `_id`), then whenMatched / whenNotMatched. */
  private writeMerge(db: string, spec: unknown, docs: Document[]): void {
    const options: Document = typeof spec === 'string' ? { into: spec } : ((spec ?? {}) as Document);
    const target = this.outputTarget(db, options.into, '$merge');
    const on: string[] =
      options.on === undefined ? ['_id'] : Array.isArray(options.on) ? options.on : [options.on];
    const whenMatched = options.whenMatched ?? 'merge';
    const whenNotMatched = options.whenNotMatched ?? 'insert';
    for (const result of docs) {
      const filter: Document = {};
      for (const field of on) {
        const value = result[field];
        if (value === undefined || Array.isArray(value))
          throw new MongoCommandError(
            51132,
            'Location51132',
            `$merge write error: 'on' field '${field}' cannot be missing, null or an array`,
          );
        filter[field] = value;
      }
      const [existing] = this.matching(target, filter, undefined, { limit: 1 });
      if (!existing) {
        if (whenNotMatched === 'discard') continue;
        if (whenNotMatched === 'fail')
          throw new MongoCommandError(
            13113,
            'MergeStageNoMatchingDocument',
            '$merge could not find a matching document in the target collection for at least one document in the source collection',
          );
        const doc = result._id === undefined ? { _id: new ObjectId(), ...result } : result;
        checkIdField(doc._id);
        target.checkUnique(doc, valueKey(doc._id));
        this.write(target, valueKey(doc._id), doc, undefined);
        continue;
      }
      let next: Document;
      if (whenMatched === 'keepExisting') continue;
      else if (whenMatched === 'fail')
        throw Collection.duplicateError(target.ns, target.indexes[0], existing);
      else if (whenMatched === 'replace') next = { ...result, _id: existing._id };
      else if (whenMatched === 'merge') next = { ...existing, ...result, _id: existing._id };
      else if (Array.isArray(whenMatched)) {
        const [updated] = aggregate([cloneDoc(existing)], whenMatched as Document[], {
          variables: { ...(options.let ?? {}), new: result },
        }) as Document[];
        next = { ...updated, _id: existing._id };
      } else throw badValue(`unknown $merge whenMatched: ${String(whenMatched)}`);
      const idKey = valueKey(existing._id);
      target.checkUnique(next, idKey);
      this.write(target, idKey, next, undefined);
    }
  }

  // ---------------------------------------------------------------- writes

  private insert(db: string, cmd: Document, txn: Transaction | undefined): Document {
    const coll = this.collectionFor(db, checkCollectionName(cmd.insert), txn, true)!;
    const ordered = cmd.ordered !== false;
    const writeErrors: Document[] = [];
    let n = 0;
    ((cmd.documents ?? []) as Document[]).forEach((input, index) => {
      if (ordered && writeErrors.length) return;
      try {
        const { _id, ...fields } = input;
        const doc = { _id: _id === undefined ? new ObjectId() : _id, ...fields }; // _id first, as mongod stores it
        checkIdField(doc._id);
        const idKey = valueKey(doc._id);
        if (this.getDoc(coll, idKey, txn)) {
          throw Collection.duplicateError(coll.ns, coll.indexes[0], doc);
        }
        if (!cmd.bypassDocumentValidation) enforceValidator(coll.options, doc, undefined);
        this.write(coll, idKey, doc, txn);
        n++;
      } catch (error) {
        this.writeError(error, index, writeErrors);
      }
    });
    return writeErrors.length ? { n, writeErrors } : { n };
  }

  /** Write errors that abort a transaction are thrown; the rest are reported per statement. */
  private writeError(error: unknown, index: number, writeErrors: Document[]): void {
    const e = toCommandError(error);
    if (e.code === 112 || e.code === 251) throw e;
    writeErrors.push({ index, code: e.code, errmsg: e.message, ...(e.extra as Document) });
  }

  private updateOne(coll: Collection, given: Document, txn: Transaction | undefined, target?: Document) {
    // under a collation, the update's own match (positional $) compares strings through it too
    const strings = collator(given.collation);
    const statement = strings
      ? { ...given, q: collateFilter(given.q, strings), collation: undefined }
      : given;
    const u = statement.u as Document;
    const matches = target
      ? [target]
      : this.matching(coll, statement.q, txn, {
          variables: statement.let,
          collation: statement.collation,
          ...(statement.multi ? {} : { limit: 1 }),
        });
    const selected = statement.multi ? matches : matches.slice(0, 1);
    let nModified = 0;
    const changed: Document[] = [];
    for (const doc of selected) {
      const next = applyUpdateTo(doc, u, statement, false);
      if (!serializedEqual(doc, next)) {
        if (!statement.bypass) enforceValidator(coll.options, next, doc);
        this.write(coll, valueKey(doc._id), next, txn);
        nModified++;
      }
      changed.push(next);
    }
    if (selected.length === 0 && statement.upsert) {
      const seed = upsertSeed(statement.q);
      // a replacement keeps only the filter's _id (MongoDB: `replaceOne({ _id: 4 }, { x: 1 }, { upsert: true })` inserts _id 4)
      const base =
        Array.isArray(u) || isOperatorUpdate(u)
          ? { _id: seed._id ?? new ObjectId(), ...seed }
          : { _id: seed._id !== undefined ? seed._id : u._id !== undefined ? u._id : new ObjectId() };
      checkIdField(base._id);
      const doc = applyUpdateTo(base, u, statement, true);
      const idKey = valueKey(doc._id);
      if (this.getDoc(coll, idKey, txn)) throw Collection.duplicateError(coll.ns, coll.indexes[0], doc);
      if (!statement.bypass) enforceValidator(coll.options, doc, undefined);
      this.write(coll, idKey, doc, txn);
      return { n: 1, nModified: 0, upserted: doc, docs: [doc], before: [] as Document[] };
    }
    return { n: selected.length, nModified, upserted: undefined, docs: changed, before: selected };
  }

  private update(db: string, cmd: Document, txn: Transaction | undefined): Document {
    checkStatementFields('update', cmd.updates, UPDATE_FIELDS);
    const coll = this.collectionFor(db, checkCollectionName(cmd.update), txn, true)!;
    const ordered = cmd.ordered !== false;
    const writeErrors: Document[] = [];
    const upserted: Document[] = [];
    let n = 0;
    let nModified = 0;
    ((cmd.updates ?? []) as Document[]).forEach((statement, index) => {
      if (ordered && writeErrors.length) return;
      try {
        const result = this.updateOne(
          coll,
          { ...statement, let: cmd.let, bypass: !!cmd.bypassDocumentValidation },
          txn,
        );
        n += result.n;
        nModified += result.nModified;
        if (result.upserted) upserted.push({ index, _id: result.upserted._id });
      } catch (error) {
        this.writeError(error, index, writeErrors);
      }
    });
    return {
      n,
      nModified,
      ...(upserted.length ? { upserted } : {}),
      ...(writeErrors.length ? { writeErrors } : {}),
    };
  }

  private delete(db: string, cmd: Document, txn: Transaction | undefined): Document {
    checkStatementFields('delete', cmd.deletes, DELETE_FIELDS);
    const coll = this.collectionFor(db, checkCollectionName(cmd.delete), txn, false);
    let n = 0;
    if (!coll) return { n };
    for (const statement of (cmd.deletes ?? []) as Document[]) {
      const one = Number(statement.limit) === 1;
      const selected = this.matching(coll, statement.q, txn, {
        variables: cmd.let,
        collation: statement.collation,
        ...(one ? { limit: 1 } : {}),
      });
      for (const doc of selected) this.write(coll, valueKey(doc._id), null, txn);
      n += selected.length;
    }
    return { n };
  }

  private findAndModify(db: string, cmd: Document, txn: Transaction | undefined): Document {
    const name = checkCollectionName(cmd.findAndModify ?? cmd.findandmodify);
    const coll = this.collectionFor(db, name, txn, !cmd.remove)!;
    if (!cmd.remove && cmd.update === undefined)
      throw failedToParse('Either an update or remove=true must be specified');
    const sort = parseSort(cmd.sort);
    let matches = this.matching(coll, cmd.query, txn, {
      variables: cmd.let,
      collation: cmd.collation,
      ...(sort ? { sort, limit: 1 } : {}),
    });
    if (!sort) matches = new Query({}).find(matches).sort(cmd.sort).all() as Document[];
    const target = matches[0];
    const project = (doc: Document | undefined) =>
      doc && cmd.fields && Object.keys(cmd.fields).length
        ? (new Query({}).find([doc], cmd.fields).all()[0] as Document)
        : (doc ?? null);
    if (cmd.remove) {
      if (target) this.write(coll, valueKey(target._id), null, txn);
      return { lastErrorObject: { n: target ? 1 : 0 }, value: project(target) };
    }
    if (!target && !cmd.upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
    const statement = {
      q: cmd.query ?? {},
      u: cmd.update,
      upsert: !!cmd.upsert,
      multi: false,
      arrayFilters: cmd.arrayFilters,
      let: cmd.let,
      bypass: !!cmd.bypassDocumentValidation,
    };
    const result = this.updateOne(coll, statement, txn, target);
    const after = result.docs[0];
    if (result.upserted) {
      return {
        lastErrorObject: { n: 1, updatedExisting: false, upserted: after._id },
        value: cmd.new ? project(after) : null,
      };
    }
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(cmd.new ? after : target) };
  }

  // ---------------------------------------------------------------- collections and indexes

  private create(db: string, cmd: Document): Document {
    const name = checkCollectionName(cmd.create);
    if (this.storage.collection(db, name)) {
      throw new MongoCommandError(48, 'NamespaceExists', `Collection ${db}.${name} already exists.`);
    }
    const options: CollectionOptions = {};
    if (cmd.viewOn !== undefined) {
      if (typeof cmd.viewOn !== 'string' || !cmd.viewOn) throw badValue("'viewOn' must be a collection name");
      if (cmd.pipeline !== undefined && !Array.isArray(cmd.pipeline))
        throw badValue("'pipeline' must be an array");
      options.viewOn = cmd.viewOn;
      options.pipeline = (cmd.pipeline ?? []) as Document[];
    } else Object.assign(options, validationOptions(cmd));
    const coll = this.storage.ensureCollection(db, name);
    if (Object.keys(options).length) this.storage.setOptions(coll, options);
    return {};
  }

  /** collMod: validator, validationLevel, validationAction (and a view's pipeline). */
  private collMod(db: string, cmd: Document): Document {
    const name = checkCollectionName(cmd.collMod);
    const coll = this.storage.collection(db, name);
    if (!coll) throw namespaceNotFound(`ns does not exist: ${db}.${name}`);
    const options: CollectionOptions = { ...coll.options, ...validationOptions(cmd) };
    if (coll.options.viewOn && Array.isArray(cmd.pipeline)) options.pipeline = cmd.pipeline as Document[];
    this.storage.setOptions(coll, options);
    return {};
  }

  private listCollections(db: string, cmd: Document, txn: Transaction | undefined): Document {
    const colls = [...(this.storage.dbs.get(db)?.values() ?? [])];
    if (txn) for (const c of txn.collections.values()) if (c.db === db && !colls.includes(c)) colls.push(c);
    const infos = colls.map((c) =>
      c.options.viewOn
        ? {
            name: c.name,
            type: 'view',
            options: { viewOn: c.options.viewOn, pipeline: c.options.pipeline ?? [] },
            info: { readOnly: true },
          }
        : {
            name: c.name,
            type: 'collection',
            options: { ...c.options },
            info: { readOnly: false },
            idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
          },
    );
    const filtered = this.query(infos, cmd.filter);
    const docs = cmd.nameOnly ? filtered.map((i) => ({ name: i.name, type: i.type })) : filtered;
    return this.cursorReply(`${db}.$cmd.listCollections`, docs, cmd.cursor?.batchSize, false);
  }

  private listDatabases(cmd: Document): Document {
    const databases = [...this.storage.dbs.keys()].map((name) => ({ name, sizeOnDisk: 0, empty: false }));
    const filtered = this.query(databases, cmd.filter);
    return {
      databases: cmd.nameOnly ? filtered.map((d) => ({ name: d.name })) : filtered,
      totalSize: 0,
      totalSizeMb: 0,
    };
  }

  private dbStats(db: string): Document {
    const colls = [...(this.storage.dbs.get(db)?.values() ?? [])];
    const objects = colls.reduce((sum, c) => sum + c.docs.size, 0);
    return {
      db,
      collections: colls.length,
      objects,
      dataSize: 0,
      storageSize: 0,
      indexes: colls.reduce((s, c) => s + c.indexes.length, 0),
    };
  }

  private createIndexes(db: string, cmd: Document): Document {
    const name = checkCollectionName(cmd.createIndexes);
    const created = !this.storage.collection(db, name);
    const coll = this.storage.ensureCollection(db, name);
    const before = coll.indexes.length;
    if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0)
      throw badValue('Must specify at least one index to create');
    for (const raw of cmd.indexes as Document[]) {
      if (!raw.key || typeof raw.key !== 'object' || Object.keys(raw.key).length === 0) {
        throw new MongoCommandError(67, 'CannotCreateIndex', 'Index keys cannot be empty.');
      }
      const spec: IndexSpec = { v: 2, ...raw, key: raw.key, name: raw.name ?? defaultIndexName(raw.key) };
      const sameName = coll.indexes.find((i) => i.name === spec.name);
      const sameKey = coll.indexes.find((i) => valueKey(i.key) === valueKey(spec.key));
      if (sameName) {
        if (valueKey(sameName.key) !== valueKey(spec.key)) {
          throw new MongoCommandError(
            86,
            'IndexKeySpecsConflict',
            `An existing index has the same name as the requested index but different key: ${spec.name}`,
          );
        }
        if (!!sameName.unique !== !!spec.unique) {
          throw new MongoCommandError(
            86,
            'IndexKeySpecsConflict',
            `An existing index has the same name as the requested index but different options: ${spec.name}`,
          );
        }
        continue;
      }
      if (sameKey && !!sameKey.unique === !!spec.unique && sameKey.name !== '_id_') {
        throw new MongoCommandError(
          85,
          'IndexOptionsConflict',
          `Index already exists with a different name: ${sameKey.name}`,
        );
      }
      if (sameKey && sameKey.name === '_id_') continue;
      coll.addIndex(spec);
      this.storage.append({ t: 'index', d: db, c: name, spec });
    }
    return {
      numIndexesBefore: before,
      numIndexesAfter: coll.indexes.length,
      createdCollectionAutomatically: created,
    };
  }

  private listIndexes(db: string, cmd: Document): Document {
    const name = checkCollectionName(cmd.listIndexes);
    const coll = this.storage.collection(db, name);
    if (!coll) throw namespaceNotFound(`ns does not exist: ${db}.${name}`);
    return this.cursorReply(
      `${db}.${name}`,
      coll.indexes.map((i) => ({ ...i })),
      cmd.cursor?.batchSize,
      false,
    );
  }

  private dropIndexes(db: string, cmd: Document): Document {
    const name = checkCollectionName(cmd.dropIndexes ?? cmd.deleteIndexes);
    const coll = this.storage.collection(db, name);
    if (!coll) throw namespaceNotFound(`ns not found ${db}.${name}`);
    const was = coll.indexes.length;
    const targets: string[] =
      cmd.index === '*'
        ? coll.indexes.slice(1).map((i) => i.name)
        : Array.isArray(cmd.index)
          ? cmd.index
          : typeof cmd.index === 'string'
            ? [cmd.index]
            : coll.indexes.filter((i) => valueKey(i.key) === valueKey(cmd.index)).map((i) => i.name);
    for (const target of targets) {
      if (target === '_id_') throw new MongoCommandError(72, 'InvalidOptions', 'cannot drop _id index');
      if (!coll.indexes.some((i) => i.name === target)) {
        throw new MongoCommandError(27, 'IndexNotFound', `index not found with name [${target}]`);
      }
      coll.dropIndex(target);
      this.storage.append({ t: 'dropIndex', d: db, c: name, name: target });
    }
    return { nIndexesWas: was };
  }
}
