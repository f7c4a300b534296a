import { mongo } from 'mongoose';
import * as net from 'node:net';

const OP_MSG = 2013;

/** One command as the driver sent it: its name and the collection (or value) it names. */
export interface WireCommand {
  name: string;
  target: unknown;
}

export interface WireCounter {
  /** `mongodb://` URI of the proxy (a direct connection: the driver never goes around it). */
  uri: string;
  /** Commands sent since the last `reset()`, in order; the driver's monitoring (`hello`, `ping`) left out. */
  commands: WireCommand[];
  reset(): void;
  close(): Promise<void>;
}

const MONITORING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'buildInfo', 'endSessions']);

/**
 * A TCP proxy in front of a MongoDB server that records every command sent through it (OP_MSG,
 * first key of the body): database round trips per request, counted on the wire whatever issues
 * them (Mongoose, the driver, transactions' commit).
 */
export async function startWireCounter(target: { host: string; port: number }): Promise<WireCounter> {
  const commands: WireCommand[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 16 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const frame = pending.subarray(0, length);
        pending = pending.subarray(length);
        // header (16 bytes), flag bits (4), section kind 0 (1), then the command's body
        if (frame.readInt32LE(12) !== OP_MSG || frame[20] !== 0) continue;
        const body = mongo.BSON.deserialize(frame.subarray(21, 21 + frame.readInt32LE(21)));
        const name = Object.keys(body)[0];
        // the hot cache's shared version is read and moved by a timer, never by a request (hot-cache.ts)
        if (!MONITORING.has(name) && body[name] !== 'cacheversions')
          commands.push({ name, target: body[name] });
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    uri: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    commands,
    reset: () => {
      commands.length = 0;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
