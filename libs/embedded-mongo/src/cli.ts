#!/usr/bin/env node
import * as path from 'node:path';
import { startEmbeddedMongo } from './server';

/**
 * `embedded-mongo --port 27017 --dbpath ./data` or `--memory` (and `--socket /tmp/embedded-mongo.sock` to
 * listen on a Unix socket too, `--setParameter transactionLifetimeLimitSeconds=N` as mongod): runs in
 * the foreground until SIGTERM.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const inMemory = args.includes('--memory');
  let transactionLifetimeLimitSeconds: number | undefined;
  args.forEach((arg, at) => {
    if (arg !== '--setParameter') return;
    const [name, raw] = String(args[at + 1] ?? '').split('=');
    if (name !== 'transactionLifetimeLimitSeconds' || raw === undefined)
      throw new Error(
        `unsupported --setParameter ${args[at + 1] ?? ''} (only transactionLifetimeLimitSeconds=N)`,
      );
    transactionLifetimeLimitSeconds = Number(raw);
  });
  const dbPath = inMemory ? undefined : path.resolve(value('--dbpath') ?? './.data/embedded-mongo');
  const server = await startEmbeddedMongo({
    port: Number(value('--port') ?? 27017),
    inMemory,
    dbPath,
    logger: (m) => console.error(m),
    socketPath: value('--socket'),
    transactionLifetimeLimitSeconds,
  });
  console.log(
    `embedded-mongo listening: ${server.uri}${server.socketUri ? ` and ${server.socketUri}` : ''}` +
      (dbPath ? ` (data in ${dbPath})` : ' (in memory)'),
  );
  const stop = () => {
    server.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
