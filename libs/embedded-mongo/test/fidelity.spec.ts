import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';

// Behaviours checked against mongod 7.0, through the official driver.

/** Documents with `_id`s of any type. */
type AnyDoc = { _id: number | string; [field: string]: unknown };
/** Values the driver's types do not allow as `_id` but a client can send. */
const raw = (value: unknown) => value as string;

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await startEmbeddedMongo({ inMemory: true });
  client = await MongoClient.connect(server.uri);
  db = client.db('fidelity');
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

async function serverError(promise: Promise<unknown>): Promise<MongoServerError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MongoServerError) return error;
    throw error;
  }
  throw new Error('expected a server error');
}

describe('aggregation output stages', () => {
  it('$out replaces the target collection with the results, keeping its indexes', async () => {
    const src = db.collection<AnyDoc>('out_src');
    await src.insertMany([
      { _id: 1, cat: 'a', n: 2 },
      { _id: 2, cat: 'b', n: 3 },
      { _id: 3, cat: 'a', n: 4 },
    ]);
    const target = db.collection<AnyDoc>('out_target');
    await target.insertOne({ _id: 'old', total: 0 });
    await target.createIndex({ total: 1 });
    const reply = await src
      .aggregate([
        { $group: { _id: '$cat', total: { $sum: '$n' } } },
        { $sort: { _id: 1 } },
        { $out: 'out_target' },
      ])
      .toArray();
    expect(reply).toEqual([]);
    expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', total: 6 },
      { _id: 'b', total: 3 },
    ]);
    expect((await target.indexes()).map((i) => i.name)).toEqual(['_id_', 'total_1']);
  });

  it('$out is refused anywhere but last', async () => {
    const error = await serverError(
      db
        .collection('out_src')
        .aggregate([{ $out: 'x' }, { $match: {} }])
        .toArray(),
    );
    expect(error.code).toBe(40601);
  });

  it('$merge inserts, merges, replaces, keeps or fails per whenMatched / whenNotMatched', async () => {
    const target = db.collection<AnyDoc>('merge_target');
    await target.insertMany([
      { _id: 1, a: 1, keep: true },
      { _id: 2, a: 2, keep: true },
    ]);
    const src = db.collection<AnyDoc>('merge_src');
    await src.insertMany([
      { _id: 1, a: 10 },
      { _id: 3, a: 30 },
    ]);
    await src.aggregate([{ $merge: { into: 'merge_target' } }]).toArray();
    expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 10, keep: true },
      { _id: 2, a: 2, keep: true },
      { _id: 3, a: 30 },
    ]);
    await src.aggregate([{ $merge: { into: 'merge_target', whenMatched: 'replace' } }]).toArray();
    expect(await target.findOne({ _id: 1 })).toEqual({ _id: 1, a: 10 });
    await src
      .aggregate([
        { $merge: { into: 'merge_target', whenMatched: [{ $set: { a: { $add: ['$a', '$$new.a'] } } }] } },
      ])
      .toArray();
    expect(await target.findOne({ _id: 3 })).toEqual({ _id: 3, a: 60 });
    await src
      .aggregate([
        { $set: { _id: { $add: ['$_id', 100] } } },
        { $merge: { into: 'merge_target', whenNotMatched: 'discard' } },
      ])
      .toArray();
    expect(await target.countDocuments()).toBe(3);
    const fail = await serverError(
      src.aggregate([{ $merge: { into: 'merge_target', whenMatched: 'fail' } }]).toArray(),
    );
    expect(fail.code).toBe(11000);
  });
});

describe('let and $$variables', () => {
  beforeAll(async () => {
    await db.collection<AnyDoc>('vars').insertMany([
      { _id: 1, qty: 5 },
      { _id: 2, qty: 9 },
    ]);
  });

  it('passes let to find, aggregate, update and delete', async () => {
    const coll = db.collection<AnyDoc>('vars');
    expect(await coll.find({ $expr: { $eq: ['$_id', '$$id'] } }, { let: { id: 2 } }).toArray()).toEqual([
      { _id: 2, qty: 9 },
    ]);
    expect(
      await coll
        .aggregate(
          [
            { $match: { $expr: { $gt: ['$qty', '$$min'] } } },
            { $project: { twice: { $multiply: ['$qty', '$$k'] } } },
          ],
          {
            let: { min: 6, k: 2 },
          },
        )
        .toArray(),
    ).toEqual([{ _id: 2, twice: 18 }]);
    await coll.updateOne({ $expr: { $eq: ['$_id', '$$id'] } }, [{ $set: { qty: '$$q' } }], {
      let: { id: 1, q: 7 },
    });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, qty: 7 });
    const removed = await coll.deleteMany({ $expr: { $lt: ['$qty', '$$max'] } }, { let: { max: 8 } });
    expect(removed.deletedCount).toBe(1);
  });

  it('answers an undefined variable with code 17276, not 8', async () => {
    const error = await serverError(
      db
        .collection('vars')
        .find({ $expr: { $eq: ['$_id', '$$nope'] } })
        .toArray(),
    );
    expect(error.code).toBe(17276);
  });

  it('answers an unknown stage and an unknown expression with their codes', async () => {
    expect(
      (
        await serverError(
          db
            .collection('vars')
            .aggregate([{ $bogus: 1 }])
            .toArray(),
        )
      ).code,
    ).toBe(40324);
    expect(
      (
        await serverError(
          db
            .collection('vars')
            .aggregate([{ $project: { x: { $bogus: 1 } } }])
            .toArray(),
        )
      ).code,
    ).toBe(168);
  });
});

describe('updates, _id and collections', () => {
  it('an upsert by replacement takes the filter _id', async () => {
    const coll = db.collection<AnyDoc>('replace');
    const result = await coll.replaceOne({ _id: 4 }, { x: 1 }, { upsert: true });
    expect(result.upsertedId).toBe(4);
    expect(await coll.findOne({ _id: 4 })).toEqual({ _id: 4, x: 1 });
  });

  it('an operator upsert takes the _id its $setOnInsert or $set gives when the filter names none, and a match ignores it', async () => {
    const coll = db.collection<AnyDoc>('upsert_set_id');
    const inserted = await coll.updateOne({ k: 'a' }, { $setOnInsert: { _id: 7, n: 1 } }, { upsert: true });
    expect(inserted.upsertedId).toBe(7);
    // the document exists now: $setOnInsert (its _id included) is not applied
    const matched = await coll.updateOne({ k: 'a' }, { $setOnInsert: { _id: 8, n: 2 } }, { upsert: true });
    expect([matched.matchedCount, matched.upsertedCount]).toEqual([1, 0]);
    expect(await coll.find().toArray()).toEqual([{ _id: 7, k: 'a', n: 1 }]);
    const bySet = await coll.findOneAndUpdate(
      { k: 'b' },
      { $set: { _id: 'b1' } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(bySet).toEqual({ _id: 'b1', k: 'b' });
    // a filter's _id and a different one in the update still conflict
    const conflict = await serverError(
      coll.updateOne({ _id: 9 }, { $setOnInsert: { _id: 10 } }, { upsert: true }),
    );
    expect(conflict.code).toBe(66);
  });

  it('refuses a replacement that sets _id to null (immutable)', async () => {
    const coll = db.collection<AnyDoc>('replace');
    await coll.insertOne({ _id: 9, x: 1 });
    const error = await serverError(coll.replaceOne({ _id: 9 }, { _id: raw(null), x: 2 }));
    expect(error.code).toBe(66);
    expect(await coll.findOne({ _id: 9 })).toEqual({ _id: 9, x: 1 });
  });

  it('refuses unknown fields in an update or delete statement', async () => {
    const update = await serverError(
      db.command({
        update: 'replace',
        updates: [{ q: { _id: 9 }, u: { $set: { x: 3 } }, sort: { _id: 1 } }],
      }),
    );
    expect(update.code).toBe(40415);
    expect(update.message).toContain("'update.updates.sort'");
    const del = await serverError(
      db.command({ delete: 'replace', deletes: [{ q: {}, limit: 0, bogus: 1 }] }),
    );
    expect(del.code).toBe(40415);
    expect(await db.collection<AnyDoc>('replace').findOne({ _id: 9 })).toEqual({ _id: 9, x: 1 });
  });

  it("refuses a '$'-prefixed field inside _id", async () => {
    const error = await serverError(db.collection<AnyDoc>('ids').insertOne({ _id: raw({ $a: 1 }) }));
    expect(error.code).toBe(52);
    const nested = await serverError(db.collection<AnyDoc>('ids').insertOne({ _id: raw({ a: { $b: 1 } }) }));
    expect(nested.code).toBe(52);
    expect(await db.collection('ids').countDocuments()).toBe(0);
  });

  it('drops a collection that does not exist with ok', async () => {
    const reply = await db.command({ drop: 'never_created' });
    expect(reply.ok).toBe(1);
    expect(await db.collection('never_created').drop()).toBe(true);
  });
});

describe('views', () => {
  it('create with viewOn/pipeline makes a read-only view over its source', async () => {
    const src = db.collection<AnyDoc>('view_src');
    await src.insertMany([
      { _id: 1, cat: 'a', price: 5, secret: 'x' },
      { _id: 2, cat: 'b', price: 7, secret: 'y' },
      { _id: 3, cat: 'a', price: 9, secret: 'z' },
    ]);
    await db.createCollection('cheap_a', {
      viewOn: 'view_src',
      pipeline: [{ $match: { cat: 'a' } }, { $project: { secret: 0 } }],
    });
    const view = db.collection<AnyDoc>('cheap_a');
    expect(await view.find({ price: { $gt: 6 } }).toArray()).toEqual([{ _id: 3, cat: 'a', price: 9 }]);
    expect(await view.countDocuments()).toBe(2);
    expect(await view.distinct('price')).toEqual([5, 9]);
    expect(await view.find().sort({ price: -1 }).limit(1).toArray()).toEqual([
      { _id: 3, cat: 'a', price: 9 },
    ]);
    // the view follows its source
    await src.insertOne({ _id: 4, cat: 'a', price: 1, secret: 'w' });
    expect(await view.countDocuments()).toBe(3);
    const infos = await db.listCollections({ name: 'cheap_a' }).toArray();
    expect(infos[0]).toMatchObject({ type: 'view', options: { viewOn: 'view_src' } });
    const write = await serverError(view.insertOne({ _id: 9, cat: 'a' }));
    expect(write.code).toBe(166);
    expect(await src.countDocuments()).toBe(4);
  });
});

describe('validators', () => {
  it('enforces a $jsonSchema validator with code 121 and errInfo, on insert and update', async () => {
    await db.createCollection('validated', {
      validator: {
        $jsonSchema: {
          bsonType: 'object',
          required: ['name', 'price'],
          properties: { name: { bsonType: 'string', minLength: 1 }, price: { bsonType: 'int', minimum: 0 } },
        },
      },
    });
    const coll = db.collection<AnyDoc>('validated');
    await coll.insertOne({ _id: 1, name: 'Shea butter', price: 100 });
    const missing = await serverError(coll.insertOne({ _id: 2, name: 'No price' }));
    expect(missing.code).toBe(121);
    expect(missing.errInfo).toMatchObject({
      failingDocumentId: 2,
      details: {
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [{ operatorName: 'required', missingProperties: ['price'] }],
      },
    });
    const negative = await serverError(coll.updateOne({ _id: 1 }, { $set: { price: -5 } }));
    expect(negative.code).toBe(121);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'Shea butter', price: 100 });
    // bypassDocumentValidation lets a trusted writer through
    await coll.insertOne({ _id: 3, name: 'Imported' }, { bypassDocumentValidation: true });
    expect(await coll.countDocuments()).toBe(2);
  });

  it('enforces a query validator set by collMod; moderate leaves already-invalid documents updatable', async () => {
    const coll = db.collection<AnyDoc>('modded');
    await coll.insertMany([
      { _id: 1, stock: 3 },
      { _id: 2, stock: -1 },
    ]);
    await db.command({ collMod: 'modded', validator: { stock: { $gte: 0 } } });
    expect((await serverError(coll.insertOne({ _id: 3, stock: -2 }))).code).toBe(121);
    expect((await serverError(coll.updateOne({ _id: 2 }, { $set: { note: 'x' } }))).code).toBe(121);
    await db.command({ collMod: 'modded', validationLevel: 'moderate' });
    await coll.updateOne({ _id: 2 }, { $set: { note: 'x' } });
    expect((await serverError(coll.updateOne({ _id: 1 }, { $set: { stock: -4 } }))).code).toBe(121);
    await db.command({ collMod: 'modded', validationAction: 'warn' });
    await coll.insertOne({ _id: 4, stock: -9 });
    expect(await coll.countDocuments()).toBe(3);
  });
});

describe('collation', () => {
  beforeAll(async () => {
    const coll = db.collection<AnyDoc>('names');
    await coll.createIndex({ name: 1 });
    await coll.insertMany([
      { _id: 1, name: 'cafe' },
      { _id: 2, name: 'Café' },
      { _id: 3, name: 'CAFE' },
      { _id: 4, name: 'b' },
      { _id: 5, name: 'B' },
    ]);
  });

  it('matches by strength: 1 ignores case and accents, 2 only case, 3 neither; simple is binary', async () => {
    const coll = db.collection<AnyDoc>('names');
    const ids = async (strength?: number) =>
      (
        await coll
          .find(
            { name: 'cafe' },
            strength ? { collation: { locale: 'en', strength } } : { collation: { locale: 'simple' } },
          )
          .toArray()
      )
        .map((d) => d._id)
        .sort();
    expect(await ids(1)).toEqual([1, 2, 3]);
    expect(await ids(2)).toEqual([1, 3]);
    expect(await ids(3)).toEqual([1]);
    expect(await ids()).toEqual([1]);
    expect(
      await coll.countDocuments({ name: { $in: ['CAFE'] } }, { collation: { locale: 'en', strength: 2 } }),
    ).toBe(2);
  });

  it('sorts by the locale instead of by bytes', async () => {
    const coll = db.collection<AnyDoc>('names');
    const binary = (
      await coll
        .find({ _id: { $in: [4, 5, 1] } })
        .sort({ name: 1 })
        .toArray()
    ).map((d) => d.name);
    expect(binary).toEqual(['B', 'b', 'cafe']);
    const en = (
      await coll
        .find({ _id: { $in: [4, 5, 1] } }, { collation: { locale: 'en', strength: 3 } })
        .sort({ name: 1 })
        .toArray()
    ).map((d) => d.name);
    expect(en).toEqual(['b', 'B', 'cafe']);
  });

  it('applies to update and delete', async () => {
    const coll = db.collection<AnyDoc>('names');
    const updated = await coll.updateMany(
      { name: 'CAFÉ' },
      { $set: { seen: true } },
      { collation: { locale: 'en', strength: 1 } },
    );
    expect(updated.modifiedCount).toBe(3);
    const deleted = await coll.deleteMany({ name: 'b' }, { collation: { locale: 'en', strength: 2 } });
    expect(deleted.deletedCount).toBe(2);
  });
});
