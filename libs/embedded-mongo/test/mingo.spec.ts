import { ObjectId, type Document } from 'bson';
import { Query as MingoQuery, update as mingoUpdateTyped } from 'mingo';
import { Query, update } from '../src/mingo';

/** mingo's own update, typed loosely (its generic types recurse on ObjectId). */
const mingoUpdate = mingoUpdateTyped as unknown as (
  doc: Document,
  modifier: Document,
  arrayFilters: Document[] | undefined,
  condition: Document | undefined,
  options: { cloneMode: 'none' },
) => string[];

// The engine's mingo (shared operator tables, src/mingo.ts) must answer exactly as mingo's own entry
// point does: the same matches and the same documents after an update, with the same modified paths.

const product = () => ({
  _id: new ObjectId('650000000000000000000001'),
  name: 'Shea Butter',
  stock: 5,
  tags: ['dry', 'face'],
  items: [
    { product: 1, quantity: 2, notes: [{ k: 'a', v: 1 }] },
    { product: 2, quantity: 7, notes: [{ k: 'b', v: 2 }] },
  ],
  createdAt: new Date('2026-01-01T00:00:00Z'),
});

const filters: Document[] = [
  {},
  { stock: { $gte: 5 } },
  { stock: { $gt: 5 } },
  { name: /^shea/i },
  { tags: { $all: ['face', 'dry'] } },
  { items: { $elemMatch: { product: 2, quantity: { $lte: 7 } } } },
  { 'items.quantity': { $in: [3, 7] } },
  { $or: [{ stock: 0 }, { 'tags.1': 'face' }] },
  { $expr: { $gt: ['$stock', { $size: '$items' }] } },
  { $expr: { $eq: [{ $toUpper: '$name' }, 'SHEA BUTTER'] } },
  { createdAt: { $lt: new Date('2026-06-01') } },
  { missing: { $exists: false }, stock: { $type: 'number' } },
  { $nor: [{ stock: { $mod: [2, 0] } }] },
];

describe('engine mingo: Query', () => {
  it("uses the shared operator tables (mingo's internals were found)", () => {
    // a mingo upgrade that moves them falls back to mingo's own Query: same answers, slower
    expect(Query).not.toBe(MingoQuery);
  });

  it.each(filters.map((f) => [JSON.stringify(f), f]))('matches as mingo does: %s', (_, filter) => {
    const doc = product();
    const expected = new MingoQuery(filter as Document).test(doc);
    expect(new Query(filter as Document).test(doc)).toBe(expected);
  });

  it('passes let variables to $expr', () => {
    const filter = { $expr: { $eq: ['$stock', '$$wanted'] } };
    expect(new Query(filter, { variables: { wanted: 5 } }).test(product())).toBe(true);
    expect(new Query(filter, { variables: { wanted: 4 } }).test(product())).toBe(false);
  });

  it('projects as mingo does', () => {
    const projection = { name: 1, 'items.quantity': 1, _id: 0 };
    expect(new Query({}).find([product()], projection).all()).toEqual(
      new MingoQuery({}).find([product()], projection).all(),
    );
  });
});

const updates: [string, Document, Document | undefined, Document[] | undefined][] = [
  [
    '$inc and $set',
    { $inc: { stock: -2 }, $set: { updatedAt: new Date(0) } },
    { stock: { $gte: 2 } },
    undefined,
  ],
  [
    'positional $inc',
    { $inc: { 'items.$.quantity': 3 } },
    { items: { $elemMatch: { product: 2 } } },
    undefined,
  ],
  ['positional by dotted filter', { $set: { 'items.$.quantity': 1 } }, { 'items.product': 1 }, undefined],
  ['all positional', { $inc: { 'items.$[].quantity': 1 } }, {}, undefined],
  ['filtered positional', { $set: { 'items.$[line].quantity': 0 } }, {}, [{ 'line.quantity': { $gt: 5 } }]],
  ['nested filtered positional', { $inc: { 'items.$[].notes.$[n].v': 10 } }, {}, [{ 'n.k': 'b' }]],
  [
    '$push with $each, $sort and $slice',
    { $push: { tags: { $each: ['b', 'z'], $sort: 1, $slice: 3 } } },
    {},
    undefined,
  ],
  ['$pull by condition', { $pull: { items: { quantity: { $gt: 5 } } } }, {}, undefined],
  ['$addToSet and $pop', { $addToSet: { tags: 'dry' }, $pop: { items: -1 } }, {}, undefined],
  ['$unset and $rename', { $unset: { createdAt: '' }, $rename: { name: 'title' } }, {}, undefined],
  [
    '$min, $max and $mul',
    { $min: { stock: 3 }, $max: { 'extra.level': 2 }, $mul: { 'items.0.quantity': 2 } },
    {},
    undefined,
  ],
  ['a condition the document fails', { $set: { stock: 0 } }, { stock: { $gt: 100 } }, undefined],
  ['a condition with $expr', { $inc: { stock: 1 } }, { $expr: { $lt: ['$stock', 10] } }, undefined],
];

describe('engine mingo: update', () => {
  it.each(updates)('updates as mingo does: %s', (_, modifier, condition, arrayFilters) => {
    const ours = product();
    const theirs = product();
    const fields = update(ours, modifier, arrayFilters, condition, { cloneMode: 'none' });
    const expected = mingoUpdate(theirs, modifier, arrayFilters, condition, { cloneMode: 'none' });
    expect(ours).toEqual(theirs);
    expect(fields).toEqual(expected);
  });

  it('refuses what mingo refuses (a conflict of paths)', () => {
    const modifier = { $set: { 'items.0': 1, 'items.0.quantity': 2 } };
    expect(() => mingoUpdate(product(), modifier, undefined, {}, { cloneMode: 'none' })).toThrow();
    expect(() => update(product(), modifier, undefined, {}, { cloneMode: 'none' })).toThrow();
  });
});
