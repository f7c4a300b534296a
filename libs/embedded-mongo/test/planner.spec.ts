import fc from 'fast-check';
import {
  BSON,
  Binary,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoClient,
  ObjectId,
  Timestamp,
  type Collection,
  type Document,
} from 'mongodb';
import { Query } from 'mingo';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';
import { predicatesOf } from '../src/planner/bounds';
import { boundsMatcher } from '../src/planner/matcher';

// Every query planned over the ordered indexes must answer exactly what the collection scan answers
// (hint { $natural: 1 } forces the scan): the same documents in the same order, the same counts.

/** Documents with `_id`s of any type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDoc = { _id: any; [field: string]: any };

let server: EmbeddedMongo;
let client: MongoClient;

beforeAll(async () => {
  server = await startEmbeddedMongo({ inMemory: true });
  client = await MongoClient.connect(server.uri);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

const oids = Array.from({ length: 4 }, (_, i) => new ObjectId(`65000000000000000000000${i}`));
const dates = [new Date(0), new Date(1000), new Date(86_400_000)];

const scalar = fc.oneof(
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom(0.5, 2.5, -1.5),
  fc.constantFrom('', 'a', 'ab', 'abc', 'b', 'B', 'é', 'z'),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...dates),
  fc.constantFrom(...oids),
);
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.record({ x: scalar }) },
);

const docArb = fc.record(
  {
    a: value,
    b: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('x', 'y')),
    c: fc.integer({ min: 0, max: 6 }),
    tags: fc.array(fc.constantFrom('red', 'green', 'blue', 'reef', 'gold'), { maxLength: 3 }),
    d: fc.integer({ min: 0, max: 3 }),
    // subdocuments in an array, some without `q`: a sparse index over the path through the array
    e: fc.array(fc.record({ q: fc.integer({ min: 0, max: 4 }), r: fc.boolean() }, { requiredKeys: ['r'] }), {
      maxLength: 3,
    }),
  },
  { requiredKeys: ['c'] },
);

const fieldArb = fc.constantFrom('a', 'b', 'c', 'tags', 'd', 'e.q');
const condition = fc.oneof(
  scalar.filter((v) => v !== null),
  fc.record({
    $in: fc.array(
      scalar.filter((v) => v !== null),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  fc.record({ $gt: scalar.filter((v) => v !== null) }),
  fc.record({ $gte: scalar.filter((v) => v !== null), $lt: scalar.filter((v) => v !== null) }),
  fc.record({ $lte: scalar.filter((v) => v !== null) }),
  fc.record({ $ne: scalar }),
  fc.constantFrom({ $regex: '^a' }, { $regex: '^re' }, { $regex: '^g' }),
);
const filterArb = fc.array(fc.tuple(fieldArb, condition), { maxLength: 3 }).chain((pairs) =>
  fc.boolean().map((useAnd) => {
    if (useAnd) return { $and: pairs.map(([f, c]) => ({ [f]: c })) } as Document;
    const out: Document = {};
    for (const [f, c] of pairs) out[f] = c;
    return out;
  }),
);
const sortArb = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom<Document>(
    { a: 1 },
    { a: -1 },
    { c: 1 },
    { c: -1, _id: -1 },
    { b: 1, c: -1 },
    { b: -1, c: 1 },
    { c: 1, _id: 1 },
    { tags: 1 },
    { d: 1, c: 1 },
    { b: 1 },
    { d: -1 },
    { b: -1, a: 1 },
  ),
);

async function seeded(name: string, docs: Document[]): Promise<Collection<AnyDoc>> {
  const coll = client.db('planner').collection<AnyDoc>(name);
  await coll.drop();
  await coll.createIndex({ a: 1 });
  await coll.createIndex({ b: 1, c: -1 });
  await coll.createIndex({ b: 1, a: 1, c: 1 });
  await coll.createIndex({ tags: 1 });
  await coll.createIndex({ c: 1, _id: 1 });
  await coll.createIndex({ d: 1 }, { sparse: true });
  await coll.createIndex({ 'e.q': 1 }, { sparse: true });
  await coll.createIndex({ d: 1, c: 1 });
  if (docs.length) await coll.insertMany(docs.map((d, i) => ({ _id: i % 3 === 0 ? `s${i}` : i, ...d })));
  return coll;
}

describe('index-planned queries answer exactly what the collection scan answers', () => {
  it('find (filter, sort, skip, limit) and countDocuments over random documents', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(docArb, { maxLength: 40 }),
        fc.array(
          fc.record({
            filter: filterArb,
            sort: sortArb,
            skip: fc.integer({ min: 0, max: 5 }),
            limit: fc.integer({ min: 0, max: 8 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (docs, queries) => {
          const coll = await seeded(`p${run++}`, docs);
          // updates and deletes move and remove index entries before the queries run
          await coll.updateMany({ c: 2 }, { $set: { a: 'moved', tags: ['gold'] } });
          await coll.deleteMany({ c: 5 });
          // each query as generated, and unfiltered (an index walk then serves every sort)
          for (const q of queries.flatMap((x) => [x, { ...x, filter: {} }])) {
            const cursor = () => {
              let cur = coll.find(q.filter);
              if (q.sort) cur = cur.sort(q.sort);
              return cur.skip(q.skip).limit(q.limit);
            };
            const planned = await cursor().toArray();
            const scanned = await cursor().hint({ $natural: 1 }).toArray();
            expect(planned).toEqual(scanned);
            expect(await coll.countDocuments(q.filter)).toBe(
              await coll.countDocuments(q.filter, { hint: { $natural: 1 } }),
            );
            expect(await coll.countDocuments(q.filter, { skip: q.skip, limit: q.limit || undefined })).toBe(
              await coll.countDocuments(q.filter, {
                hint: { $natural: 1 },
                skip: q.skip,
                limit: q.limit || undefined,
              }),
            );
          }
          await coll.drop();
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('filters made only of bounds', () => {
  it('are matched without mingo exactly as mingo matches them', () => {
    // bound values: mostly numbers of several types, where ranges and equality are subtle
    const bound = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: -3, max: 5 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(0.5, 2.5, new Long(2), new Int32(3), new Double(1)) },
      { weight: 2, arbitrary: scalar.filter((v) => v !== null) },
    );
    const boundCondition = fc.oneof(
      bound,
      fc.record({ $eq: bound }),
      fc.record({ $in: fc.array(bound, { minLength: 1, maxLength: 3 }) }),
      fc.record({ $gt: bound }),
      fc.record({ $gte: bound, $lt: bound }),
      fc.record({ $lte: bound }),
    );
    const boundFilter = fc
      .array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'tags', 'd', 'a.x'), boundCondition), { maxLength: 3 })
      .chain((pairs) =>
        fc
          .boolean()
          .map((useAnd) =>
            useAnd
              ? { $and: pairs.map(([f, c]) => ({ [f]: c })) }
              : Object.fromEntries(pairs.map(([f, c]) => [f, c])),
          ),
      );
    fc.assert(
      fc.property(fc.array(docArb, { maxLength: 20 }), fc.oneof(boundFilter, filterArb), (docs, filter) => {
        const match = boundsMatcher(predicatesOf(filter));
        if (!match) return;
        const query = new Query(filter);
        // as stored: through BSON (fast-check's records have no prototype, which mingo cannot read)
        for (const doc of docs.map((d) => BSON.deserialize(BSON.serialize(d))))
          expect([filter, doc, match(doc)]).toEqual([filter, doc, query.test(doc)]);
      }),
      { numRuns: 1500 },
    );
    expect(boundsMatcher(predicatesOf({ a: 1, $and: [{ b: { $gt: 2 } }] }))).toBeDefined();
    expect(boundsMatcher(predicatesOf({ a: { $ne: 1 } }))).toBeUndefined();
  });
});

describe('the planner', () => {
  let coll: Collection<AnyDoc>;

  beforeAll(async () => {
    coll = client.db('planner').collection<AnyDoc>('products');
    await coll.drop();
    await coll.createIndex({ active: 1, category: 1, price: 1, _id: 1 });
    await coll.createIndex({ active: 1, createdAt: -1 });
    const docs = Array.from({ length: 2000 }, (_, i) => ({
      _id: i,
      active: i % 10 !== 0,
      category: `c${i % 20}`,
      price: (i * 7919) % 1000,
      createdAt: new Date(1_700_000_000_000 + i * 1000),
    }));
    await coll.insertMany(docs);
  });

  it('serves sort + skip + limit from an index, passing over the skipped entries by rank', async () => {
    const query = () =>
      coll.find({ active: true, category: 'c3' }).sort({ price: 1, _id: 1 }).skip(18).limit(2);
    const explain = await query().explain('executionStats');
    expect(explain.queryPlanner.winningPlan.inputStage.indexName).toBe('active_1_category_1_price_1__id_1');
    // the 18 skipped entries are not read: the page starts at its rank in the B+tree
    expect(explain.executionStats.totalKeysExamined).toBe(2);
    expect(explain.executionStats.totalDocsExamined).toBe(2);
    const expected = Array.from({ length: 2000 }, (_, i) => i)
      .filter((i) => i % 10 !== 0 && i % 20 === 3)
      .sort((x, y) => ((x * 7919) % 1000) - ((y * 7919) % 1000) || x - y)
      .slice(18, 20);
    expect((await query().toArray()).map((d) => d._id)).toEqual(expected);
  });

  it('walks an index backward for the reversed sort', async () => {
    const explain = await coll
      .find({ active: true, category: 'c4' })
      .sort({ price: -1, _id: -1 })
      .limit(5)
      .explain('executionStats');
    expect(explain.queryPlanner.winningPlan.inputStage.direction).toBe('backward');
    expect(explain.executionStats.totalKeysExamined).toBe(5);
  });

  it('merges $in points in sort order and bounds a range on the next field', async () => {
    const filter = { active: true, category: { $in: ['c5', 'c1'] }, price: { $gte: 100, $lt: 300 } };
    const explain = await coll.find(filter).sort({ price: 1, _id: 1 }).limit(7).explain('executionStats');
    expect(explain.queryPlanner.winningPlan.inputStage.indexName).toBe('active_1_category_1_price_1__id_1');
    expect(explain.executionStats.totalKeysExamined).toBeLessThanOrEqual(8);
    const got = await coll.find(filter).sort({ price: 1, _id: 1 }).limit(7).toArray();
    const scan = await coll.find(filter).sort({ price: 1, _id: 1 }).limit(7).hint({ $natural: 1 }).toArray();
    expect(got).toEqual(scan);
    expect(got.length).toBe(7);
  });

  it('counts from the index alone when the bounds are the whole filter', async () => {
    const explain = await client.db('planner').command({
      explain: { count: 'products', query: { active: true, category: 'c7' } },
      verbosity: 'executionStats',
    });
    expect(explain.executionStats.totalDocsExamined).toBe(0);
    // c7 is _id 7, 27, 47, ...: none a multiple of 10, so all 100 are active; c0 has none active
    expect(explain.executionStats.nReturned).toBe(100);
    expect(await coll.countDocuments({ active: true, category: 'c7' })).toBe(100);
    expect(await coll.countDocuments({ active: true, category: 'c0' })).toBe(0);
    expect(await coll.countDocuments({ active: false, category: 'c0' })).toBe(100);
  });

  it('keeps NaN out of numeric ranges answered from an index, as mongod does', async () => {
    const nan = client.db('planner').collection<AnyDoc>('nan');
    await nan.drop();
    await nan.createIndex({ v: 1 });
    await nan.insertMany([
      { _id: 1, v: NaN },
      { _id: 2, v: -Infinity },
      { _id: 3, v: 1 },
      { _id: 4, v: 10 },
      { _id: 5, v: Infinity },
    ]);
    const cases: Array<[Document, number[]]> = [
      [{ v: { $lt: 5 } }, [2, 3]],
      [{ v: { $lte: 1 } }, [2, 3]],
      [{ v: { $gt: 1 } }, [4, 5]],
      [{ v: { $gte: -Infinity, $lt: 10 } }, [2, 3]],
    ];
    for (const [filter, ids] of cases) {
      const byIndex = await nan.find(filter).sort({ v: 1 }).toArray();
      expect([filter, byIndex.map((d) => d._id)]).toEqual([filter, ids]);
      // answered from the index alone (bounds are the whole filter) and by a scan: the same count
      expect(await nan.countDocuments(filter)).toBe(ids.length);
      expect(await nan.countDocuments(filter, { hint: { $natural: 1 } })).toBe(ids.length);
    }
    const plan = await nan.find({ v: { $lt: 5 } }).explain('executionStats');
    expect(plan.queryPlanner.winningPlan.inputStage.indexName).toBe('v_1');
    await nan.drop();
  });

  it('scans when no index fits', async () => {
    const explain = await coll.find({ price: 5 }).explain('executionStats');
    expect(explain.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
    expect(explain.executionStats.totalDocsExamined).toBe(2000);
  });
});

describe("MongoDB's order of mixed types", () => {
  it('sorts and indexes MinKey < null < numbers < strings < objects < arrays < binData < ObjectId < bool < date < timestamp < regex < MaxKey', async () => {
    const coll = client.db('planner').collection<AnyDoc>('mixed');
    await coll.drop();
    const values: unknown[] = [
      new MinKey(),
      null,
      new Int32(-5),
      new Double(1.5),
      new Long(2),
      Decimal128.fromString('2.5'),
      3,
      '',
      'B',
      'a',
      '\u{1F600}',
      { x: 1 },
      { x: 'a' },
      [],
      [0, 1],
      new Binary(Buffer.from([1])),
      new ObjectId('650000000000000000000001'),
      false,
      true,
      new Date(0),
      new Timestamp({ t: 1, i: 1 }),
      /abc/,
      new MaxKey(),
    ];
    // inserted in a shuffled order; the _id records the expected rank
    const docs = values.map((v, rank) => ({ _id: rank, v: Array.isArray(v) ? { arr: v } : v }));
    const shuffled = [...docs].sort((x, y) => ((x._id * 7) % 23) - ((y._id * 7) % 23));
    await coll.insertMany(shuffled.filter((d) => !(d.v && typeof d.v === 'object' && 'arr' in d.v)));
    const scanned = (await coll.find({}).sort({ v: 1 }).hint({ $natural: 1 }).toArray()).map((d) => d._id);
    await coll.createIndex({ v: 1 });
    const indexed = (await coll.find({}).sort({ v: 1 }).hint({ v: 1 }).toArray()).map((d) => d._id);
    const expected = docs.filter((d) => !(d.v && typeof d.v === 'object' && 'arr' in d.v)).map((d) => d._id);
    expect(scanned).toEqual(expected);
    expect(indexed).toEqual(expected);
    const descending = (await coll.find({}).sort({ v: -1 }).toArray()).map((d) => d._id);
    expect(descending).toEqual([...expected].reverse());
  });

  it('sorts an array field by its smallest element ascending and its largest descending, an empty array first', async () => {
    const coll = client.db('planner').collection<AnyDoc>('arrays');
    await coll.drop();
    await coll.insertMany([
      { _id: 1, v: [5, 1] },
      { _id: 2, v: 3 },
      { _id: 3, v: [] },
      { _id: 4 },
      { _id: 5, v: [2, 9] },
    ]);
    expect((await coll.find().sort({ v: 1 }).toArray()).map((d) => d._id)).toEqual([3, 4, 1, 5, 2]);
    expect((await coll.find().sort({ v: -1 }).toArray()).map((d) => d._id)).toEqual([5, 1, 2, 4, 3]);
  });
});
