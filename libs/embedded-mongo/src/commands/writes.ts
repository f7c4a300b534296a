import { ObjectId, type Document } from 'bson';
import { aggregate } from 'mingo';
import { Query } from '../mingo';
import { parseSort } from '../bson-order';
import { MongoCommandError, badValue, failedToParse, toCommandError } from '../errors';
import { collateFilter, collator } from '../collation';
import { Collection, cloneDoc, valueKey } from '../collection';
import type { CommandContext } from '../context';
import type { Transaction } from '../transactions';
import { applyUpdateTo, isOperatorUpdate, upsertSeed } from '../update';
import { enforceValidator } from '../validation';
import { checkCollectionName } from './catalog';

// Writes: insert, update, delete, findAndModify, and the outputs of aggregation ($out, $merge).

function serializedEqual(a: Document, b: Document): boolean {
  return valueKey(a) === valueKey(b);
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
export function checkIdField(id: unknown): void {
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

export function insert(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
  const coll = ctx.collectionFor(db, checkCollectionName(cmd.insert), txn, true)!;
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
      if (ctx.getDoc(coll, idKey, txn)) {
        throw Collection.duplicateError(coll.ns, coll.indexes[0], doc);
      }
      if (!cmd.bypassDocumentValidation) enforceValidator(coll.options, doc, undefined);
      ctx.write(coll, idKey, doc, txn);
      n++;
    } catch (error) {
      writeError(ctx, error, index, writeErrors);
    }
  });
  return writeErrors.length ? { n, writeErrors } : { n };
}

/** Write errors that abort a transaction are thrown; the rest are reported per statement. */
export function writeError(
  ctx: CommandContext,
  error: unknown,
  index: number,
  writeErrors: Document[],
): void {
  const e = toCommandError(error);
  if (e.code === 112 || e.code === 251) throw e;
  writeErrors.push({ index, code: e.code, errmsg: e.message, ...(e.extra as Document) });
}

export function updateOne(
  ctx: CommandContext,
  coll: Collection,
  given: Document,
  txn: Transaction | undefined,
  target?: Document,
) {
  // under a collation, the update's own match (positional $) compares strings through it too
  const strings = collator(given.collation);
  const statement = strings ? { ...given, q: collateFilter(given.q, strings), collation: undefined } : given;
  const u = statement.u as Document;
  const matches = target
    ? [target]
    : ctx.matching(coll, statement.q, txn, {
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
      ctx.write(coll, valueKey(doc._id), next, txn);
      nModified++;
    }
    changed.push(next);
  }
  if (selected.length === 0 && statement.upsert) {
    const seed = upsertSeed(statement.q);
    // a replacement keeps only the filter's _id (MongoDB: `replaceOne({ _id: 4 }, { x: 1 }, { upsert: true })` inserts _id 4)
    const base =
      Array.isArray(u) || isOperatorUpdate(u)
        ? // MongoDB: an upsert's insert takes the _id the update sets when the filter names none
          { _id: seed._id ?? insertedId(u as Document) ?? new ObjectId(), ...seed }
        : { _id: seed._id !== undefined ? seed._id : u._id !== undefined ? u._id : new ObjectId() };
    checkIdField(base._id);
    const doc = applyUpdateTo(base, u, statement, true);
    const idKey = valueKey(doc._id);
    if (ctx.getDoc(coll, idKey, txn)) throw Collection.duplicateError(coll.ns, coll.indexes[0], doc);
    if (!statement.bypass) enforceValidator(coll.options, doc, undefined);
    ctx.write(coll, idKey, doc, txn);
    return { n: 1, nModified: 0, upserted: doc, docs: [doc], before: [] as Document[] };
  }
  return { n: selected.length, nModified, upserted: undefined, docs: changed, before: selected };
}

/** The `_id` an operator update sets on insert (`$setOnInsert` or `$set`), if any. */
function insertedId(u: Document): unknown {
  if (Array.isArray(u)) return undefined;
  for (const op of ['$setOnInsert', '$set']) {
    const fields = u[op] as Document | undefined;
    if (fields && typeof fields === 'object' && fields._id !== undefined) return fields._id;
  }
  return undefined;
}

export function update(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
  checkStatementFields('update', cmd.updates, UPDATE_FIELDS);
  const coll = ctx.collectionFor(db, checkCollectionName(cmd.update), txn, true)!;
  const ordered = cmd.ordered !== false;
  const writeErrors: Document[] = [];
  const upserted: Document[] = [];
  let n = 0;
  let nModified = 0;
  ((cmd.updates ?? []) as Document[]).forEach((statement, index) => {
    if (ordered && writeErrors.length) return;
    try {
      const result = updateOne(
        ctx,
        coll,
        { ...statement, let: cmd.let, bypass: !!cmd.bypassDocumentValidation },
        txn,
      );
      n += result.n;
      nModified += result.nModified;
      if (result.upserted) upserted.push({ index, _id: result.upserted._id });
    } catch (error) {
      writeError(ctx, error, index, writeErrors);
    }
  });
  return {
    n,
    nModified,
    ...(upserted.length ? { upserted } : {}),
    ...(writeErrors.length ? { writeErrors } : {}),
  };
}

export function deleteCommand(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
  checkStatementFields('delete', cmd.deletes, DELETE_FIELDS);
  const coll = ctx.collectionFor(db, checkCollectionName(cmd.delete), txn, false);
  let n = 0;
  if (!coll) return { n };
  for (const statement of (cmd.deletes ?? []) as Document[]) {
    const one = Number(statement.limit) === 1;
    const selected = ctx.matching(coll, statement.q, txn, {
      variables: cmd.let,
      collation: statement.collation,
      ...(one ? { limit: 1 } : {}),
    });
    for (const doc of selected) ctx.write(coll, valueKey(doc._id), null, txn);
    n += selected.length;
  }
  return { n };
}

export function findAndModify(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
  const name = checkCollectionName(cmd.findAndModify ?? cmd.findandmodify);
  const coll = ctx.collectionFor(db, name, txn, !cmd.remove)!;
  if (!cmd.remove && cmd.update === undefined)
    throw failedToParse('Either an update or remove=true must be specified');
  const sort = parseSort(cmd.sort);
  let matches = ctx.matching(coll, cmd.query, txn, {
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
    if (target) ctx.write(coll, valueKey(target._id), null, txn);
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
  const result = updateOne(ctx, coll, statement, txn, target);
  const after = result.docs[0];
  if (result.upserted) {
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: after._id },
      value: cmd.new ? project(after) : null,
    };
  }
  return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(cmd.new ? after : target) };
}

/** The target of `$out`/`$merge`: a name, or `{ db, coll }`. */
export function outputTarget(ctx: CommandContext, db: string, spec: unknown, op: string): Collection {
  let targetDb = db;
  let name: unknown = spec;
  if (spec && typeof spec === 'object') {
    const s = spec as Document;
    targetDb = typeof s.db === 'string' ? s.db : db;
    name = s.coll;
  }
  if (typeof name !== 'string') throw failedToParse(`${op} needs a collection name`);
  return ctx.storage.ensureCollection(targetDb, checkCollectionName(name));
}

/** `$out`: the target collection's documents become the pipeline's results (its indexes stay). */
export function writeOut(ctx: CommandContext, db: string, spec: unknown, docs: Document[]): void {
  const target = outputTarget(ctx, db, spec, '$out');
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
  for (const idKey of [...target.docs.keys()]) ctx.write(target, idKey, null, undefined);
  for (const doc of incoming) ctx.write(target, valueKey(doc._id), doc, undefined);
}

/** `$merge`: each result matched to the target on `on` (default `_id`), then whenMatched / whenNotMatched. */
export function writeMerge(ctx: CommandContext, db: string, spec: unknown, docs: Document[]): void {
  const options: Document = typeof spec === 'string' ? { into: spec } : ((spec ?? {}) as Document);
  const target = outputTarget(ctx, db, options.into, '$merge');
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
    const [existing] = ctx.matching(target, filter, undefined, { limit: 1 });
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
      ctx.write(target, valueKey(doc._id), doc, undefined);
      continue;
    }
    let next: Document;
    if (whenMatched === 'keepExisting') continue;
    else if (whenMatched === 'fail') throw Collection.duplicateError(target.ns, target.indexes[0], existing);
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
    ctx.write(target, idKey, next, undefined);
  }
}
