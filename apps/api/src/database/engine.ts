import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AppConfig } from '../config';

/** Which server answers: the configured one, a real mongod from mongodb-memory-server, or the in-process engine. */
export type EngineKind = 'external' | 'memory-server' | 'embedded';

export interface DatabaseEngine {
  kind: EngineKind;
  uri: string;
  dbName: string;
  stop(): Promise<void>;
}

export const DATABASE_ENGINE = Symbol('DATABASE_ENGINE');

const logger = new Logger('DatabaseEngine');
/** Remembers a failed mongod download so that the attempt is made once, not at every start. */
const UNAVAILABLE_MARKER = path.join(os.tmpdir(), 'beauty-shop-mongod-unavailable');
const MARKER_TTL_MS = 24 * 60 * 60 * 1000;

function redact(uri: string): string {
  return uri.replace(/\/\/([^@/]+)@/, '//***@');
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function markerIsFresh(): boolean {
  try {
    return Date.now() - fs.statSync(UNAVAILABLE_MARKER).mtimeMs < MARKER_TTL_MS;
  } catch {
    return false;
  }
}

/** Step 2: a real mongod (system binary, cache, or one bounded download attempt) as a one-node replica set. */
async function startMemoryServer(config: AppConfig): Promise<DatabaseEngine | undefined> {
  const db = config.database;
  if (!db.tryMemoryServer) return undefined;
  if (!process.env.MONGOMS_SYSTEM_BINARY && markerIsFresh()) {
    logger.log('mongodb-memory-server skipped: no mongod could be had on an earlier attempt');
    return undefined;
  }
  try {
    const { MongoMemoryReplSet } = await import('mongodb-memory-server-core');
    const dbPath = db.inMemory ? undefined : path.join(db.dataDir, 'mongod');
    if (dbPath) fs.mkdirSync(dbPath, { recursive: true });
    const replSet = await withTimeout(
      MongoMemoryReplSet.create({
        replSet: { count: 1, storageEngine: 'wiredTiger', name: 'rs0' },
        instanceOpts: dbPath ? [{ dbPath, storageEngine: 'wiredTiger' }] : undefined,
      }),
      db.memoryServerTimeoutMs,
      'mongodb-memory-server',
    );
    return {
      kind: 'memory-server',
      uri: replSet.getUri(),
      dbName: db.name,
      stop: async () => {
        await replSet.stop({ doCleanup: !dbPath });
      },
    };
  } catch (error) {
    fs.writeFileSync(UNAVAILABLE_MARKER, String((error as Error).message ?? error));
    logger.warn(`mongodb-memory-server unavailable (${(error as Error).message}); using the embedded engine`);
    return undefined;
  }
}

/** Step 3: the in-process wire-protocol engine of libs/embedded-mongo on a loopback port. */
async function startEmbedded(config: AppConfig): Promise<DatabaseEngine> {
  const { startEmbeddedMongo } = await import('@shop/embedded-mongo');
  const db = config.database;
  const dbPath = db.inMemory ? undefined : path.join(db.dataDir, 'embedded-mongo');
  const server = await startEmbeddedMongo({ port: 0, inMemory: db.inMemory, dbPath });
  return { kind: 'embedded', uri: server.uri, dbName: db.name, stop: () => server.stop() };
}

/** Walks the engine ladder of ARCHITECTURE.md and logs which engine answered. */
export async function resolveDatabaseEngine(config: AppConfig): Promise<DatabaseEngine> {
  const db = config.database;
  let engine: DatabaseEngine | undefined;
  if (db.uri) {
    engine = { kind: 'external', uri: db.uri, dbName: db.name, stop: async () => undefined };
  } else {
    engine = (await startMemoryServer(config)) ?? (await startEmbedded(config));
  }
  const where = db.inMemory || engine.kind === 'external' ? '' : ` (data in ${db.dataDir})`;
  logger.log(`Database engine: ${engine.kind} at ${redact(engine.uri)}, database "${engine.dbName}"${where}`);
  return engine;
}
