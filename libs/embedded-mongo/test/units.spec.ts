import { Decimal128, Double, Long, ObjectId } from 'bson';
import { compareValues, parseSort, sortDocuments } from '../src/bson-order';
import { OrderedIndex } from '../src/indexes';
import { predicatesOf, regexPrefix } from '../src/planner/bounds';
import { runCount } from '../src/planner/count';
import { runFind } from '../src/planner/find';
import { Collection, valueKey } from '../src/collection';
import { Storage } from '../src/storage';
import { Transactions } from '../src/transactions';
import { applyUpdateTo, upsertSeed } from '../src/update';
import { validate } from '../src/validation';

// The engine's parts, each driven alone (no server, no driver).

describe('bson-order', () => {
  it('compares numbers across int, long, double and decimal, and types by rank', () => {
    expect(compareValues(2, new Long(2))).toBe(0);
    expect(compareValues(Decimal128.fromString('2.5'), 3)).toBe(-1);
    expect(compareValues(Number.NaN, -Infinity)).toBe(-1);
    expect(compareValues(null, 0)).toBe(-1);
    expect(compareValues('0', 0)).toBe(1);
    expect(compareValues(true, new Date(0))).toBe(-1);
    expect(
      compareValues(new ObjectId('650000000000000000000002'), new ObjectId('650000000000000000000010')),
    ).toBe(-1);
    expect(compareValues('\u{1F600}', '\uFFFF')).toBe(1); // code point order, not UTF-16 units
  });

  it('sorts stably, arrays by their smallest (ascending) or largest (descending) element', () => {
    const docs = [{ v: [3, 9] }, { v: 5 }, { v: [1] }, { w: 1 }, { v: 5, tie: true }];
    expect(sortDocuments(docs, parseSort({ v: 1 })!)).toEqual([
      { w: 1 },
      { v: [1] },
      { v: [3, 9] },
      { v: 5 },
      { v: 5, tie: true },
    ]);
    expect(sortDocuments(docs, parseSort({ v: -1 })!)).toEqual([
      { v: [3, 9] },
      { v: 5 },
      { v: 5, tie: true },
      { v: [1] },
      { w: 1 },
    ]);
  });
});

describe('indexes and the planner over a collection', () => {
  const coll = new Collection('db', 'items');
  coll.addIndex({ v: 2, key: { cat: 1, price: -1 }, name: 'cat_1_price_-1' });
  for (let i = 0; i < 50; i++)
    coll.put(valueKey(i), { _id: i, cat: `c${i % 5}`, price: i % 7, tags: [`t${i % 3}`] });

  it('keeps one entry per array element and marks the index multikey', () => {
    const index = new OrderedIndex({ v: 2, key: { tags: 1 }, name: 'tags_1' });
    index.add(0, { tags: ['a', 'b'] });
    index.add(1, { tags: 'a' });
    expect(index.tree.size).toBe(3);
    expect(index.multikey).toBe(true);
  });

  it("replaces a changed document's entries, and leaves the tree alone when no indexed field changed", () => {
    const index = new OrderedIndex({ v: 2, key: { 'items.p': 1, n: 1 }, name: 'items.p_1_n_1' });
    const before = { items: [{ p: 1 }, { p: 2 }], n: 1, stock: 5 };
    index.add(7, before);
    const tree = [...index.tree.keys()];
    // an unindexed field: the same entries (the tree is not touched)
    index.replace(7, before, { ...before, stock: 4 });
    expect([...index.tree.keys()]).toEqual(tree);
    // a nested array element, a number's type (1 and 1.0 are stored apart), a field that appears
    const changes = [
      { ...before, items: [{ p: 1 }, { p: 3 }] },
      { ...before, n: new Double(1) },
      { items: before.items, stock: 5 },
    ];
    let current: Record<string, unknown> = before;
    for (const next of changes) {
      index.replace(7, current, next);
      const fresh = new OrderedIndex(index.spec);
      fresh.add(7, next);
      expect([...index.tree.keys()]).toEqual([...fresh.tree.keys()]);
      current = next;
    }
    // a partial index re-reads its filter's fields
    const partial = new OrderedIndex({
      v: 2,
      key: { n: 1 },
      name: 'n_1_partial',
      partialFilterExpression: { active: true },
    });
    partial.add(1, { n: 1, active: true });
    partial.replace(1, { n: 1, active: true }, { n: 1, active: false });
    expect(partial.tree.size).toBe(0);
  });

  it('finds an entry by rank and the rank of a key, as a walk of the tree counts them', () => {
    const index = new OrderedIndex({ v: 2, key: { g: 1, n: -1 }, name: 'g_1_n_-1' });
    for (let i = 0; i < 3000; i++) index.add(i, { g: i % 7, n: (i * 31) % 101 });
    for (let i = 0; i < 1500; i += 3) index.remove(i, { g: i % 7, n: (i * 31) % 101 });
    const all = [...index.tree.keys()];
    for (const i of [0, 1, 31, 32, 33, 500, 999, all.length - 1]) {
      expect(index.at(i)).toEqual(all[i]);
      expect(index.rank(all[i])).toBe(i);
    }
    expect(index.at(all.length)).toBeUndefined();
    // a key between entries: the number of entries before it
    expect(index.rank([3, 50, Infinity])).toBe(
      all.filter((e) => index.compare(e, [3, 50, Infinity]) < 0).length,
    );
    expect(index.rank([3, 50, -Infinity])).toBe(
      all.filter((e) => index.compare(e, [3, 50, -Infinity]) < 0).length,
    );
  });

  it('finds anchored regex prefixes and collects bounds from $and', () => {
    expect(regexPrefix('^abc', '')).toBe('abc');
    expect(regexPrefix('^ab?c', '')).toBe('a');
    expect(regexPrefix('^abc', 'i')).toBeUndefined();
    expect(regexPrefix('abc', '')).toBeUndefined();
    const preds = predicatesOf({ $and: [{ cat: 'c1' }, { price: { $gte: 2 } }] });
    expect([...preds.fields.keys()]).toEqual(['cat', 'price']);
    expect(preds.residual).toBe(false);
  });

  it('serves a sort from the index and counts from it alone', () => {
    const { docs, stats } = runFind(coll, {
      filter: { cat: 'c2' },
      sort: parseSort({ price: -1 })!,
      limit: 3,
    });
    expect(stats.plan.index?.name).toBe('cat_1_price_-1');
    expect(stats.keysExamined).toBe(3);
    // c2 is _id 2, 7, ..., 47 with price _id % 7: 27 has 6, then 12 and 47 tie on 5 (scan order)
    expect(docs.map((d) => d._id)).toEqual([27, 12, 47]);
    const count = runCount(coll, { filter: { cat: 'c2', price: { $lt: 3 } } });
    expect(count.stats.docsExamined).toBe(0);
    expect(count.n).toBe([2, 7, 12, 17, 22, 27, 32, 37, 42, 47].filter((i) => i % 7 < 3).length);
  });
});

describe('transactions', () => {
  it('a second transaction writing the same document conflicts; commit applies the first', () => {
    const storage = new Storage();
    const coll = storage.ensureCollection('db', 'stock');
    coll.put(valueKey(1), { _id: 1, n: 1 });
    const txns = new Transactions(storage);
    const session = (id: number, start: boolean) => ({
      lsid: { id },
      txnNumber: 1,
      autocommit: false,
      ...(start ? { startTransaction: true } : {}),
    });
    const a = txns.forCommand(session(1, true), 'update')!;
    const b = txns.forCommand(session(2, true), 'update')!;
    txns.stage(coll, valueKey(1), { _id: 1, n: 0 }, a);
    expect(() => txns.stage(coll, valueKey(1), { _id: 1, n: 5 }, b)).toThrow(/Write conflict/);
    txns.commit(a);
    expect(coll.docs.get(valueKey(1))).toEqual({ _id: 1, n: 0 });
    expect(txns.forCommand(session(1, false), 'commitTransaction')).toBeUndefined();
  });
});

describe('update application and validation', () => {
  it('applies operators to a copy, refuses _id changes, and seeds upserts from the filter', () => {
    const doc = { _id: 1, n: 1 };
    expect(applyUpdateTo(doc, { $inc: { n: 2 } }, { q: {} }, false)).toEqual({ _id: 1, n: 3 });
    expect(doc).toEqual({ _id: 1, n: 1 });
    expect(() => applyUpdateTo(doc, { $set: { _id: 2 } }, { q: {} }, false)).toThrow(/immutable/);
    expect(upsertSeed({ _id: 4, 'a.b': 1, c: { $gt: 1 } })).toEqual({ _id: 4, a: { b: 1 } });
  });

  it('reports $jsonSchema failures as mongod details', () => {
    expect(validate({ $jsonSchema: { required: ['a'] } }, { _id: 1, a: 1 })).toBeUndefined();
    expect(
      validate({ $jsonSchema: { properties: { a: { bsonType: 'string' } } } }, { _id: 1, a: 1 }),
    ).toMatchObject({
      operatorName: '$jsonSchema',
      schemaRulesNotSatisfied: [
        { operatorName: 'properties', propertiesNotSatisfied: [{ propertyName: 'a' }] },
      ],
    });
  });
});
