#!/usr/bin/env node
// `npm run backup -- --out DIR`: a point-in-time copy of the shop's database (every collection with its
// documents as BSON, its options and index definitions; GridFS images are the collections images.files
// and images.chunks) plus a manifest with counts and a SHA-256 per file. Read from MONGODB_URI (or
// --uri): a real MongoDB or the running embedded engine; or, with --data-dir, from a copy of the
// embedded engine's folder. docs/operations.md (Backups), docs/decisions/0076-backups.md.
//
// The layout is mongodump's (DIR/<db>/<collection>.bson + .metadata.json), so `mongorestore` reads it
// too; manifest.json sits beside it.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CliError,
  EJSON,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST,
  databaseName,
  engineOf,
  openTarget,
  parseArgs,
  runCli,
} from './common.mjs';

const USAGE = `usage: npm run backup -- --out DIR [--uri URI | --data-dir DIR] [--db NAME] [--no-snapshot]
  --out DIR        the backup folder to make (must not exist, or be empty)
  --uri URI        the server (default MONGODB_URI); a real MongoDB or the running embedded engine
  --data-dir DIR   instead: the embedded engine's folder (or the API's DATA_DIR), copied and read
  --db NAME        the database (default MONGODB_DB, else beauty_shop)
  --no-snapshot    copy collection by collection without a point-in-time read (servers without snapshot reads)`;

const OPTIONS = {
  out: 'value',
  uri: 'value',
  'data-dir': 'value',
  db: 'value',
  'no-snapshot': 'flag',
  // slows the copy down between collections (the tests use it to show that the copy is point-in-time)
  'pause-ms': 'value',
  help: 'flag',
};

/** Writes one collection's documents (raw BSON, as read) to a file; answers its count and SHA-256. */
async function writeCollection(collection, file, session) {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  let count = 0;
  let bytes = 0;
  const cursor = collection.find({}, { session, raw: true, batchSize: 1000 });
  for await (const raw of cursor) {
    const buffer = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    hash.update(buffer);
    if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
    count++;
    bytes += buffer.length;
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return { count, bytes, sha256: hash.digest('hex') };
}

function writeJson(file, value) {
  const text = `${EJSON.stringify(value, undefined, 2, { relaxed: false })}\n`;
  fs.writeFileSync(file, text);
  return { bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}

/**
 * Makes a backup; answers its manifest. `options` are the command line's (`out`, `uri`, `data-dir`,
 * `db`, `no-snapshot`, `pause-ms`); `log` receives one line per step.
 */
export async function backup(options, log = () => undefined) {
  if (!options.out) throw new CliError(`--out is required\n${USAGE}`);
  const out = path.resolve(options.out);
  if (fs.existsSync(out) && fs.readdirSync(out).length) throw new CliError(`${out} exists and is not empty`);
  const partial = `${out}.partial-${process.pid}`;
  const target = await openTarget(options, { copyFolder: true });
  try {
    const dbName = databaseName(options);
    const db = target.client.db(dbName);
    const engine = await engineOf(db);
    const snapshot = !options['no-snapshot'];
    if (snapshot && !engine.replicaSet && !engine.sharded)
      throw new CliError(
        `the ${engine.kind} ${engine.version} at the other end is a standalone server: it offers no snapshot reads. ` +
          'Back up a replica set (or use mongodump --oplog against one), or pass --no-snapshot for a copy that is not point-in-time',
      );
    // the catalogue (names, options, indexes) first: the shop changes it only at start-up
    const listed = (await db.listCollections({}, { nameOnly: false }).toArray())
      .filter((c) => !c.name.startsWith('system.'))
      .sort((a, b) => a.name.localeCompare(b.name));
    fs.rmSync(partial, { recursive: true, force: true });
    fs.mkdirSync(path.join(partial, dbName), { recursive: true });
    const session = snapshot ? target.client.startSession({ snapshot: true }) : undefined;
    const files = {};
    const collections = [];
    const startedAt = new Date();
    let atClusterTime = null;
    try {
      for (const info of listed) {
        const type = info.type ?? 'collection';
        const indexes = type === 'collection' ? await db.collection(info.name).listIndexes().toArray() : [];
        const entry = { name: info.name, type, count: 0, metadata: `${dbName}/${info.name}.metadata.json` };
        if (type === 'collection') {
          entry.documents = `${dbName}/${info.name}.bson`;
          const written = await writeCollection(
            db.collection(info.name),
            path.join(partial, entry.documents),
            session,
          );
          entry.count = written.count;
          files[entry.documents] = { bytes: written.bytes, sha256: written.sha256 };
          if (session && !atClusterTime) {
            // the first read fixed the snapshot: a server that answers no time read the present instead
            if (!session.snapshotTime)
              throw new CliError(
                `the ${engine.kind} at the other end answered a snapshot read without a snapshot time: it does not support snapshot reads` +
                  (engine.kind === 'embedded-mongo'
                    ? ' (an older build: npx nx run @shop/embedded-mongo:build)'
                    : ''),
              );
            atClusterTime = session.snapshotTime;
          }
          log(`${info.name}: ${written.count} documents`);
        }
        files[entry.metadata] = writeJson(path.join(partial, entry.metadata), {
          collectionName: info.name,
          type,
          options: info.options ?? {},
          indexes,
          ...(info.info?.uuid ? { uuid: info.info.uuid.toString('hex') } : {}),
        });
        collections.push(entry);
        if (options['pause-ms']) await sleep(Number(options['pause-ms']));
      }
    } finally {
      await session?.endSession();
    }
    const manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      database: dbName,
      engine,
      source: target.source,
      pointInTime: atClusterTime
        ? { readConcern: 'snapshot', atClusterTime: { t: atClusterTime.t, i: atClusterTime.i } }
        : snapshot
          ? { readConcern: 'snapshot', atClusterTime: null }
          : null,
      collections,
      files,
    };
    fs.writeFileSync(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.rmSync(out, { recursive: true, force: true });
    fs.renameSync(partial, out);
    return manifest;
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
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
    const manifest = await backup(options, (line) => console.log(line));
    const documents = manifest.collections.reduce((sum, c) => sum + c.count, 0);
    console.log(
      `backup of "${manifest.database}" (${manifest.engine.kind} ${manifest.engine.version}) written to ${path.resolve(options.out)}: ` +
        `${manifest.collections.length} collections, ${documents} documents` +
        (manifest.pointInTime?.atClusterTime
          ? `, as of cluster time ${JSON.stringify(manifest.pointInTime.atClusterTime)}`
          : ', not point-in-time'),
    );
    return 0;
  });
