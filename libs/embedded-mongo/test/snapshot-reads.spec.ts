import { MongoClient, MongoServerError, Timestamp, type Db } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';
import { Engine } from '../src/engine';
import { Storage } from '../src/storage';

// Snapshot reads as mongod 7.0 answers them to a driver session started with { snapshot: true }:
// every read of the session sees the committed state of its first read, whatever commits after it.
describe('snapshot reads (readConcern snapshot outside a transaction)', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    server = await startEmbeddedMongo({ inMemory: true, minSnapshotHistoryWindowInSeconds: 300 });
    client = await MongoClient.connect(server.uri);
    db = client.db('snapshot_test');
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('reads every collection as of the first read, never half of a transaction committed between two reads', async () => {
    const products = db.collection<{ _id: string; stock: number }>('products');
    const orders = db.collection('orders');
    await products.insertMany([
      { _id: 'serum', stock: 10 },
      { _id: 'soap', stock: 5 },
    ]);
    await orders.createIndex({ number: 1 }, { unique: true });

    const snapshot = client.startSession({ snapshot: true });
    try {
      // the first read takes the snapshot (orders is still empty)
      expect(await orders.find({}, { session: snapshot }).toArray()).toEqual([]);
      // the driver keeps the snapshot's time on the session and sends it with every later read
      expect((snapshot as unknown as { snapshotTime?: unknown }).snapshotTime).toBeInstanceOf(Timestamp);

      // an order and its stock change commit together, after the snapshot
      const writer = client.startSession();
      await writer.withTransaction(async () => {
        await orders.insertOne({ number: 1, product: 'serum', quantity: 3 }, { session: writer });
        await products.updateOne({ _id: 'serum' }, { $inc: { stock: -3 } }, { session: writer });
      });
      await writer.endSession();
      await products.insertOne({ _id: 'henna', stock: 7 });
      await products.deleteOne({ _id: 'soap' });

      // the snapshot session still reads the state before both
      const seen = await products.find({}, { session: snapshot }).sort({ _id: 1 }).toArray();
      expect(seen).toEqual([
        { _id: 'serum', stock: 10 },
        { _id: 'soap', stock: 5 },
      ]);
      expect(await orders.find({}, { session: snapshot }).toArray()).toEqual([]);
      expect((await products.distinct('stock', {}, { session: snapshot })).sort()).toEqual([10, 5]);
      const [grouped] = await products
        .aggregate([{ $group: { _id: null, stock: { $sum: '$stock' } } }], { session: snapshot })
        .toArray();
      expect(grouped.stock).toBe(15);
    } finally {
      await snapshot.endSession();
    }

    // a new session sees the present: the order and its decrement both
    expect(await orders.countDocuments()).toBe(1);
    expect((await products.findOne({ _id: 'serum' }))!.stock).toBe(7);
  });

  it('serves a snapshot through indexes and across getMore batches while the collection changes', async () => {
    const items = db.collection<{ _id: number; rank: number }>('items');
    await items.createIndex({ rank: -1 });
    await items.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: i, rank: i })));
    const snapshot = client.startSession({ snapshot: true });
    try {
      const first = await items.findOne({ rank: { $gte: 200 } }, { session: snapshot, sort: { rank: -1 } });
      expect(first).toEqual({ _id: 249, rank: 249 });
      await items.updateMany({}, { $set: { rank: -1 } });
      await items.insertOne({ _id: 1000, rank: 1000 });
      const cursor = items
        .find({ rank: { $gte: 0 } }, { session: snapshot, batchSize: 20 })
        .sort({ rank: -1 });
      const ranks = (await cursor.toArray()).map((d) => d.rank);
      expect(ranks).toEqual(Array.from({ length: 250 }, (_, i) => 249 - i));
    } finally {
      await snapshot.endSession();
    }
    expect(await items.countDocuments({ rank: -1 })).toBe(250);
  });

  it('refuses a write stage ($out) in a snapshot read (InvalidOptions, 72)', async () => {
    const snapshot = client.startSession({ snapshot: true });
    try {
      await expect(
        db
          .collection('items')
          .aggregate([{ $out: 'copy' }], { session: snapshot })
          .toArray(),
      ).rejects.toMatchObject({ code: 72 });
    } finally {
      await snapshot.endSession();
    }
  });

  it('answers SnapshotTooOld (239) for a time it never issued', async () => {
    const error = await db
      .command({
        find: 'products',
        filter: {},
        readConcern: { level: 'snapshot', atClusterTime: new Timestamp({ t: 1, i: 1 }) },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 239, codeName: 'SnapshotTooOld' });
  });

  it('answers atClusterTime in the cursor for find and aggregate and at the top for distinct', async () => {
    const found = await db.command({ find: 'products', filter: {}, readConcern: { level: 'snapshot' } });
    expect(found.cursor.atClusterTime).toBeInstanceOf(Timestamp);
    const again = await db.command({
      distinct: 'products',
      key: '_id',
      readConcern: { level: 'snapshot', atClusterTime: found.cursor.atClusterTime },
    });
    expect(again.atClusterTime).toEqual(found.cursor.atClusterTime);
    // two snapshots taken in the same second still have different, growing times
    const next = await db.command({
      aggregate: 'products',
      pipeline: [],
      cursor: {},
      readConcern: { level: 'snapshot' },
    });
    expect(next.cursor.atClusterTime.greaterThan(found.cursor.atClusterTime)).toBe(true);
  });
});

describe('snapshot history window', () => {
  it('forgets a snapshot older than minSnapshotHistoryWindowInSeconds (SnapshotTooOld afterwards)', () => {
    const engine = new Engine(new Storage(undefined), { host: '127.0.0.1', port: 0, replSetName: 'rs0' });
    let now = 1_000_000;
    engine.snapshots.now = () => now;
    engine.snapshots.windowSeconds = 300;
    engine.run('w', { insert: 'c', documents: [{ _id: 1 }] }, 1);
    const first = engine.run('w', { find: 'c', filter: {}, readConcern: { level: 'snapshot' } }, 1);
    const at = first.cursor.atClusterTime as Timestamp;
    engine.run('w', { insert: 'c', documents: [{ _id: 2 }] }, 1);
    now += 299_000;
    const within = engine.run(
      'w',
      { find: 'c', filter: {}, readConcern: { level: 'snapshot', atClusterTime: at } },
      1,
    );
    expect(within.cursor.firstBatch).toEqual([{ _id: 1 }]);
    now += 2_000;
    const late = engine.run(
      'w',
      { find: 'c', filter: {}, readConcern: { level: 'snapshot', atClusterTime: at } },
      1,
    );
    expect(late).toMatchObject({ ok: 0, code: 239 });
    expect(engine.snapshots.size).toBe(0);
  });

  it('leaves reads without a snapshot read concern on the latest committed state', () => {
    const engine = new Engine(new Storage(undefined), { host: '127.0.0.1', port: 0, replSetName: 'rs0' });
    engine.run('w', { insert: 'c', documents: [{ _id: 1 }] }, 1);
    engine.run('w', { find: 'c', filter: {}, readConcern: { level: 'snapshot' } }, 1);
    engine.run('w', { insert: 'c', documents: [{ _id: 2 }] }, 1);
    const plain = engine.run('w', { find: 'c', filter: {}, readConcern: { level: 'majority' } }, 1);
    expect(plain.cursor.firstBatch).toEqual([{ _id: 1 }, { _id: 2 }]);
  });
});
