import { ObjectId, type Document } from 'bson';
import { aggregate } from 'mingo';
import { update as applyUpdate } from './mingo';
import { MongoCommandError, failedToParse } from './errors';
import { cloneDoc, valueKey } from './collection';

/** Update application: operators, replacements and pipelines over a copy of a document, with mongod's checks. */

export function isOperatorUpdate(u: Document): boolean {
  const keys = Object.keys(u);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** Applies an update document (operators, replacement or pipeline) to a copy of `doc`. */
export function applyUpdateTo(
  doc: Document,
  u: Document | Document[],
  statement: Document,
  inserting: boolean,
): Document {
  if (Array.isArray(u)) {
    const [result] = aggregate([cloneDoc(doc)], u, { variables: statement.let }) as Document[];
    return { ...result, _id: doc._id };
  }
  if (!isOperatorUpdate(u)) {
    if (Object.keys(u).some((k) => k.startsWith('$')))
      throw failedToParse('Update document mixes operators and fields');
    if (u._id !== undefined && valueKey(u._id) !== valueKey(doc._id)) {
      throw new MongoCommandError(
        66,
        'ImmutableField',
        "After applying the update, the (immutable) field '_id' was found to have been altered",
      );
    }
    return { _id: doc._id, ...u };
  }
  const { $setOnInsert, ...operators } = u;
  const modifier: Document = { ...operators };
  if (inserting && $setOnInsert) modifier.$set = { ...(modifier.$set ?? {}), ...$setOnInsert };
  if (modifier.$set && typeof modifier.$set === 'object' && '_id' in modifier.$set) {
    // mongod lets an update set _id to the value it has (an upsert's new document already carries the
    // one its update sets: commands/writes.ts) and refuses any other with code 66; mingo refuses both
    if (valueKey(modifier.$set._id) !== valueKey(doc._id)) checkedId(doc, { _id: modifier.$set._id });
    const { _id: _same, ...rest } = modifier.$set as Document;
    modifier.$set = rest;
    if (!Object.keys(rest).length) delete modifier.$set;
  }
  for (const op of Object.keys(modifier)) {
    if (
      ![
        '$set',
        '$unset',
        '$inc',
        '$mul',
        '$min',
        '$max',
        '$push',
        '$pull',
        '$pullAll',
        '$addToSet',
        '$pop',
        '$rename',
        '$currentDate',
        '$bit',
      ].includes(op)
    ) {
      throw new MongoCommandError(
        9,
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
  }
  const copy = cloneDoc(doc);
  if (Object.keys(modifier).length) {
    const query = inserting ? undefined : statement.q;
    try {
      applyUpdate(copy, modifier, statement.arrayFilters, query, { cloneMode: 'none' });
    } catch (error) {
      // mingo refuses sibling positional paths (`items.$.a` with `items.$.b`) that MongoDB accepts
      if (!/would create a conflict/.test((error as Error).message)) throw error;
      assertNoPathConflict(modifier);
      const retry = cloneDoc(doc);
      for (const [op, fields] of Object.entries(modifier)) {
        for (const [path, value] of Object.entries(fields as Document)) {
          applyUpdate(retry, { [op]: { [path]: value } }, statement.arrayFilters, query, {
            cloneMode: 'none',
          });
        }
      }
      return checkedId(doc, retry);
    }
  }
  return checkedId(doc, copy);
}

function checkedId(doc: Document, updated: Document): Document {
  if (valueKey(updated._id) !== valueKey(doc._id)) {
    throw new MongoCommandError(
      66,
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  return updated;
}

/** The document an upsert starts from: the equality fields of the query. */
export function upsertSeed(q: Document): Document {
  const seed: Document = {};
  for (const [key, value] of Object.entries(q ?? {})) {
    if (key.startsWith('$')) continue;
    const v =
      value &&
      typeof value === 'object' &&
      !(value instanceof ObjectId) &&
      !(value instanceof Date) &&
      !Array.isArray(value) &&
      '$eq' in value
        ? (value as Document).$eq
        : value;
    if (
      v &&
      typeof v === 'object' &&
      !(v instanceof ObjectId) &&
      !(v instanceof Date) &&
      Object.keys(v).some((k) => k.startsWith('$'))
    )
      continue;
    if (key.includes('.')) {
      const parts = key.split('.');
      let target = seed;
      for (const part of parts.slice(0, -1)) target = target[part] ??= {};
      target[parts[parts.length - 1]] = v;
    } else seed[key] = v;
  }
  return seed;
}

/** MongoDB's rule: no updated path may equal another or be a prefix of it (segment-wise). */
function assertNoPathConflict(modifier: Document): void {
  const paths = Object.values(modifier).flatMap((fields) => Object.keys(fields as Document));
  for (const a of paths) {
    for (const b of paths) {
      if (a === b ? paths.indexOf(a) !== paths.lastIndexOf(a) : b.startsWith(`${a}.`)) {
        throw new MongoCommandError(
          40,
          'ConflictingUpdateOperators',
          `Updating the path '${b}' would create a conflict at '${a}'`,
        );
      }
    }
  }
}
