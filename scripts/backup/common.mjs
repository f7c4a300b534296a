// What `npm run backup` and `npm run restore` share: the driver, where the database is, the layout of
// a backup folder and its manifest. docs/operations.md (Backups) and docs/decisions/0076-backups.md.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
// The driver the API itself uses (through Mongoose), and the embedded engine the API walks to.
const apiRequire = createRequire(path.join(ROOT, 'apps', 'api', 'package.json'));
export const mongo = apiRequire('mongoose').mongo;
export const { MongoClient, BSON } = mongo;
export const { EJSON } = BSON;

export const FORMAT = 'shop-backup';
export const FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';
/** Exit codes: 1 an error (bad arguments, no server), 2 a refused restore, 3 a failed verification. */
export const EXIT = { error: 1, refused: 2, verification: 3 };

/** An error the command line answers with its message (no stack) and an exit code. */
export class CliError extends Error {
  constructor(message, code = EXIT.error) {
    super(message);
    this.exitCode = code;
  }
}

/** `--name value`, `--name=value` and `--flag`; answers { name: value | true }. */
export function parseArgs(argv, known) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new CliError(`unexpected argument '${arg}'`);
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const kind = known[rawName];
    if (!kind) throw new CliError(`unknown option --${rawName}`);
    if (kind === 'flag') out[rawName] = true;
    else {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith('--')) throw new CliError(`--${rawName} needs a value`);
      out[rawName] = value;
    }
  }
  return out;
}

export function redact(uri) {
  return uri.replace(/\/\/([^@/]+)@/, '//***@');
}

/** The embedded engine's folder: `DIR/embedded-mongo` when DIR is the API's DATA_DIR, else DIR itself. */
export function engineFolder(dir) {
  const nested = path.join(dir, 'embedded-mongo');
  return fs.existsSync(nested) ? nested : dir;
}

/** Starts the embedded engine (the built `@shop/embedded-mongo`) on a folder; answers { uri, stop }. */
export async function startEngineOn(dbPath) {
  let lib;
  try {
    lib = apiRequire('@shop/embedded-mongo');
  } catch (error) {
    throw new CliError(
      `the embedded engine is not built (${error.message}); run: npx nx run @shop/embedded-mongo:build`,
    );
  }
  return lib.startEmbeddedMongo({ port: 0, dbPath, ttlMonitorSleepSecs: 0 });
}

/**
 * A copy of an engine folder that no server changed while it was copied (files compared before and
 * after; tried again when they moved). The engine writes each command's records in one append and
 * replaces its snapshot by a rename, so such a copy is what a crash at that moment would have left:
 * it replays to every acknowledged write, and never to half of a transaction (one journal record).
 */
export function copyEngineFolder(folder) {
  const names = ['snapshot.bson', 'journal.bson'];
  if (!names.some((name) => fs.existsSync(path.join(folder, name))))
    throw new CliError(`no embedded engine data (snapshot.bson, journal.bson) in ${folder}`);
  const stamp = () =>
    names
      .map((name) => {
        try {
          const s = fs.statSync(path.join(folder, name));
          return `${name}:${s.ino}:${s.size}:${s.mtimeMs}`;
        } catch {
          return `${name}:-`;
        }
      })
      .join('|');
  for (let attempt = 0; attempt < 10; attempt++) {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-backup-engine-'));
    const before = stamp();
    for (const name of names)
      if (fs.existsSync(path.join(folder, name)))
        fs.copyFileSync(path.join(folder, name), path.join(copy, name));
    if (stamp() === before) return copy;
    fs.rmSync(copy, { recursive: true, force: true });
  }
  throw new CliError(
    `the files in ${folder} kept changing while they were copied: a server is writing them; back up through its MONGODB_URI instead`,
  );
}

/** Where a command reads or writes: a server by URI, or an embedded engine folder it starts itself. */
export async function openTarget(options, { copyFolder }) {
  const uri = options.uri ?? (options['data-dir'] ? undefined : process.env.MONGODB_URI?.trim() || undefined);
  if (uri) {
    const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
    return { client, source: { kind: 'uri', uri: redact(uri) }, close: () => client.close() };
  }
  // a backup may read the default folder (it reads a copy); a restore writes only where it is told
  if (!options['data-dir'] && !copyFolder)
    throw new CliError(
      'no database named: set MONGODB_URI (or --uri) to the server to load, or --data-dir to an engine folder',
    );
  const dataDir = options['data-dir'] ?? (process.env.DATA_DIR || path.join(ROOT, '.data'));
  const folder = engineFolder(path.resolve(dataDir));
  if (!options['data-dir'] && !fs.existsSync(folder))
    throw new CliError(
      'no database named: set MONGODB_URI (or --uri) to a running server, or --data-dir to the embedded engine folder',
    );
  const dbPath = copyFolder ? copyEngineFolder(folder) : folder;
  if (!copyFolder) fs.mkdirSync(dbPath, { recursive: true });
  const server = await startEngineOn(dbPath);
  const client = await MongoClient.connect(server.uri);
  return {
    client,
    source: { kind: 'data-dir', folder },
    close: async () => {
      await client.close();
      await server.stop();
      if (copyFolder) fs.rmSync(dbPath, { recursive: true, force: true });
    },
  };
}

/** The database name: --db, MONGODB_DB, the backup's own (restore), or the API's default. */
export function databaseName(options, fallback) {
  return options.db ?? (process.env.MONGODB_DB || fallback || 'beauty_shop');
}

/** What answers at the other end: the embedded engine or a mongod (with its version). */
export async function engineOf(db) {
  const info = await db.admin().command({ buildInfo: 1 });
  const hello = await db.admin().command({ hello: 1 });
  return {
    kind: info.gitVersion === 'embedded' ? 'embedded-mongo' : 'mongod',
    version: info.version,
    replicaSet: hello.setName ?? null,
    sharded: hello.msg === 'isdbgrid',
  };
}

export function sha256File(file) {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    let read;
    while ((read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0)
      hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** The documents of a `.bson` file (BSON documents one after another, as mongodump writes them), raw. */
export async function* rawDocuments(file) {
  let pending = Buffer.alloc(0);
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    while (pending.length - at >= 4) {
      const size = pending.readInt32LE(at);
      if (size < 5)
        throw new CliError(`${file}: a document of ${size} bytes at byte ${at}`, EXIT.verification);
      if (pending.length - at < size) break;
      yield pending.subarray(at, at + size);
      at += size;
    }
    pending = pending.subarray(at);
  }
  if (pending.length)
    throw new CliError(`${file}: ${pending.length} bytes after the last document`, EXIT.verification);
}

/** Reads a document without changing a type: Int32, Int64, Double, Decimal128 and Binary stay as stored. */
export function decodeExact(raw) {
  return BSON.deserialize(raw, {
    promoteValues: false,
    promoteLongs: false,
    promoteBuffers: false,
    bsonRegExp: true,
  });
}

export function readManifest(dir) {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file))
    throw new CliError(`${dir} holds no ${MANIFEST}: not a backup made by npm run backup`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (manifest.format !== FORMAT || manifest.version !== FORMAT_VERSION)
    throw new CliError(
      `${file}: format ${manifest.format}/${manifest.version}, expected ${FORMAT}/${FORMAT_VERSION}`,
    );
  return manifest;
}

/**
 * Checks every file of a backup against its manifest: present, the same SHA-256, and for each
 * collection as many whole BSON documents as counted when it was written. Answers the problems.
 */
export async function verifyFiles(dir, manifest) {
  const problems = [];
  for (const [name, expected] of Object.entries(manifest.files)) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) {
      problems.push(`${name}: missing`);
      continue;
    }
    const actual = sha256File(file);
    if (actual !== expected.sha256)
      problems.push(`${name}: SHA-256 ${actual}, the manifest says ${expected.sha256}`);
  }
  for (const coll of manifest.collections) {
    if (!coll.documents) continue;
    let n = 0;
    try {
      for await (const raw of rawDocuments(path.join(dir, coll.documents))) {
        decodeExact(raw);
        n++;
      }
    } catch (error) {
      problems.push(`${coll.documents}: ${error.message}`);
      continue;
    }
    if (n !== coll.count) problems.push(`${coll.documents}: ${n} documents, the manifest says ${coll.count}`);
  }
  return problems;
}

/** Runs a command's main function: its message and exit code on a CliError, the stack otherwise. */
export function runCli(main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code ?? 0),
    (error) => {
      if (error instanceof CliError) {
        console.error(`error: ${error.message}`);
        process.exit(error.exitCode);
      }
      console.error(error);
      process.exit(EXIT.error);
    },
  );
}
