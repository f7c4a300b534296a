import { rmSync } from 'node:fs';
import * as net from 'node:net';
import { Engine } from './engine';
import { Storage } from './storage';
import { MSG_MORE_TO_COME, OP_MSG, encodeMsgReply, encodeOpReply, parseMessage } from './wire';

export interface EmbeddedMongoOptions {
  /** 0 or undefined picks a free port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** Folder for durable data (journal); created if missing. */
  dbPath?: string;
  /** Keep nothing on disk. */
  inMemory?: boolean;
  replSetName?: string;
  logger?: (message: string) => void;
  /**
   * Seconds between two passes of the TTL monitor, which deletes documents expired by an index's
   * `expireAfterSeconds` (mongod's `ttlMonitorSleepSecs`, default 60; 0 turns it off).
   */
  ttlMonitorSleepSecs?: number;
  /**
   * mongod's `transactionLifetimeLimitSeconds` (default 60, at least 1): a transaction older than
   * this is aborted and its locks released; its next command answers NoSuchTransaction (251). Also
   * settable at run time with `{ setParameter: 1, transactionLifetimeLimitSeconds: N }` on admin.
   */
  transactionLifetimeLimitSeconds?: number;
  /**
   * mongod's `minSnapshotHistoryWindowInSeconds` (default 300): how long the state a snapshot read
   * (`readConcern: { level: 'snapshot' }`) took stays readable at its `atClusterTime`.
   */
  minSnapshotHistoryWindowInSeconds?: number;
  /**
   * Also listen on this Unix domain socket (as mongod does on /tmp/mongodb-<port>.sock): a client on the
   * same machine skips TCP. The driver reaches it as `mongodb://<path, URI-encoded>/?directConnection=true`
   * (`socketUri`). A stale socket file at the path is replaced.
   */
  socketPath?: string;
}

export interface EmbeddedMongo {
  /** A URI the driver uses as is: `mongodb://127.0.0.1:PORT/?replicaSet=rs0`. */
  readonly uri: string;
  readonly port: number;
  readonly host: string;
  /** With `socketPath`: the URI of the Unix socket (a direct connection to this replica set's primary). */
  readonly socketUri?: string;
  stop(): Promise<void>;
}

const MAX_MESSAGE = 48_000_000;

/** Starts the in-process MongoDB wire-protocol server. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const replSetName = options.replSetName ?? 'rs0';
  const lifetime = options.transactionLifetimeLimitSeconds;
  if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime < 1))
    throw new Error(`transactionLifetimeLimitSeconds must be an integer of at least 1, not ${lifetime}`);
  const storage = new Storage(options.inMemory ? undefined : options.dbPath);
  const sockets = new Set<net.Socket>();
  let connectionIds = 0;
  const identity = { host, port: 0, replSetName };
  const engine = new Engine(storage, identity);
  if (lifetime !== undefined) engine.txns.lifetimeLimitSeconds = lifetime;
  if (options.minSnapshotHistoryWindowInSeconds !== undefined)
    engine.snapshots.windowSeconds = options.minSnapshotHistoryWindowInSeconds;

  const serve = (socket: net.Socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const connectionId = ++connectionIds;
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 4) {
        const length = pending.readInt32LE(0);
        if (length < 16 || length > MAX_MESSAGE) {
          socket.destroy();
          return;
        }
        if (pending.length < length) break;
        const frame = pending.subarray(0, length);
        pending = pending.subarray(length);
        let reply: Buffer | undefined;
        try {
          const message = parseMessage(frame);
          const db =
            message.opCode === OP_MSG
              ? String(message.command.$db ?? 'admin')
              : (message.fullCollectionName ?? 'admin.$cmd').split('.')[0];
          const result = engine.run(db, message.command, connectionId);
          if (message.opCode === OP_MSG) {
            if (!(message.flags & MSG_MORE_TO_COME)) reply = encodeMsgReply(message.requestId, result);
          } else {
            reply = encodeOpReply(message.requestId, result);
          }
        } catch (error) {
          options.logger?.(`closing connection ${connectionId}: ${(error as Error).message}`);
          socket.destroy();
          return;
        }
        if (reply) socket.write(reply);
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  };
  const server = net.createServer(serve);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  identity.port = port;
  const socketServer = options.socketPath ? net.createServer(serve) : undefined;
  if (socketServer && options.socketPath) {
    const socketPath = options.socketPath;
    rmSync(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      socketServer.once('error', reject);
      socketServer.listen(socketPath, () => resolve());
    });
  }
  const ttlSeconds = options.ttlMonitorSleepSecs ?? 60;
  const ttlMonitor =
    ttlSeconds > 0
      ? setInterval(() => {
          try {
            engine.expireTtl();
          } catch (error) {
            options.logger?.(`TTL monitor: ${(error as Error).message}`);
          }
        }, ttlSeconds * 1000).unref()
      : undefined;
  // mongod's periodic job that aborts expired transactions (a command meeting one aborts it at once too)
  const transactionReaper = setInterval(() => {
    const aborted = engine.txns.expire();
    if (aborted) options.logger?.(`aborted ${aborted} transaction(s) past transactionLifetimeLimitSeconds`);
  }, 1000).unref();
  let stopped: Promise<void> | undefined;
  return {
    uri: `mongodb://${host}:${port}/?replicaSet=${replSetName}`,
    port,
    host,
    ...(options.socketPath
      ? { socketUri: `mongodb://${encodeURIComponent(options.socketPath)}/?directConnection=true` }
      : {}),
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        clearInterval(ttlMonitor);
        clearInterval(transactionReaper);
        for (const socket of sockets) socket.destroy();
        const closed = (listener: net.Server) => new Promise<void>((done) => listener.close(() => done()));
        void Promise.all([closed(server), ...(socketServer ? [closed(socketServer)] : [])]).then(() => {
          storage.close();
          resolve();
        });
      })),
  };
}
