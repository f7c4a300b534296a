#!/usr/bin/env node
// `npm run restore -- --from DIR`: loads a backup made by `npm run backup` into an empty database
// (MONGODB_URI or --uri, or an embedded engine folder with --data-dir), after checking every file
// against the manifest; recreates collections with their options, the documents with their exact
// BSON types, the views and every index; then compares the database with the manifest. Refuses a
// database that holds documents unless --drop is given. --verify-only checks the files and stops.
// docs/operations.md (Backups), docs/decisions/0076-backups.md.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CliError,
  EJSON,
  EXIT,
  databaseName,
  decodeExact,
  openTarget,
  parseArgs,
  rawDocuments,
  readManifest,
  runCli,
  verifyFiles,
} from './common.mjs';

const USAGE = `usage: npm run restore -- --from DIR [--uri URI | --data-dir DIR] [--db NAME] [--drop] [--verify-only]
  --from DIR       a folder written by npm run backup
  --uri URI        the server to load (default MONGODB_URI)
  --data-dir DIR   instead: an embedded engine folder (or the API's DATA_DIR), with no server running on it
  --db NAME        the database to load (default MONGODB_DB, else the backup's own)
  --drop           empty the database first (otherwise a database holding documents is refused)
  --verify-only    check the files against the manifest (checksums, document counts) and stop`;

const OPTIONS = {
  from: 'value',
  uri: 'value',
  'data-dir': 'value',
  db: 'value',
  drop: 'flag',
  'verify-only': 'flag',
  help: 'flag',
};

/** At most this many documents, or this many bytes, per insert. */
const BATCH_DOCS = 1000;
const BATCH_BYTES = 8 * 1024 * 1024;
/** What listIndexes answers that createIndexes does not take. */
const NOT_INDEX_OPTIONS = new Set(['v', 'ns', 'background']);

/** The collections of a database that hold documents: name -> count. */
async function contents(db) {
  const held = {};
  for (const c of await db.listCollections({}, { nameOnly: false }).toArray()) {
    if (c.name.startsWith('system.')) continue;
    if ((c.type ?? 'collection') !== 'collection') {
      held[c.name] = 'a view';
      continue;
    }
    const n = await db.collection(c.name).countDocuments({});
    if (n > 0) held[c.name] = n;
  }
  return held;
}

async function createCollection(db, name, options) {
  try {
    await db.createCollection(name, options);
  } catch (error) {
    // made already (an API started on the empty database makes its collections and indexes)
    if (error?.code !== 48) throw error;
  }
}

async function loadDocuments(collection, file) {
  let batch = [];
  let bytes = 0;
  let n = 0;
  const flush = async () => {
    if (!batch.length) return;
    await collection.insertMany(batch, { ordered: true, bypassDocumentValidation: true });
    n += batch.length;
    batch = [];
    bytes = 0;
  };
  for await (const raw of rawDocuments(file)) {
    batch.push(decodeExact(raw));
    bytes += raw.length;
    if (batch.length >= BATCH_DOCS || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return n;
}

/**
 * Compares a database with a backup's manifest: each collection's count and index names, each view.
 * Answers the differences.
 */
export async function compareWithManifest(db, dir, manifest) {
  const problems = [];
  const present = new Map(
    (await db.listCollections({}, { nameOnly: false }).toArray()).map((c) => [c.name, c]),
  );
  for (const coll of manifest.collections) {
    const info = present.get(coll.name);
    if (!info) {
      problems.push(`${coll.name}: missing`);
      continue;
    }
    if (coll.type !== 'collection') continue;
    const n = await db.collection(coll.name).countDocuments({});
    if (n !== coll.count) problems.push(`${coll.name}: ${n} documents, the backup has ${coll.count}`);
    const metadata = EJSON.parse(fs.readFileSync(path.join(dir, coll.metadata), 'utf8'), { relaxed: false });
    const names = new Set((await db.collection(coll.name).listIndexes().toArray()).map((i) => i.name));
    for (const index of metadata.indexes)
      if (!names.has(index.name)) problems.push(`${coll.name}: index ${index.name} missing`);
  }
  return problems;
}

/** Restores a backup; answers { manifest, database, loaded: { collection: count } }. */
export async function restore(options, log = () => undefined) {
  if (!options.from) throw new CliError(`--from is required\n${USAGE}`);
  const dir = path.resolve(options.from);
  const manifest = readManifest(dir);
  const problems = await verifyFiles(dir, manifest);
  if (problems.length)
    throw new CliError(
      `the backup in ${dir} does not match its manifest:\n  ${problems.join('\n  ')}`,
      EXIT.verification,
    );
  log(
    `${dir}: every file matches the manifest (${manifest.collections.length} collections, made ${manifest.createdAt})`,
  );
  if (options['verify-only']) return { manifest, database: undefined, loaded: {} };

  const target = await openTarget(options, { copyFolder: false });
  try {
    const dbName = databaseName(options, manifest.database);
    const db = target.client.db(dbName);
    const held = await contents(db);
    if (Object.keys(held).length) {
      if (!options.drop) {
        const list = Object.entries(held)
          .map(([name, n]) => `${name} (${typeof n === 'number' ? `${n} documents` : n})`)
          .join(', ');
        throw new CliError(
          `database "${dbName}" is not empty: ${list}. Restore into an empty database, or pass --drop to replace what it holds`,
          EXIT.refused,
        );
      }
      await db.dropDatabase();
      log(`dropped database "${dbName}"`);
    }
    const metadataOf = (coll) =>
      EJSON.parse(fs.readFileSync(path.join(dir, coll.metadata), 'utf8'), { relaxed: false });
    const loaded = {};
    // collections and their documents first, then indexes (one build over the data), then views
    for (const coll of manifest.collections.filter((c) => c.type === 'collection')) {
      const metadata = metadataOf(coll);
      await createCollection(db, coll.name, metadata.options ?? {});
      loaded[coll.name] = await loadDocuments(db.collection(coll.name), path.join(dir, coll.documents));
      const indexes = (metadata.indexes ?? [])
        .filter((index) => index.name !== '_id_')
        .map((index) =>
          Object.fromEntries(Object.entries(index).filter(([key]) => !NOT_INDEX_OPTIONS.has(key))),
        );
      if (indexes.length) await db.command({ createIndexes: coll.name, indexes });
      log(`${coll.name}: ${loaded[coll.name]} documents, ${indexes.length + 1} indexes`);
    }
    for (const coll of manifest.collections.filter((c) => c.type === 'view'))
      await createCollection(db, coll.name, metadataOf(coll).options);
    const differences = await compareWithManifest(db, dir, manifest);
    if (differences.length)
      throw new CliError(
        `database "${dbName}" differs from the backup after the restore:\n  ${differences.join('\n  ')}`,
        EXIT.verification,
      );
    return { manifest, database: dbName, loaded };
  } finally {
    await target.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  runCli(async (argv) => {
    const options = parseArgs(argv, OPTIONS);
    if (options.help) {
      console.log(USAGE);
      return 0;
    }
    const { manifest, database, loaded } = await restore(options, (line) => console.log(line));
    if (options['verify-only']) {
      console.log('verified: the backup is whole (nothing was restored)');
      return 0;
    }
    const documents = Object.values(loaded).reduce((sum, n) => sum + n, 0);
    console.log(
      `restored "${manifest.database}" of ${manifest.createdAt} into "${database}": ${Object.keys(loaded).length} collections, ` +
        `${documents} documents; counts and indexes match the manifest`,
    );
    return 0;
  });
