import { MongoClient, MongoServerError, ObjectId, type Db } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';

describe('embedded-mongo through the official driver', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    server = await startEmbeddedMongo({ inMemory: true });
    client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
    db = client.db('driver_test');
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('handshakes as a replica-set primary and answers ping and buildInfo', async () => {
    const hello = await db.admin().command({ hello: 1 });
    expect(hello).toMatchObject({ isWritablePrimary: true, setName: 'rs0', maxWireVersion: 21 });
    expect(hello.hosts).toEqual([`127.0.0.1:${server.port}`]);
    expect((await db.command({ ping: 1 })).ok).toBe(1);
    expect((await db.admin().command({ buildInfo: 1 })).version).toMatch(/^7\./);
  });

  it('keeps ordered indexes right when updates change, keep or re-type indexed values', async () => {
    const rows = db.collection('reindexed');
    await rows.createIndex({ a: 1, b: -1 });
    await rows.createIndex({ tags: 1 });
    await rows.insertMany([
      { _id: 1 as never, a: 1, b: 1, tags: ['x'], n: 0 },
      { _id: 2 as never, a: 2, b: 1, tags: ['y'], n: 0 },
      { _id: 3 as never, a: 3, b: 1, tags: ['x', 'y'], n: 0 },
    ]);
    const order = async () =>
      (await rows.find({}, { sort: { a: 1, b: -1 }, projection: { _id: 1 } }).toArray()).map((d) => d._id);
    await rows.updateOne({ _id: 1 as never }, { $inc: { n: 1 } }); // no indexed field moves
    expect(await order()).toEqual([1, 2, 3]);
    await rows.updateOne({ _id: 1 as never }, { $set: { a: 5 } });
    expect(await order()).toEqual([2, 3, 1]);
    await rows.updateOne({ _id: 2 as never }, { $set: { a: '2' } }); // a string sorts after numbers
    expect(await order()).toEqual([3, 1, 2]);
    expect(await rows.countDocuments({ a: 2 })).toBe(0);
    await rows.updateOne({ _id: 3 as never }, { $set: { tags: ['y', 'x'] } });
    await rows.updateOne({ _id: 2 as never }, { $set: { tags: ['z'] } });
    const tagged = async (tag: string) =>
      (await rows.find({ tags: tag }, { sort: { tags: 1 } }).toArray()).map((d) => d._id).sort();
    expect(await tagged('x')).toEqual([1, 3]);
    expect(await tagged('y')).toEqual([3]);
    expect(await tagged('z')).toEqual([2]);
  });

  it('projects top-level inclusions as mongod does: _id first, then the fields in document order', async () => {
    const shapes = db.collection('shapes');
    const _id = new ObjectId();
    await shapes.insertOne({ z: 1, _id, a: { b: [1, 2] }, m: 'x', k: null, d: new Date(0) });
    const one = async (projection: Record<string, 0 | 1 | boolean>) =>
      (await shapes.find({ _id }, { projection }).toArray())[0];
    const both = await one({ m: 1, a: 1, _id: 1 });
    expect(both).toEqual({ _id, a: { b: [1, 2] }, m: 'x' });
    expect(Object.keys(both)).toEqual(['_id', 'a', 'm']);
    expect(Object.keys(await one({ k: true, z: 1, missing: 1 }))).toEqual(['_id', 'z', 'k']);
    expect(await one({ _id: 0, d: 1 })).toEqual({ d: new Date(0) });
    expect(await one({ _id: 1 })).toEqual({ _id });
    // dotted paths and operators still go through the general projection
    expect(await one({ 'a.b': 1, _id: 0 })).toEqual({ a: { b: [1, 2] } });
  });

  it('inserts, finds with filter, sort, projection, skip and limit, and pages with getMore', async () => {
    const items = db.collection('items');
    await items.insertMany(
      Array.from({ length: 250 }, (_, i) => ({ n: i, even: i % 2 === 0, tags: [`t${i % 3}`] })),
    );
    const page = await items
      .find({ even: true }, { projection: { _id: 0, n: 1 } })
      .sort({ n: -1 })
      .skip(2)
      .limit(3)
      .toArray();
    expect(page).toEqual([{ n: 244 }, { n: 242 }, { n: 240 }]);
    const all = await items.find({}, { batchSize: 40 }).toArray(); // several getMore round trips
    expect(all).toHaveLength(250);
    expect(all[0]._id).toBeInstanceOf(ObjectId);
    const cursor = items.find({}, { batchSize: 10 });
    await cursor.next();
    await cursor.close(); // killCursors
    expect(await items.countDocuments({ tags: 't1' })).toBe(83);
    expect(await items.estimatedDocumentCount()).toBe(250);
    expect((await items.distinct('tags')).sort()).toEqual(['t0', 't1', 't2']);
  });

  it('updates with operators, replacement, upsert, multi, arrayFilters and the positional $', async () => {
    const orders = db.collection('orders');
    const { insertedId } = await orders.insertOne({
      status: 'pending',
      items: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 5 },
      ],
      n: 1,
    });
    await orders.updateOne(
      { _id: insertedId, 'items.sku': 'a' },
      { $inc: { 'items.$.qty': 2, n: 1 }, $set: { status: 'paid' } },
    );
    await orders.updateOne(
      { _id: insertedId },
      { $set: { 'items.$[big].flag': true } },
      { arrayFilters: [{ 'big.qty': { $gte: 5 } }] },
    );
    const doc = await orders.findOne({ _id: insertedId });
    expect(doc).toMatchObject({
      status: 'paid',
      n: 2,
      items: [
        { sku: 'a', qty: 3 },
        { sku: 'b', qty: 5, flag: true },
      ],
    });

    const up = await orders.updateOne(
      { ref: 'x1' },
      { $set: { total: 10 }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(up.upsertedCount).toBe(1);
    const again = await orders.updateOne(
      { ref: 'x1' },
      { $set: { total: 12 }, $setOnInsert: { created: false } },
      { upsert: true },
    );
    expect(again).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await orders.findOne({ ref: 'x1' }, { projection: { _id: 0 } })).toEqual({
      ref: 'x1',
      total: 12,
      created: true,
    });

    await orders.replaceOne({ ref: 'x1' }, { ref: 'x1', replaced: true });
    expect(await orders.findOne({ ref: 'x1' }, { projection: { _id: 0 } })).toEqual({
      ref: 'x1',
      replaced: true,
    });

    await orders.insertMany([{ kind: 'm' }, { kind: 'm' }]);
    const many = await orders.updateMany({ kind: 'm' }, { $set: { seen: 1 } });
    expect(many.modifiedCount).toBe(2);
    const same = await orders.updateMany({ kind: 'm' }, { $set: { seen: 1 } });
    expect(same).toMatchObject({ matchedCount: 2, modifiedCount: 0 });
  });

  it('sets sibling fields through the positional $ in one update, and refuses real path conflicts', async () => {
    const lists = db.collection('lists');
    await lists.insertOne({
      _id: 'w' as never,
      items: [
        { p: 1, a: false, b: false },
        { p: 2, a: false, b: false },
      ],
    });
    await lists.updateOne(
      { _id: 'w' as never, 'items.p': 2 },
      { $set: { 'items.$.a': true, 'items.$.b': true } },
    );
    expect((await lists.findOne({ _id: 'w' as never }))!.items).toEqual([
      { p: 1, a: false, b: false },
      { p: 2, a: true, b: true },
    ]);
    await expect(
      lists.updateOne({ _id: 'w' as never, 'items.p': 2 }, { $set: { 'items.$': { p: 9 }, 'items.$.a': 1 } }),
    ).rejects.toMatchObject({ code: 40 });
    expect((await lists.findOne({ _id: 'w' as never }))!.items[1]).toEqual({ p: 2, a: true, b: true });
  });

  it('deletes one or many and answers findAndModify in both directions', async () => {
    const c = db.collection('fam');
    await c.insertMany([
      { k: 1, v: 'a' },
      { k: 2, v: 'b' },
      { k: 3, v: 'c' },
    ]);
    const before = await c.findOneAndUpdate({ k: 1 }, { $set: { v: 'A' } }, { returnDocument: 'before' });
    expect(before?.v).toBe('a');
    const after = await c.findOneAndUpdate(
      { k: { $gte: 2 } },
      { $set: { v: 'Z' } },
      { sort: { k: -1 }, returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(after).toEqual({ k: 3, v: 'Z' });
    const upserted = await c.findOneAndUpdate(
      { k: 9 },
      { $set: { v: 'new' } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(upserted?.k).toBe(9);
    const removed = await c.findOneAndDelete({ k: 2 });
    expect(removed?.v).toBe('b');
    expect((await c.deleteOne({ k: 1 })).deletedCount).toBe(1);
    expect((await c.deleteMany({})).deletedCount).toBe(2);
  });

  it('aggregates with $match, $group by day in a timezone, $unwind, $lookup, $sort, $limit and $facet', async () => {
    const products = db.collection('agg_products');
    const sales = db.collection('agg_orders');
    const [p1, p2] = [new ObjectId(), new ObjectId()];
    await products.insertMany([
      { _id: p1, name: 'Shea' },
      { _id: p2, name: 'Coffee' },
    ]);
    await sales.insertMany([
      // 21:30 UTC on the 1st is already the 2nd in Addis Ababa (UTC+3)
      {
        createdAt: new Date('2026-11-01T21:30:00Z'),
        items: [
          { product: p1, qty: 2 },
          { product: p2, qty: 1 },
        ],
        total: 300,
      },
      { createdAt: new Date('2026-11-02T08:00:00Z'), items: [{ product: p1, qty: 1 }], total: 100 },
      { createdAt: new Date('2026-11-01T08:00:00Z'), items: [{ product: p2, qty: 4 }], total: 400 },
    ]);
    const byDay = await sales
      .aggregate([
        { $match: { createdAt: { $gte: new Date('2026-11-01T00:00:00Z') } } },
        {
          $group: {
            _id: {
              $dateToString: { format: '%Y-%m-%d', date: '$createdAt', timezone: 'Africa/Addis_Ababa' },
            },
            totalSales: { $sum: '$total' },
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(byDay).toEqual([
      { _id: '2026-11-01', totalSales: 400 },
      { _id: '2026-11-02', totalSales: 400 },
    ]);

    const top = await sales
      .aggregate([
        { $unwind: '$items' },
        { $group: { _id: '$items.product', totalQuantity: { $sum: '$items.qty' } } },
        { $sort: { totalQuantity: -1 } },
        { $limit: 1 },
        { $lookup: { from: 'agg_products', localField: '_id', foreignField: '_id', as: 'productDetails' } },
        { $unwind: '$productDetails' },
        { $project: { _id: 0, totalQuantity: 1, name: '$productDetails.name' } },
      ])
      .toArray();
    expect(top).toEqual([{ totalQuantity: 5, name: 'Coffee' }]);

    const [facets] = await sales
      .aggregate([
        { $facet: { count: [{ $count: 'n' }], big: [{ $match: { total: { $gt: 200 } } }, { $count: 'n' }] } },
      ])
      .toArray();
    expect(facets).toEqual({ count: [{ n: 3 }], big: [{ n: 2 }] });
  });

  it('manages collections, databases and indexes', async () => {
    const other = client.db('driver_admin_test');
    await other.createCollection('made');
    await expect(other.createCollection('made')).rejects.toMatchObject({ code: 48 });
    expect((await other.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name)).toEqual([
      'made',
    ]);
    const made = other.collection('made');
    expect(await made.createIndex({ a: 1, b: -1 })).toBe('a_1_b_-1');
    await made.createIndex({ c: 1 }, { name: 'c_custom', unique: true });
    expect((await made.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'a_1_b_-1', 'c_custom']);
    await made.dropIndex('c_custom');
    expect((await made.indexes()).map((i) => i.name)).toEqual(['_id_', 'a_1_b_-1']);
    const dbs = await client.db().admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).toContain('driver_admin_test');
    expect(await made.drop()).toBe(true);
    await other.dropDatabase();
    expect((await client.db().admin().listDatabases()).databases.map((d) => d.name)).not.toContain(
      'driver_admin_test',
    );
  });

  it('enforces single, compound and partial unique indexes on insert, update and upsert', async () => {
    const users = db.collection('uniq');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ shop: 1, sku: 1 }, { unique: true });
    await users.insertOne({ email: 'a@x.et', shop: 1, sku: 'A' });
    const dup = await users.insertOne({ email: 'a@x.et' }).catch((e) => e);
    expect(dup).toBeInstanceOf(MongoServerError);
    expect(dup).toMatchObject({ code: 11000, keyPattern: { email: 1 }, keyValue: { email: 'a@x.et' } });
    expect(dup.message).toMatch(
      /E11000 duplicate key error collection: driver_test.uniq index: email_1 dup key/,
    );
    await users.insertOne({ email: 'b@x.et', shop: 1, sku: 'B' });
    await expect(users.updateOne({ email: 'b@x.et' }, { $set: { sku: 'A' } })).rejects.toMatchObject({
      code: 11000,
      keyValue: { shop: 1, sku: 'A' },
    });
    await expect(
      users.updateOne({ email: 'zz' }, { $set: { email: 'a@x.et' } }, { upsert: true }),
    ).rejects.toMatchObject({ code: 11000 });
    await expect(
      users.insertOne({ _id: (await users.findOne({ email: 'a@x.et' }))!._id, email: 'c' }),
    ).rejects.toMatchObject({ code: 11000 });
    // unordered batch: the good documents still go in
    const result = await users
      .insertMany([{ email: 'a@x.et' }, { email: 'd@x.et' }], { ordered: false })
      .catch((e) => e);
    expect(result.code).toBe(11000);
    expect(await users.countDocuments({ email: 'd@x.et' })).toBe(1);
    await expect(users.createIndex({ shop: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
    // equality finds answered from the unique index stay in step with updates and deletes
    await users.updateOne({ email: 'd@x.et' }, { $set: { email: 'e@x.et' } });
    expect(await users.findOne({ email: 'd@x.et' })).toBeNull();
    expect((await users.findOne({ email: 'e@x.et' }))?.email).toBe('e@x.et');
    await users.deleteOne({ email: 'e@x.et' });
    expect(await users.findOne({ email: 'e@x.et' })).toBeNull();
    const partial = db.collection('partial');
    await partial.createIndex(
      { key: 1 },
      { unique: true, partialFilterExpression: { key: { $type: 'string' } } },
    );
    await partial.insertMany([{ n: 1 }, { n: 2 }, { key: 'k' }]);
    await expect(partial.insertOne({ key: 'k' })).rejects.toMatchObject({ code: 11000 });
  });

  it('answers unknown commands and operators with MongoDB errors, not crashes', async () => {
    await expect(db.command({ frobnicate: 1 })).rejects.toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
    });
    await expect(
      db
        .collection('items')
        .find({ n: { $frob: 1 } })
        .toArray(),
    ).rejects.toBeInstanceOf(MongoServerError);
    await expect(db.collection('items').updateOne({}, { $frob: { a: 1 } })).rejects.toMatchObject({
      code: 9,
    });
    await expect(db.command({ getMore: 123456789, collection: 'items' })).rejects.toMatchObject({ code: 43 });
    expect((await db.command({ ping: 1 })).ok).toBe(1); // still serving
  });

  it('never drives stock negative under 20 concurrent conditional decrements', async () => {
    const stock = db.collection('stock');
    const { insertedId } = await stock.insertOne({ stock: 5 });
    const clients = await Promise.all(Array.from({ length: 4 }, () => MongoClient.connect(server.uri)));
    try {
      const attempts = Array.from({ length: 20 }, (_, i) =>
        clients[i % 4]
          .db('driver_test')
          .collection('stock')
          .findOneAndUpdate(
            { _id: insertedId, stock: { $gte: 1 } },
            { $inc: { stock: -1 } },
            { returnDocument: 'after' },
          ),
      );
      const results = await Promise.all(attempts);
      expect(results.filter((r) => r !== null)).toHaveLength(5);
      expect((await stock.findOne({ _id: insertedId }))?.stock).toBe(0);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('counts 50 parallel $inc on one counter exactly', async () => {
    const counters = db.collection('counters');
    await counters.insertOne({ _id: 'c' as unknown as ObjectId, n: 0 });
    await Promise.all(
      Array.from({ length: 50 }, () =>
        counters.updateOne({ _id: 'c' as unknown as ObjectId }, { $inc: { n: 1 } }),
      ),
    );
    expect((await counters.findOne({ _id: 'c' as unknown as ObjectId }))?.n).toBe(50);
  });
});

describe('embedded-mongo on a Unix socket (a client on the same machine)', () => {
  it('answers the driver on the socket as on TCP, transactions included, and removes the socket when stopped', async () => {
    const { existsSync, mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'engine-sock-'));
    const socketPath = path.join(dir, 'engine.sock');
    writeFileSync(socketPath, 'left by a process that died'); // a stale file is replaced
    const server = await startEmbeddedMongo({ inMemory: true, socketPath });
    expect(server.socketUri).toBe(`mongodb://${encodeURIComponent(socketPath)}/?directConnection=true`);
    const local = await MongoClient.connect(server.socketUri!, { serverSelectionTimeoutMS: 5000 });
    const remote = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const rows = local.db('socket_test').collection<{ _id: number; n: number }>('rows');
      await rows.insertOne({ _id: 1, n: 0 });
      const session = local.startSession();
      await session.withTransaction(async () => {
        await rows.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session });
        await rows.insertOne({ _id: 2, n: 5 }, { session });
      });
      await session.endSession();
      // one engine behind both doors
      const seen = await remote.db('socket_test').collection('rows').find().sort({ _id: 1 }).toArray();
      expect(seen).toEqual([
        { _id: 1, n: 1 },
        { _id: 2, n: 5 },
      ]);
    } finally {
      await local.close();
      await remote.close();
      await server.stop();
    }
    expect(existsSync(socketPath)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
