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
function startCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; uri: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /(mongodb:\/\/\S+)/.exec(out);
      if (match) resolve({ child, uri: match[1] });
    });
    child.on('exit', (code, signal) =>
      reject(Object.assign(new Error(`cli exited early (${code ?? signal}): ${out}`), { signal })),
    );
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
  }, 30_000); // two process starts: slow on a busy machine

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

  // a crash (kill -9) at each step of the compaction a start runs: before the temporary snapshot is
  // complete, after it is written and fsynced, and after it replaced the old one but before the
  // journal was emptied (the whole journal then replays on top of a snapshot that already holds it)
  it.each(['compact-partial', 'compact-written', 'compact-renamed'])(
    'loses nothing when killed during a compaction (%s)',
    async (fault) => {
      const kill = async (child: ChildProcess) => {
        const gone = exited(child);
        child.kill('SIGKILL');
        await gone;
      };
      const first = await startCli(['--port', String(await freePort()), '--dbpath', dir]);
      let client = await MongoClient.connect(first.uri);
      type Item = { _id: number | string; sku: string; cat: string; price: number; tags: string[] };
      let items = client.db('shop').collection<Item>('items');
      await items.createIndex({ sku: 1 }, { unique: true });
      await items.createIndex({ cat: 1, price: -1 });
      await items.createIndex({ tags: 1 });
      await items.insertMany(
        Array.from({ length: 3000 }, (_, i) => ({
          _id: i,
          sku: `s${i}`,
          cat: `c${i % 7}`,
          price: (i * 37) % 101,
          tags: [`t${i % 3}`, `t${i % 5}`],
        })),
      );
      await items.updateMany({ cat: 'c1' }, { $inc: { price: 1000 } });
      await items.deleteMany({ cat: 'c2' });
      await client.db('shop').collection('scratch').insertOne({ a: 1 });
      await client.db('shop').dropCollection('scratch');
      await client.close(true);
      await kill(first.child);
      expect(fs.existsSync(path.join(dir, 'snapshot.bson'))).toBe(false);

      // this start compacts (a journal and no snapshot) and dies at the fault point
      const crash = await startCli(['--port', String(await freePort()), '--dbpath', dir], {
        EMBEDDED_MONGO_FAULT: fault,
      }).catch((error: { signal?: string }) => error);
      expect(crash).toMatchObject({ signal: 'SIGKILL' });
      const files = fs.readdirSync(dir).sort();
      if (fault === 'compact-renamed') {
        expect(files).toEqual(['journal.bson', 'snapshot.bson']);
        expect(fs.statSync(path.join(dir, 'journal.bson')).size).toBeGreaterThan(0);
      } else expect(files).toEqual(['journal.bson', 'snapshot.bson.tmp']);

      const check = async (uri: string, extra: number) => {
        client = await MongoClient.connect(uri);
        items = client.db('shop').collection<Item>('items');
        expect(await items.countDocuments()).toBe(3000 - 429 + extra);
        expect(await items.findOne({ _id: 2 })).toBeNull();
        expect((await items.findOne({ _id: 1 }))?.price).toBe(1037);
        // served by { cat: 1, price: -1 }: ties in insertion order, as before the restart
        const page = await items.find({ cat: 'c1' }).sort({ price: -1 }).skip(2).limit(4).toArray();
        const expected = Array.from({ length: 3000 }, (_, i) => i)
          .filter((i) => i % 7 === 1)
          .sort((a, b) => ((b * 37) % 101) - ((a * 37) % 101) || a - b)
          .slice(2, 6);
        expect(page.map((d) => d._id)).toEqual(expected);
        const t4 = Array.from({ length: 3000 }, (_, i) => i).filter((i) => i % 5 === 4 && i % 7 !== 2);
        expect(await items.countDocuments({ tags: 't4' })).toBe(t4.length + extra);
        expect(await client.db('shop').listCollections({ name: 'scratch' }).toArray()).toEqual([]);
        await expect(
          items.insertOne({ _id: 'dup', sku: 's3', cat: 'c0', price: 0, tags: [] }),
        ).rejects.toMatchObject({ code: 11000 });
      };
      const second = await startCli(['--port', String(await freePort()), '--dbpath', dir]);
      await check(second.uri, 0);
      expect(fs.readdirSync(dir).sort()).toEqual(['journal.bson', 'snapshot.bson']);
      // writes after the snapshot go to the journal and replay on top of it
      await items.insertOne({ _id: 'late', sku: 'late', cat: 'c0', price: 1, tags: ['t4'] });
      await client.close(true);
      await kill(second.child);

      const third = await startCli(['--port', String(await freePort()), '--dbpath', dir]);
      try {
        await check(third.uri, 1);
        expect(await items.findOne({ sku: 'late' })).toMatchObject({ _id: 'late' });
      } finally {
        await client.close();
        await kill(third.child);
      }
    },
    60_000,
  );

  it('writes nothing to disk in memory mode', async () => {
    const server = await startEmbeddedMongo({ inMemory: true, dbPath: dir });
    const client = await MongoClient.connect(server.uri);
    await client.db('d').collection('c').insertOne({ a: 1 });
    await client.close();
    await server.stop();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
