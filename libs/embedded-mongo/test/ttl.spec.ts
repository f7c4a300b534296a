import { MongoClient } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';

// mongod's TTL monitor, driven through the official driver: documents whose TTL-indexed date is past
// disappear on the monitor's next pass; other values never expire; a partial filter limits the index.

let server: EmbeddedMongo;
let client: MongoClient;

beforeAll(async () => {
  server = await startEmbeddedMongo({ inMemory: true, ttlMonitorSleepSecs: 0.05 });
  client = await MongoClient.connect(server.uri);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

/** Polls until `check` holds (the monitor runs every 50 ms here); fails after 10 s. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not reached within 10 s');
}

describe('TTL indexes', () => {
  it('delete documents once their date plus expireAfterSeconds is past, and only those', async () => {
    const coll = client.db('ttl').collection<{ _id: number; at?: unknown }>('sessions');
    await coll.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
    const now = Date.now();
    await coll.insertMany([
      { _id: 1, at: new Date(now - 2 * 3600_000) }, // expired an hour ago
      { _id: 2, at: new Date(now - 60_000) }, // one minute old: 59 minutes left
      { _id: 3, at: [new Date(now + 3600_000), new Date(now - 3 * 3600_000)] }, // earliest date expired
      { _id: 4, at: 'yesterday' }, // not a date: never expires
      { _id: 5 }, // no date: never expires
      { _id: 6, at: now - 5 * 3600_000 }, // a number, not a date: never expires
    ]);
    await eventually(async () => (await coll.countDocuments()) === 4);
    expect((await coll.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([2, 4, 5, 6]);
    const [index] = (await coll.listIndexes().toArray()).filter((i) => i.name === 'at_1');
    expect(index.expireAfterSeconds).toBe(3600);
  });

  it('apply within the partial filter, and expireAfterSeconds 0 expires at the date itself', async () => {
    const coll = client.db('ttl').collection<{ _id: number; at: Date; kind: string }>('claims');
    await coll.createIndex(
      { at: 1 },
      { expireAfterSeconds: 0, partialFilterExpression: { kind: 'temporary' } },
    );
    const past = new Date(Date.now() - 1000);
    const future = new Date(Date.now() + 3600_000);
    await coll.insertMany([
      { _id: 1, at: past, kind: 'temporary' },
      { _id: 2, at: past, kind: 'kept' },
      { _id: 3, at: future, kind: 'temporary' },
    ]);
    await eventually(async () => (await coll.countDocuments()) === 2);
    expect((await coll.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([2, 3]);
  });

  it('leave collections without a TTL index alone, and are off with ttlMonitorSleepSecs 0', async () => {
    const quiet = await startEmbeddedMongo({ inMemory: true, ttlMonitorSleepSecs: 0 });
    const other = await MongoClient.connect(quiet.uri);
    try {
      const coll = other.db('ttl').collection<{ _id: number; at: Date }>('expiring');
      await coll.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
      await coll.insertOne({ _id: 1, at: new Date(0) });
      const plain = client.db('ttl').collection<{ _id: number; at: Date }>('plain');
      await plain.createIndex({ at: 1 });
      await plain.insertOne({ _id: 1, at: new Date(0) });
      // the first server's monitor has had several passes over `plain` once this returns
      const claims = client.db('ttl').collection('sweep');
      await claims.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
      await claims.insertOne({ at: new Date(0) });
      await eventually(async () => (await claims.countDocuments()) === 0);
      expect(await plain.countDocuments()).toBe(1);
      expect(await coll.countDocuments()).toBe(1);
    } finally {
      await other.close();
      await quiet.stop();
    }
  });
});
