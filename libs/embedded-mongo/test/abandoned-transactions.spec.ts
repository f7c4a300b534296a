import { spawn, type ChildProcess } from 'node:child_process';
import { Binary, MongoClient, MongoServerError, type Collection, type Db } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';
import { Storage } from '../src/storage';
import { Transactions } from '../src/transactions';

/**
 * A transaction whose client died (SIGKILL, a lost machine) must not hold its documents forever:
 * as on mongod, it ends at `transactionLifetimeLimitSeconds`, or at once on endSessions /
 * killSessions / killAllSessions; its next command answers NoSuchTransaction (251).
 */

interface Stock {
  _id: string;
  stock: number;
}

/**
 * A separate Node process that starts a transaction, decrements `stock` of `id`, prints its session
 * id and then waits: killed with SIGKILL, it never commits, aborts or ends its session, as a crashed
 * API instance.
 */
async function killedMidTransaction(uri: string, id: string): Promise<{ lsid: Binary; child: ChildProcess }> {
  const script = `
    const { MongoClient } = require(${JSON.stringify(require.resolve('mongodb'))});
    (async () => {
      const client = await MongoClient.connect(process.argv[1]);
      const session = client.startSession();
      session.startTransaction();
      await client.db('faults').collection('products')
        .updateOne({ _id: process.argv[2] }, { $inc: { stock: -1 } }, { session });
      process.stdout.write('lsid ' + Buffer.from(session.id.id.buffer).toString('hex') + '\\n');
      setInterval(() => {}, 1000);
    })().catch((error) => { console.error(error); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['-e', script, uri, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  const hex = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /lsid ([0-9a-f]+)\n/.exec(out);
      if (match) resolve(match[1]);
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return { lsid: new Binary(Buffer.from(hex, 'hex'), Binary.SUBTYPE_UUID), child };
}

/** One transaction that decrements the stock of `id`; resolves to the error code it met, or 0. */
async function tryDecrement(client: MongoClient, products: Collection<Stock>, id: string): Promise<number> {
  const session = client.startSession();
  try {
    session.startTransaction();
    await products.updateOne({ _id: id }, { $inc: { stock: -1 } }, { session });
    await session.commitTransaction();
    return 0;
  } catch (error) {
    await session.abortTransaction().catch(() => undefined);
    if (error instanceof MongoServerError) return Number(error.code);
    throw error;
  } finally {
    await session.endSession();
  }
}

/** Retries `tryDecrement` every 100 ms until it commits; answers the milliseconds it took. */
async function decrementWhenFree(
  client: MongoClient,
  products: Collection<Stock>,
  id: string,
  limitMs: number,
) {
  const started = Date.now();
  for (;;) {
    const code = await tryDecrement(client, products, id);
    if (code === 0) return Date.now() - started;
    expect(code).toBe(112); // WriteConflict at once, never a wait on the dead owner
    if (Date.now() - started > limitMs) throw new Error(`still locked after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the transaction reaper', () => {
  it('aborts only the transactions past the limit in force when they started', () => {
    const txns = new Transactions(new Storage());
    const start = (id: string) =>
      txns.forCommand(
        { find: 'x', lsid: { id }, txnNumber: 1, autocommit: false, startTransaction: true },
        'find',
      );
    start('old');
    txns.lifetimeLimitSeconds = 120;
    start('new');
    expect(txns.open).toBe(2);
    expect(txns.expire(Date.now() + 59_000)).toBe(0);
    expect(txns.expire(Date.now() + 61_000)).toBe(1);
    expect(txns.open).toBe(1);
    expect(() =>
      txns.forCommand({ find: 'x', lsid: { id: 'old' }, txnNumber: 1, autocommit: false }, 'find'),
    ).toThrow(/has been aborted/);
    expect(txns.expire(Date.now() + 121_000)).toBe(1);
    expect(txns.open).toBe(0);
  });
});

describe('abandoned transactions', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let db: Db;
  let products: Collection<Stock>;

  beforeAll(async () => {
    server = await startEmbeddedMongo({ inMemory: true });
    client = await MongoClient.connect(server.uri);
    db = client.db('faults');
    products = db.collection<Stock>('products');
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  afterEach(async () => {
    await client.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: 60 });
  });

  const seed = async (id: string) => {
    await products.insertOne({ _id: id, stock: 10 });
  };

  it('reads and sets transactionLifetimeLimitSeconds as mongod (admin only, an integer of at least 1)', async () => {
    const admin = client.db('admin');
    expect(
      (await admin.command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 }))
        .transactionLifetimeLimitSeconds,
    ).toBe(60);
    expect((await admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 5 })).was).toBe(60);
    expect((await admin.command({ getParameter: '*' })).transactionLifetimeLimitSeconds).toBe(5);
    await expect(
      admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 0 }),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 'x' }),
    ).rejects.toMatchObject({ code: 2 });
    await expect(admin.command({ setParameter: 1, noSuchParameter: 1 })).rejects.toMatchObject({ code: 72 });
    await expect(db.command({ setParameter: 1, transactionLifetimeLimitSeconds: 5 })).rejects.toMatchObject({
      code: 13,
    });
    await expect(startEmbeddedMongo({ inMemory: true, transactionLifetimeLimitSeconds: 0 })).rejects.toThrow(
      /at least 1/,
    );
  });

  it('takes the start option', async () => {
    const other = await startEmbeddedMongo({ inMemory: true, transactionLifetimeLimitSeconds: 7 });
    const otherClient = await MongoClient.connect(other.uri);
    try {
      const reply = await otherClient
        .db('admin')
        .command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 });
      expect(reply.transactionLifetimeLimitSeconds).toBe(7);
    } finally {
      await otherClient.close();
      await other.stop();
    }
  });

  it('aborts the transaction of a killed client after the lifetime limit: the document is writable again, its write never lands', async () => {
    await seed('lifetime');
    await client.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: 1 });
    const killedAt = Date.now();
    await killedMidTransaction(server.uri, 'lifetime');
    // the engine kept the dead client's transaction: a writer of its document conflicts at once
    expect(await tryDecrement(client, products, 'lifetime')).toBe(112);
    await decrementWhenFree(client, products, 'lifetime', 3000);
    expect(Date.now() - killedAt).toBeLessThan(1000 + 2500);
    expect((await products.findOne({ _id: 'lifetime' }))?.stock).toBe(9); // only the live client's decrement
  });

  it('holds a transaction younger than the limit (default 60 s)', async () => {
    await seed('young');
    await killedMidTransaction(server.uri, 'young');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await tryDecrement(client, products, 'young')).toBe(112);
    await client.db('admin').command({ killAllSessions: [] });
    expect(await tryDecrement(client, products, 'young')).toBe(0);
  });

  it.each(['killSessions', 'endSessions'])(
    'releases a killed client’s transaction at once on %s',
    async (command) => {
      await seed(command);
      const { lsid } = await killedMidTransaction(server.uri, command);
      expect(await tryDecrement(client, products, command)).toBe(112);
      await client.db('admin').command({ [command]: [{ id: lsid }] });
      expect(await tryDecrement(client, products, command)).toBe(0);
      expect((await products.findOne({ _id: command }))?.stock).toBe(9);
    },
  );

  it('releases every transaction on killAllSessions and killAllSessionsByPattern', async () => {
    await seed('all-1');
    await seed('all-2');
    await killedMidTransaction(server.uri, 'all-1');
    const { lsid } = await killedMidTransaction(server.uri, 'all-2');
    await client.db('admin').command({ killAllSessionsByPattern: [{ lsid: { id: lsid } }] });
    expect(await tryDecrement(client, products, 'all-2')).toBe(0);
    expect(await tryDecrement(client, products, 'all-1')).toBe(112); // another session's pattern
    await client.db('admin').command({ killAllSessions: [] });
    expect(await tryDecrement(client, products, 'all-1')).toBe(0);
  });

  it('answers the next command of an expired transaction NoSuchTransaction (251) with TransientTransactionError', async () => {
    await seed('expired');
    await client.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: 1 });
    const session = client.startSession();
    try {
      session.startTransaction();
      await products.updateOne({ _id: 'expired' }, { $inc: { stock: -1 } }, { session });
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const error = await products
        .updateOne({ _id: 'expired' }, { $inc: { stock: -1 } }, { session })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).code).toBe(251);
      expect((error as MongoServerError).codeName).toBe('NoSuchTransaction');
      expect((error as MongoServerError).hasErrorLabel('TransientTransactionError')).toBe(true);
      await expect(session.commitTransaction()).rejects.toMatchObject({ code: 251 });
    } finally {
      await session.endSession();
    }
    expect((await products.findOne({ _id: 'expired' }))?.stock).toBe(10);
  });

  it('aborts a live session’s transaction on killSessions: its next command answers 251, withTransaction retries it', async () => {
    await seed('killed-live');
    const session = client.startSession();
    try {
      let attempts = 0;
      await session.withTransaction(async () => {
        attempts++;
        await products.updateOne({ _id: 'killed-live' }, { $inc: { stock: -1 } }, { session });
        if (attempts === 1) await client.db('admin').command({ killSessions: [session.id] });
        await products.updateOne({ _id: 'killed-live' }, { $inc: { stock: -1 } }, { session });
      });
      expect(attempts).toBe(2);
    } finally {
      await session.endSession();
    }
    expect((await products.findOne({ _id: 'killed-live' }))?.stock).toBe(8);
  });
});
