import { EJSON, ObjectId, type Document } from 'bson';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Collection, valueKey, type IndexSpec } from '../src/collection';
import { OrderedIndex } from '../src/indexes';
import { JOURNAL_FILE, SNAPSHOT_FILE, Storage } from '../src/storage';

// The data folder driven alone: journal replay, bulk index builds, snapshots with stored index orders.

const SPECS: IndexSpec[] = [
  { v: 2, key: { cat: 1, price: -1, _id: 1 }, name: 'cat_1_price_-1__id_1' },
  { v: 2, key: { tags: 1 }, name: 'tags_1' },
  { v: 2, key: { 'meta.rank': -1 }, name: 'meta.rank_-1' },
  { v: 2, key: { sku: 1 }, name: 'sku_1', unique: true, sparse: true },
  { v: 2, key: { price: 1 }, name: 'cheap', partialFilterExpression: { price: { $lt: 20 } } },
];

/** Every index's entries with positions replaced by the document's _id: comparable across starts. */
function dump(coll: Collection): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const index of coll.ordered.values()) {
    out[index.name] = [...index.tree.keys()].map((entry) => {
      const doc = coll.atPosition(entry[entry.length - 1] as number)!;
      return EJSON.stringify([...entry.slice(0, -1).map((v) => (typeof v === 'symbol' ? '[]' : v)), doc._id]);
    });
    out[`${index.name} multikey`] = [index.multikey];
  }
  return out;
}

function randomDoc(i: number, rnd: () => number): Document {
  const doc: Document = { _id: i % 3 ? new ObjectId() : `s${i}`, cat: `c${Math.floor(rnd() * 4)}` };
  if (rnd() < 0.8) doc.price = Math.floor(rnd() * 40);
  if (rnd() < 0.5) doc.sku = `SKU-${i}`;
  const tags = Array.from({ length: Math.floor(rnd() * 4) }, () => `t${Math.floor(rnd() * 5)}`); // repeats too
  if (rnd() < 0.9) doc.tags = tags;
  if (rnd() < 0.7) doc.meta = rnd() < 0.2 ? [{ rank: 1 }, { rank: rnd() }] : { rank: Math.floor(rnd() * 10) };
  return doc;
}

describe('data folder: snapshot and journal', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-storage-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Writes through the storage as the engine does: apply in memory, journal, flush per command. */
  function write(storage: Storage, coll: Collection, doc: Document | null, id?: unknown): void {
    if (doc) {
      coll.checkUnique(doc, valueKey(doc._id));
      coll.put(valueKey(doc._id), doc);
      storage.append({ t: 'put', d: coll.db, c: coll.name, doc });
    } else {
      coll.remove(valueKey(id));
      storage.append({ t: 'del', d: coll.db, c: coll.name, id });
    }
    storage.flush();
  }

  it('builds every index at start exactly as the writes built it, from the journal and from a snapshot', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const first = new Storage(dir);
    const coll = first.ensureCollection('shop', 'items');
    for (const spec of SPECS) {
      coll.addIndex(spec);
      first.append({ t: 'index', d: 'shop', c: 'items', spec });
    }
    const docs: Document[] = [];
    for (let i = 0; i < 400; i++) {
      const doc = randomDoc(i, rnd);
      write(first, coll, doc);
      docs.push(doc);
    }
    for (let i = 0; i < 150; i++) {
      const target = docs[Math.floor(rnd() * docs.length)];
      if (!coll.docs.has(valueKey(target._id))) continue;
      if (i % 3 === 0) write(first, coll, null, target._id);
      else {
        const { sku: _sku, ...replacement } = randomDoc(1000 + i, rnd); // keeps the unique skus unique
        write(first, coll, { ...replacement, _id: target._id });
      }
    }
    const expected = dump(coll);
    first.close();
    expect(fs.existsSync(path.join(dir, SNAPSHOT_FILE))).toBe(false);

    // 1. journal only: bulk load with a sort, then compaction into a snapshot with index orders
    const second = new Storage(dir);
    expect(second.startInfo.compacted).toBe(true);
    expect(dump(second.collection('shop', 'items')!)).toEqual(expected);
    second.close();
    expect(fs.statSync(path.join(dir, JOURNAL_FILE)).size).toBe(0);

    // 2. snapshot only: the stored orders are used
    const third = new Storage(dir);
    expect(third.startInfo).toMatchObject({ compacted: false, journalBytes: 0 });
    const reloaded = third.collection('shop', 'items')!;
    expect(dump(reloaded)).toEqual(expected);
    expect([...reloaded.ordered.values()].map((i) => i.builtFrom)).toEqual(
      Array(SPECS.length + 1).fill('stored order'),
    );
    // unique maps are rebuilt too
    const withSku = [...reloaded.docs.values()].find((d) => d.sku)!;
    expect(() => reloaded.checkUnique({ _id: 'other', sku: withSku.sku }, valueKey('other'))).toThrow(
      /E11000/,
    );

    // 3. a short journal after the snapshot replays on top of the built indexes
    write(third, reloaded, { _id: 'late', cat: 'c9', price: 1, tags: ['t1', 't1'], meta: { rank: 99 } });
    write(third, reloaded, null, withSku._id);
    const after = dump(reloaded);
    third.close();
    const fourth = new Storage(dir);
    expect(fourth.startInfo).toMatchObject({ compacted: false });
    expect(fourth.startInfo.journalBytes).toBeGreaterThan(0);
    expect(dump(fourth.collection('shop', 'items')!)).toEqual(after);
    fourth.close();
  });

  it('does not trust a stored order that does not fit the documents', () => {
    const docs: Array<[number, Document]> = [
      [0, { a: 3 }],
      [1, { a: [1, 5] }],
      [2, { a: 2 }],
    ];
    const sorted = new OrderedIndex({ v: 2, key: { a: 1 }, name: 'a_1' });
    sorted.build(docs);
    expect([...sorted.tree.keys()]).toEqual([
      [1, 1],
      [2, 2],
      [3, 0],
      [5, 1],
    ]);
    const stored = new OrderedIndex({ v: 2, key: { a: 1 }, name: 'a_1' });
    stored.build(docs, [0, 1, 2, 1]); // same length, wrong order
    expect(stored.builtFrom).toBe('sort');
    expect([...stored.tree.keys()]).toEqual([...sorted.tree.keys()]);
    stored.build(docs, [1, 2, 0, 1]); // the right order
    expect(stored.builtFrom).toBe('stored order');
    expect([...stored.tree.keys()]).toEqual([...sorted.tree.keys()]);
    expect(stored.multikey).toBe(true);
  });

  it('drops a torn last journal record before appending after it', () => {
    const first = new Storage(dir);
    const coll = first.ensureCollection('d', 'c');
    for (let i = 0; i < 50; i++) write(first, coll, { _id: i });
    first.compact();
    write(first, coll, { _id: 'after snapshot' });
    first.close();
    fs.appendFileSync(path.join(dir, JOURNAL_FILE), Buffer.from([0x40, 0, 0, 0, 3, 1, 2])); // half a record

    const second = new Storage(dir); // short journal: kept, torn bytes cut off
    expect(second.startInfo.compacted).toBe(false);
    write(second, second.collection('d', 'c')!, { _id: 'after restart' });
    second.close();
    const third = new Storage(dir);
    expect([...third.collection('d', 'c')!.docs.values()].slice(-2)).toEqual([
      { _id: 'after snapshot' },
      { _id: 'after restart' },
    ]);
    third.close();
  });

  it('spells the common _id keys exactly as EJSON does', () => {
    for (const v of ['abc', 'a"b\\c\u00e9\u{1F600}', new ObjectId(), 1, 1.5, null, { a: 1 }])
      expect(valueKey(v)).toBe(EJSON.stringify({ v }, { relaxed: false }));
  });
});
