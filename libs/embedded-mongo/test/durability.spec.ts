import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../src';

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'dist', 'cli.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts the CLI in its own process and resolves once it printed its URI. */
function startCli(args: string[]): Promise<{ child: ChildProcess; uri: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /(mongodb:\/\/\S+)/.exec(out);
      if (match) resolve({ child, uri: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`cli exited early (${code}): ${out}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('durability in a data folder', () => {
  let dir: string;

  beforeAll(() => {
    const build = spawnSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root },
    );
    if (build.status !== 0) throw new Error(String(build.stdout) + String(build.stderr));
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write after kill -9 and a restart', async () => {
    const port = await freePort();
    const first = await startCli(['--port', String(port), '--dbpath', dir]);
    const client = await MongoClient.connect(first.uri);
    const coll = client.db('shop').collection('orders');
    await coll.createIndex({ ref: 1 }, { unique: true });
    await coll.insertMany(Array.from({ length: 100 }, (_, i) => ({ ref: `o${i}`, total: i })));
    await coll.updateMany({ total: { $lt: 10 } }, { $set: { paid: true } });
    await coll.deleteOne({ ref: 'o99' });
    const session = client.startSession();
    await session.withTransaction(async () => {
      await coll.insertOne({ ref: 'txn' }, { session });
      await coll.updateOne({ ref: 'o0' }, { $set: { note: 'in txn' } }, { session });
    });
    await session.endSession();
    const gone = exited(first.child);
    first.child.kill('SIGKILL');
    await gone;
    await client.close(true);

    const second = await startCli(['--port', String(await freePort()), '--dbpath', dir]);
    const again = await MongoClient.connect(second.uri);
    try {
      const orders = again.db('shop').collection('orders');
      expect(await orders.countDocuments()).toBe(100);
      expect(await orders.countDocuments({ paid: true })).toBe(10);
      expect(await orders.findOne({ ref: 'o99' })).toBeNull();
      expect((await orders.findOne({ ref: 'o0' }))?.note).toBe('in txn');
      await expect(orders.insertOne({ ref: 'o1' })).rejects.toMatchObject({ code: 11000 }); // index survived
    } finally {
      await again.close();
      const stopped = exited(second.child);
      second.child.kill('SIGTERM');
      expect((await stopped).code).toBe(0);
    }
  });

  it('ignores a torn last journal record after a crash', async () => {
    const server = await startEmbeddedMongo({ dbPath: dir });
    const client = await MongoClient.connect(server.uri);
    await client
      .db('d')
      .collection('c')
      .insertMany([{ a: 1 }, { a: 2 }]);
    await client.close();
    await server.stop();
    fs.appendFileSync(path.join(dir, 'journal.bson'), Buffer.from([0x40, 0, 0, 0, 3, 1, 2])); // half a record

    const restarted = await startEmbeddedMongo({ dbPath: dir });
    const reader = await MongoClient.connect(restarted.uri);
    try {
      expect(await reader.db('d').collection('c').countDocuments()).toBe(2);
    } finally {
      await reader.close();
      await restarted.stop();
    }
  });

  it('writes nothing to disk in memory mode', async () => {
    const server = await startEmbeddedMongo({ inMemory: true, dbPath: dir });
    const client = await MongoClient.connect(server.uri);
    await client.db('d').collection('c').insertOne({ a: 1 });
    await client.close();
    await server.stop();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
