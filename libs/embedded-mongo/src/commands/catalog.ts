import type { Document } from 'bson';
import { Query } from '../mingo';
import { MongoCommandError, badValue, invalidNamespace, namespaceNotFound } from '../errors';
import { defaultIndexName, valueKey, type IndexSpec } from '../collection';
import type { CommandContext } from '../context';
import type { Transaction } from '../transactions';
import type { CollectionOptions } from '../validation';

// Collections, databases and indexes: create, collMod, drop, list, stats, createIndexes, dropIndexes.

export function validationOptions(cmd: Document): CollectionOptions {
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

export function checkCollectionName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0 || name.includes('$') || name.includes('\0')) {
    throw invalidNamespace(`Invalid collection name: ${String(name)}`);
  }
  return name;
}

/** Documents matching a filter (listCollections, listDatabases). */
export function filterDocs(docs: Document[], filter: Document | undefined): Document[] {
  if (!filter || Object.keys(filter).length === 0) return docs;
  return new Query(filter).find(docs).all() as Document[];
}

/** drop: MongoDB 7.0 answers ok for a collection that does not exist. */
export function drop(ctx: CommandContext, db: string, cmd: Document): Document {
  const coll = ctx.storage.collection(db, checkCollectionName(cmd.drop));
  if (!coll) return {};
  ctx.storage.dropCollection(db, cmd.drop);
  return { ns: `${db}.${cmd.drop}`, nIndexesWas: coll.indexes.length };
}

export function create(ctx: CommandContext, db: string, cmd: Document): Document {
  const name = checkCollectionName(cmd.create);
  if (ctx.storage.collection(db, name)) {
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
  const coll = ctx.storage.ensureCollection(db, name);
  if (Object.keys(options).length) ctx.storage.setOptions(coll, options);
  return {};
}

/** collMod: validator, validationLevel, validationAction (and a view's pipeline). */
export function collMod(ctx: CommandContext, db: string, cmd: Document): Document {
  const name = checkCollectionName(cmd.collMod);
  const coll = ctx.storage.collection(db, name);
  if (!coll) throw namespaceNotFound(`ns does not exist: ${db}.${name}`);
  const options: CollectionOptions = { ...coll.options, ...validationOptions(cmd) };
  if (coll.options.viewOn && Array.isArray(cmd.pipeline)) options.pipeline = cmd.pipeline as Document[];
  ctx.storage.setOptions(coll, options);
  return {};
}

export function listCollections(
  ctx: CommandContext,
  db: string,
  cmd: Document,
  txn: Transaction | undefined,
): Document {
  const colls = [...(ctx.storage.dbs.get(db)?.values() ?? [])];
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
  const filtered = filterDocs(infos, cmd.filter);
  const docs = cmd.nameOnly ? filtered.map((i) => ({ name: i.name, type: i.type })) : filtered;
  return ctx.cursors.reply(`${db}.$cmd.listCollections`, docs, cmd.cursor?.batchSize, false);
}

export function listDatabases(ctx: CommandContext, cmd: Document): Document {
  const databases = [...ctx.storage.dbs.keys()].map((name) => ({ name, sizeOnDisk: 0, empty: false }));
  const filtered = filterDocs(databases, cmd.filter);
  return {
    databases: cmd.nameOnly ? filtered.map((d) => ({ name: d.name })) : filtered,
    totalSize: 0,
    totalSizeMb: 0,
  };
}

export function dbStats(ctx: CommandContext, db: string): Document {
  const colls = [...(ctx.storage.dbs.get(db)?.values() ?? [])];
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

export function createIndexes(ctx: CommandContext, db: string, cmd: Document): Document {
  const name = checkCollectionName(cmd.createIndexes);
  const created = !ctx.storage.collection(db, name);
  const coll = ctx.storage.ensureCollection(db, name);
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
    ctx.storage.append({ t: 'index', d: db, c: name, spec });
  }
  return {
    numIndexesBefore: before,
    numIndexesAfter: coll.indexes.length,
    createdCollectionAutomatically: created,
  };
}

export function listIndexes(ctx: CommandContext, db: string, cmd: Document): Document {
  const name = checkCollectionName(cmd.listIndexes);
  const coll = ctx.storage.collection(db, name);
  if (!coll) throw namespaceNotFound(`ns does not exist: ${db}.${name}`);
  return ctx.cursors.reply(
    `${db}.${name}`,
    coll.indexes.map((i) => ({ ...i })),
    cmd.cursor?.batchSize,
    false,
  );
}

export function dropIndexes(ctx: CommandContext, db: string, cmd: Document): Document {
  const name = checkCollectionName(cmd.dropIndexes ?? cmd.deleteIndexes);
  const coll = ctx.storage.collection(db, name);
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
    ctx.storage.append({ t: 'dropIndex', d: db, c: name, name: target });
  }
  return { nIndexesWas: was };
}
