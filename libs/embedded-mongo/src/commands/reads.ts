import type { Document } from 'bson';
import { aggregate as mingoAggregate } from 'mingo';
import { Query } from '../mingo';
import { parseSort, type SortField } from '../bson-order';
import { MongoCommandError, badValue, failedToParse } from '../errors';
import { valueKey } from '../collection';
import type { CommandContext } from '../context';
import { runCount } from '../planner/count';
import { explainPlan } from '../planner/explain';
import { runFind } from '../planner/find';
import type { Transaction } from '../transactions';
import type { CollectionOptions } from '../validation';
import { checkCollectionName, collMod } from './catalog';
import { writeMerge, writeOut } from './writes';

// Reads: find, count, distinct, aggregate, explain, and every command on a view.

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
  // top-level inclusions (`{ _id: 1, price: 1 }`, with or without `_id: 0`): _id first, then the
  // included fields in the document's order, as mongod answers them
  let withId = true;
  const included = new Set<string>();
  const simple = fields.every((f) => {
    if (f.includes('.') || f.startsWith('$')) return false;
    const v = projection[f];
    if (f === '_id' && (v === 0 || v === false)) return ((withId = false), true);
    if (v !== 1 && v !== true) return false;
    if (f !== '_id') included.add(f);
    return true;
  });
  if (simple && (included.size || withId)) {
    return docs.map((doc) => {
      const out: Document = {};
      if (withId && doc._id !== undefined) out._id = doc._id;
      for (const key in doc) if (included.has(key)) out[key] = doc[key];
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

export function find(ctx: CommandContext, db: string, cmd: Document, txn: Transaction | undefined): Document {
  const name = checkCollectionName(cmd.find);
  const coll = ctx.collectionFor(db, name, txn, false);
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
      ctx.overlayOf(coll, txn),
    );
    ctx.lastRun = { stats, filter };
    results = docs;
  } else {
    // $natural or $meta sorts: mingo's cursor over the matches
    let cursor = new Query({}).find(ctx.matching(coll, filter, txn, { variables: cmd.let }));
    cursor = cursor.sort(cmd.sort);
    if (skip) cursor = cursor.skip(skip);
    if (limit) cursor = cursor.limit(Math.abs(limit));
    results = cursor.all() as Document[];
  }
  if (cmd.projection && Object.keys(cmd.projection).length) results = project(results, cmd.projection);
  return ctx.cursors.reply(`${db}.${name}`, results, cmd.batchSize, !!cmd.singleBatch || limit < 0);
}

/** A command on a view: reads run the view's pipeline over its source; writes are refused. */
export function onView(
  ctx: CommandContext,
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
    ctx.dispatch(
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
  if (name === 'collMod') return collMod(ctx, db, cmd);
  ctx.storage.dropCollection(db, cmd.drop);
  return { ns: `${db}.${cmd.drop}` };
}

/** `explain` of a read (find, count, aggregate, distinct): the chosen plan and what it examined. */
export function explain(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
  connectionId: number,
): Document {
  const inner = cmd.explain as Document;
  const innerName = inner && typeof inner === 'object' ? Object.keys(inner)[0] : undefined;
  if (!innerName || !['find', 'count', 'aggregate', 'distinct'].includes(innerName))
    throw badValue(`explain is supported for find, count, aggregate and distinct, not ${String(innerName)}`);
  const firstCursor = ctx.cursors.nextId;
  ctx.lastRun = undefined;
  ctx.dispatch(innerName, db, inner, txn, connectionId);
  for (let id = firstCursor; id < ctx.cursors.nextId; id++) ctx.cursors.delete(String(id));
  const ns = `${db}.${String(inner[innerName])}`;
  const run = ctx.lastRun ?? {
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
    serverInfo: { host: ctx.identity.host, port: ctx.identity.port, version: '7.0.0' },
  };
}

export function count(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
  const coll = ctx.collectionFor(db, checkCollectionName(cmd.count), txn, false);
  const { n, stats } = runCount(
    coll,
    {
      filter: cmd.query,
      skip: cmd.skip ? Number(cmd.skip) : undefined,
      limit: cmd.limit ? Math.abs(Number(cmd.limit)) : undefined,
      hint: cmd.hint,
      collation: cmd.collation,
    },
    ctx.overlayOf(coll, txn),
  );
  ctx.lastRun = { stats, filter: cmd.query };
  return { n };
}

export function distinct(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
  const coll = ctx.collectionFor(db, checkCollectionName(cmd.distinct), txn, false);
  if (typeof cmd.key !== 'string') throw failedToParse('distinct key must be a string');
  return {
    values: distinctValues(ctx.matching(coll, cmd.query, txn, { collation: cmd.collation }), cmd.key),
  };
}

export function aggregate(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
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
    const reply = aggregate(
      ctx,
      db,
      { ...cmd, pipeline: stages.slice(0, -1), cursor: { batchSize: 2 ** 31 - 1 } },
      txn,
    );
    const docs = reply.cursor.firstBatch as Document[];
    const spec = stages[stages.length - 1][final];
    if (final === '$out') writeOut(ctx, db, spec, docs);
    else writeMerge(ctx, db, spec, docs);
    return ctx.cursors.reply(`${db}.${String(cmd.aggregate)}`, [], cmd.cursor?.batchSize, false);
  }
  const collName = cmd.aggregate === 1 ? undefined : checkCollectionName(cmd.aggregate);
  const pipeline = cmd.pipeline as Document[];
  const resolver = (name: string) => ctx.docsOf(ctx.collectionFor(db, name, txn, false), txn);
  if (!collName) {
    const results = mingoAggregate([], pipeline, {
      collectionResolver: resolver,
      variables: cmd.let,
    }) as Document[];
    return ctx.cursors.reply(`${db}.$cmd.aggregate`, results, cmd.cursor?.batchSize, false);
  }
  const coll = ctx.collectionFor(db, collName, txn, false);
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
  if (only(pipeline[at], '$limit') && Number(pipeline[at].$limit) > 0) limit = Number(pipeline[at++].$limit);
  const rest = pipeline.slice(at);
  const overlay = ctx.overlayOf(coll, txn);
  // countDocuments: [$match, $skip?, $limit?, { $group: { _id: 1, n: { $sum: 1 } } }]
  if (!sort.length && rest.length === 1 && isCountGroup(rest[0])) {
    const { n, stats } = runCount(
      coll,
      { filter, skip, limit, hint: cmd.hint, variables: cmd.let, collation: cmd.collation },
      overlay,
    );
    ctx.lastRun = { stats, filter };
    const idValue = rest[0].$group._id;
    const field = Object.keys(rest[0].$group).find((k) => k !== '_id')!;
    const results = n ? [{ _id: idValue, [field]: n }] : [];
    return ctx.cursors.reply(`${db}.${collName}`, results, cmd.cursor?.batchSize, false);
  }
  const { docs, stats } = runFind(
    coll,
    { filter, sort, skip, limit, hint: cmd.hint, variables: cmd.let, collation: cmd.collation },
    overlay,
  );
  ctx.lastRun = { stats, filter };
  const results = rest.length
    ? (mingoAggregate(docs, rest, { collectionResolver: resolver, variables: cmd.let }) as Document[])
    : docs;
  return ctx.cursors.reply(`${db}.${collName}`, results, cmd.cursor?.batchSize, false);
}
