import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MongoClient, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';

// The engine narrows candidates through `_id` and indexed fields, then runs the full filter. Wrapping
// a filter in `$or: [filter]` makes it pin nothing, so the engine scans: every answer through an index
// must equal that scan, documents and order alike.
const scan = (filter: Document): Document => ({ $or: [filter] });

// each test makes hundreds of round trips (every filter, indexed and scanned): on a shared 2-core
// machine that takes longer than jest's default 5 s
jest.setTimeout(30_000);

/** Documents of these tests: `_id`s of several types, on purpose. */
type Item = { _id: ObjectId | string | number; [field: string]: unknown };

const ids = Array.from({ length: 6 }, () => new ObjectId());
const user = [new ObjectId(), new ObjectId()];

function sampleDocs(): Item[] {
  return [
    {
      _id: ids[0],
      cat: 'a',
      active: true,
      tags: ['x', 'y'],
      user: user[0],
      stock: 5,
      items: [{ product: 'p1' }, { product: 'p2' }],
    },
    { _id: ids[1], cat: 'b', active: false, tags: 'x', user: user[1], stock: 0, items: [] },
    { _id: ids[2], cat: 'a', active: true, tags: [['x']], user: user[0], stock: 9, items: { product: 'p1' } },
    { _id: ids[3], cat: null, active: true, user: user[1], stock: 2, items: [{ product: ['p1', 'p3'] }] },
    { _id: ids[4], active: true, tags: [], stock: 7, cat: 5, items: [[{ product: 'p2' }]] },
    { _id: ids[5], cat: 'c', active: true, tags: ['z'], user: user[0], stock: 1, at: new Date(5) },
    { _id: 'text-id', cat: 'a', active: true, stock: 3 },
    { _id: 7, cat: 'b', active: true, stock: 4 },
    { _id: 7.5, cat: 5, active: false, stock: 4 },
  ];
}

const filters: Document[] = [
  { _id: ids[0] },
  { _id: ids[0], active: true },
  { _id: ids[1], active: true },
  { _id: { $eq: ids[2] }, stock: { $gt: 1 } },
  { _id: { $in: [ids[0], ids[1], new ObjectId(), 'text-id', 7, 'missing'] } },
  { _id: { $in: [ids[3], ids[0], new ObjectId()] }, active: true },
  { _id: { $in: [] } },
  { $and: [{ _id: ids[5] }, { cat: 'c' }] },
  { $and: [{ _id: { $in: [ids[0], ids[2]] } }, { $and: [{ cat: 'a' }] }] },
  { _id: 7 },
  { _id: 7.5, cat: 5 },
  { _id: ids[0].toHexString() },
  { cat: 'a' },
  { cat: 'a', active: true, stock: { $gte: 5 } },
  { cat: 5 },
  { cat: null },
  { cat: { $in: ['a', 'c', 'zz'] } },
  { cat: { $in: ['a', null] } },
  { cat: { $exists: false } },
  { tags: 'x' },
  { tags: { $in: ['y', 'z'] } },
  { tags: ['x', 'y'] },
  { tags: { $size: 0 } },
  { user: user[0], active: true },
  { user: { $in: [user[1]] } },
  { 'items.product': 'p1' },
  { 'items.product': { $in: ['p2', 'p3'] } },
  { 'items.product': 'p9' },
  { at: new Date(5) },
  { cat: 'a', _id: { $in: [ids[0], ids[1], ids[2], 'text-id'] } },
  { cat: 'b', $or: [{ stock: 0 }, { stock: 4 }] },
  { cat: /^a/ },
];

async function expectSameAsScan(
  coll: Collection<Item>,
  session?: import('mongodb').ClientSession,
): Promise<void> {
  for (const filter of filters) {
    const options = session ? { session } : {};
    const indexed = await coll.find(filter, options).toArray();
    const scanned = await coll.find(scan(filter), options).toArray();
    expect({ filter, docs: indexed }).toEqual({ filter, docs: scanned });
    expect(await coll.countDocuments(filter, options)).toBe(scanned.length);
    const aggregated = await coll
      .aggregate([{ $match: filter }, { $project: { _id: 1 } }], options)
      .toArray();
    expect(aggregated).toEqual(scanned.map((d) => ({ _id: d._id })));
  }
}

describe('candidates narrowed through _id and indexes give the scan results', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    server = await startEmbeddedMongo({ inMemory: true });
    client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
    db = client.db('narrowing');
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  async function seeded(name: string): Promise<Collection<Item>> {
    const coll = db.collection<Item>(name);
    await coll.createIndex({ cat: 1 });
    await coll.createIndex({ tags: 1 });
    await coll.createIndex({ user: 1, at: -1 });
    await coll.createIndex({ 'items.product': 1 });
    await coll.createIndex({ at: 1 }, { unique: true, sparse: true });
    await coll.insertMany(sampleDocs());
    return coll;
  }

  it('finds, counts and aggregates exactly as a scan, for equality, $in, $and, arrays, nested paths and nulls', async () => {
    const coll = await seeded('finds');
    await expectSameAsScan(coll);
    expect((await coll.find({ _id: ids[0], active: true }).toArray()).map((d) => d._id)).toEqual([ids[0]]);
    expect(await coll.find({ _id: ids[1], active: true }).toArray()).toEqual([]);
    expect(
      (await coll.find({ _id: { $in: [ids[1], new ObjectId(), ids[0]] } }).toArray()).map((d) => d._id),
    ).toEqual([ids[0], ids[1]]);
    expect((await coll.find({ 'items.product': 'p1' }).toArray()).map((d) => d._id)).toEqual([
      ids[0],
      ids[2],
      ids[3],
    ]);
    expect(await coll.distinct('cat', { _id: { $in: [ids[0], ids[1], ids[5]] } })).toEqual(['a', 'b', 'c']);
  });

  it('keeps the indexes right through updates that move, add and remove indexed values, and through deletes', async () => {
    const coll = await seeded('writes');
    await coll.updateOne({ _id: ids[0] }, { $set: { cat: 'moved', tags: ['q'] }, $unset: { user: 1 } });
    await coll.updateMany({ cat: 'a' }, { $push: { tags: 'pushed' } as Document });
    await coll.updateOne({ _id: ids[4] }, { $set: { items: [{ product: 'p7' }] } });
    await coll.deleteOne({ _id: ids[5] });
    await coll.insertOne({ _id: ids[5], cat: 'a', tags: 'x', stock: 1 }); // back, at the end of the scan order
    await coll.replaceOne({ _id: 7 }, { cat: 'a', tags: ['x'] });
    expect(await coll.countDocuments({ cat: 'moved' })).toBe(1);
    expect(await coll.countDocuments({ tags: 'y' })).toBe(0);
    expect(await coll.countDocuments({ 'items.product': 'p7' })).toBe(1);
    await expectSameAsScan(coll);
    await coll.dropIndex('cat_1');
    await expectSameAsScan(coll);
    await coll.createIndex({ cat: -1, stock: 1 });
    await expectSameAsScan(coll);
  });

  it('updates and deletes through _id honour the other conditions', async () => {
    const coll = await seeded('guarded');
    const oversold = await coll.updateOne(
      { _id: ids[5], stock: { $gte: 2 } },
      { $inc: { stock: -2 } as Document },
    );
    expect(oversold).toMatchObject({ matchedCount: 0, modifiedCount: 0 });
    const sold = await coll.updateOne(
      { _id: ids[0], stock: { $gte: 2 } },
      { $inc: { stock: -2 } as Document },
    );
    expect(sold).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect((await coll.findOne({ _id: ids[0] }))!.stock).toBe(3);

    const many = await coll.updateMany(
      { _id: { $in: [ids[0], ids[1], ids[2], new ObjectId()] }, active: true },
      { $set: { seen: true } },
    );
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect((await coll.find({ seen: true }).toArray()).map((d) => d._id)).toEqual([ids[0], ids[2]]);

    const upserted = await coll.updateOne(
      { _id: 'new-id', cat: 'n' },
      { $set: { stock: 1 } },
      { upsert: true },
    );
    expect(upserted.upsertedId).toBe('new-id');
    expect(await coll.findOne({ _id: 'new-id', cat: 'n' })).toEqual({ _id: 'new-id', cat: 'n', stock: 1 });

    expect(await coll.findOneAndUpdate({ _id: ids[1], active: true }, { $set: { x: 1 } })).toBeNull();
    const modified = await coll.findOneAndUpdate(
      { _id: ids[1], active: false },
      { $set: { x: 1 } },
      { returnDocument: 'after' },
    );
    expect(modified).toMatchObject({ _id: ids[1], x: 1 });

    expect((await coll.deleteOne({ _id: ids[3], active: false })).deletedCount).toBe(0);
    expect(
      (await coll.deleteMany({ _id: { $in: [ids[3], ids[4], 'nope'] }, stock: { $gt: 2 } })).deletedCount,
    ).toBe(1);
    expect(await coll.findOne({ _id: ids[4] })).toBeNull();
    expect(await coll.findOne({ _id: ids[3] })).not.toBeNull();
    expect(await coll.findOneAndDelete({ cat: 'c', active: false })).toBeNull();
    await expectSameAsScan(coll);
  });

  it('inside a transaction, reads through _id and indexes see its own uncommitted writes; others do not', async () => {
    const coll = await seeded('txn');
    const session = client.startSession();
    try {
      session.startTransaction();
      await coll.insertOne({ _id: 'fresh', cat: 'a', tags: ['x'], active: true, stock: 1 }, { session });
      await coll.updateOne({ _id: ids[1] }, { $set: { cat: 'a', active: true } }, { session });
      await coll.updateOne({ _id: ids[0] }, { $set: { cat: 'gone' } }, { session });
      await coll.deleteOne({ _id: ids[2] }, { session });

      const inside = (f: Document) =>
        coll
          .find(f, { session })
          .toArray()
          .then((docs) => docs.map((d) => d._id));
      const outside = (f: Document) =>
        coll
          .find(f)
          .toArray()
          .then((docs) => docs.map((d) => d._id));
      expect(await inside({ cat: 'a' })).toEqual([ids[1], 'text-id', 'fresh']);
      expect(await outside({ cat: 'a' })).toEqual([ids[0], ids[2], 'text-id']);
      expect(await inside({ _id: { $in: ['fresh', ids[2], ids[1]] }, active: true })).toEqual([
        ids[1],
        'fresh',
      ]);
      expect(await outside({ _id: { $in: ['fresh', ids[2], ids[1]] }, active: true })).toEqual([ids[2]]);
      expect(await inside({ _id: ids[0], cat: 'gone' })).toEqual([ids[0]]);
      expect(await outside({ _id: ids[0], cat: 'gone' })).toEqual([]);
      await expectSameAsScan(coll, session);

      const guarded = await coll.updateOne(
        { _id: 'fresh', stock: { $gte: 1 } },
        { $inc: { stock: -1 } as Document },
        { session },
      );
      expect(guarded.modifiedCount).toBe(1);
      expect(
        (await coll.deleteMany({ cat: 'a', stock: 0, tags: { $size: 1 } }, { session })).deletedCount,
      ).toBe(1); // 'fresh'
      expect(await outside({ _id: 'fresh' })).toEqual([]);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect((await coll.find({ cat: 'a' }).toArray()).map((d) => d._id)).toEqual([ids[1], 'text-id']);
    expect(await coll.findOne({ _id: ids[2] })).toBeNull();
    await expectSameAsScan(coll);
  });

  it('inside a transaction, unique keys are checked against what the transaction sees', async () => {
    const coll = db.collection<Item>('unique_txn');
    await coll.createIndex({ sku: 1 }, { unique: true, sparse: true });
    await coll.insertMany([{ _id: 1, sku: 'A' }, { _id: 2, sku: 'B' }, { _id: 3 }]);
    const session = client.startSession();
    try {
      session.startTransaction();
      await expect(coll.insertOne({ _id: 10, sku: 'A' }, { session })).rejects.toMatchObject({ code: 11000 });
      await coll.updateOne({ _id: 1 }, { $set: { sku: 'A2' } }, { session }); // frees 'A' for this transaction
      await coll.insertOne({ _id: 11, sku: 'A' }, { session });
      await coll.deleteOne({ _id: 2 }, { session }); // frees 'B'
      await coll.updateOne({ _id: 3 }, { $set: { sku: 'B' } }, { session });
      await expect(coll.insertOne({ _id: 12, sku: 'A2' }, { session })).rejects.toMatchObject({
        code: 11000,
      });
      await expect(coll.updateOne({ _id: 11 }, { $set: { sku: 'B' } }, { session })).rejects.toMatchObject({
        code: 11000,
      });
      await coll.insertOne({ _id: 13 }, { session }); // sparse: no key, no conflict
      expect(await coll.find({}, { session, sort: { _id: 1 } }).toArray()).toEqual([
        { _id: 1, sku: 'A2' },
        { _id: 3, sku: 'B' },
        { _id: 11, sku: 'A' },
        { _id: 13 },
      ]);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await coll.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 1, sku: 'A' },
      { _id: 2, sku: 'B' },
      { _id: 3 },
    ]);
  });
});

describe('indexes rebuilt from the journal after a restart', () => {
  it('answers through _id and indexes exactly as a scan', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-narrowing-'));
    try {
      let server = await startEmbeddedMongo({ dbPath: dir, port: 0 });
      let client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
      let coll = client.db('restart').collection<Item>('items');
      await coll.createIndex({ cat: 1 });
      await coll.createIndex({ tags: 1 });
      await coll.createIndex({ user: 1, at: -1 });
      await coll.createIndex({ 'items.product': 1 });
      await coll.insertMany(sampleDocs());
      await coll.updateOne({ _id: ids[0] }, { $set: { cat: 'moved' } });
      await coll.deleteOne({ _id: ids[2] });
      const session = client.startSession();
      await session.withTransaction(async () => {
        await coll.insertOne({ _id: 'in-txn', cat: 'a', tags: 'x' }, { session });
        await coll.updateOne({ _id: ids[1] }, { $set: { cat: 'a' } }, { session });
      });
      await session.endSession();
      const before = await coll.find({}).toArray();
      await client.close();
      await server.stop();

      server = await startEmbeddedMongo({ dbPath: dir, port: 0 });
      client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
      coll = client.db('restart').collection<Item>('items');
      try {
        expect(await coll.find({}).toArray()).toEqual(before);
        expect((await coll.find({ cat: 'a' }).toArray()).map((d) => d._id)).toEqual([
          ids[1],
          'text-id',
          'in-txn',
        ]);
        expect(await coll.find({ cat: 'moved', _id: ids[0] }).toArray()).toHaveLength(1);
        await expectSameAsScan(coll);
      } finally {
        await client.close();
        await server.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('unique keys moved inside a committed transaction', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;

  beforeAll(async () => {
    server = await startEmbeddedMongo({ inMemory: true });
    client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('commits a key freed and taken again in the same transaction, and keeps enforcing it afterwards', async () => {
    const coll = client.db('unique_moves').collection<{ _id: number; sku?: string }>('items');
    await coll.createIndex({ sku: 1 }, { unique: true, sparse: true });
    await coll.insertMany([{ _id: 1, sku: 'A' }, { _id: 2, sku: 'B' }, { _id: 3 }]);
    const session = client.startSession();
    try {
      await session
        .withTransaction(async () => {
          await coll.insertOne({ _id: 11, sku: 'A' }, { session }).catch(() => undefined); // refused: 'A' is still held
        })
        .catch(() => undefined);
      await session.withTransaction(async () => {
        await coll.updateOne({ _id: 1 }, { $set: { sku: 'A2' } }, { session });
        await coll.insertOne({ _id: 11, sku: 'A' }, { session });
        await coll.deleteOne({ _id: 2 }, { session });
        await coll.updateOne({ _id: 3 }, { $set: { sku: 'B' } }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(await coll.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 1, sku: 'A2' },
      { _id: 3, sku: 'B' },
      { _id: 11, sku: 'A' },
    ]);
    await expect(coll.insertOne({ _id: 20, sku: 'A' })).rejects.toMatchObject({ code: 11000 });
    await expect(coll.insertOne({ _id: 21, sku: 'B' })).rejects.toMatchObject({ code: 11000 });
    await expect(coll.insertOne({ _id: 22, sku: 'A2' })).rejects.toMatchObject({ code: 11000 });
    await coll.insertOne({ _id: 23, sku: 'C' });
  });
});
