import { EJSON, type Document } from 'bson';
import { Query } from './mingo';
import BTree from 'sorted-btree';
import { bulkLoad } from 'sorted-btree/extended/bulkLoad';
import { compareValues, keysAtPath } from './bson-order';

export interface IndexSpec {
  v: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  [option: string]: unknown;
}

/** An index entry: the key values in field order, then the document's position (scan order). */
export type Entry = unknown[];

export interface IndexField {
  path: string;
  parts: string[];
  direction: 1 | -1;
}

/**
 * Whether the document has a value at the path, through arrays as a query reads it (`variants.stock`
 * is present when some element of `variants` has a `stock`): what decides whether a sparse index
 * keeps the document. A plain walk of the path stops at the array and said "missing" for every such
 * document, so a sparse index over a path through an array held no entry at all.
 */
function presentAt(value: unknown, parts: string[], i = 0): boolean {
  if (i === parts.length) return value !== undefined;
  if (Array.isArray(value)) {
    const part = parts[i];
    if (/^\d+$/.test(part) && presentAt(value[Number(part)], parts, i + 1)) return true;
    return value.some((element) => presentAt(element, parts, i));
  }
  if (value === null || typeof value !== 'object') return false;
  return presentAt((value as Document)[parts[i]], parts, i + 1);
}

/** A node of sorted-btree's tree: a leaf holds entries; an inner node its children's largest entries and their total size. */
interface TreeNode {
  keys: Entry[];
  children?: TreeNode[];
  size(): number;
}

/** Entries per B+tree node (sorted-btree's default). */
const NODE_SIZE = 32;

/** Whether an index spec is an ordered (1/-1) index the planner can walk: no text, hashed or geo keys, no collation. */
export function isOrderedSpec(spec: IndexSpec): boolean {
  const collation = spec.collation as Document | undefined;
  if (collation && collation.locale !== 'simple') return false;
  return Object.entries(spec.key).every(
    ([path, dir]) =>
      typeof dir === 'number' &&
      dir !== 0 &&
      !Number.isNaN(dir) &&
      path.split('.').every((part) => part.length > 0 && !part.startsWith('$') && !/^\d+$/.test(part)),
  );
}

/**
 * A sorted index (a B+tree) in MongoDB's BSON order with per-field direction; ties on the key are
 * ordered by document position, so a walk over equal keys returns documents in scan order. An
 * array at an indexed path makes one entry per element (multikey).
 */
export class OrderedIndex {
  readonly fields: IndexField[];
  private btree: BTree<Entry, undefined>;
  /** Entry order: the key fields in BSON order with their directions, then the position. */
  readonly compare: (a: Entry, b: Entry) => number;
  /** Field numbers where some document had an array (mongod's multikey paths; never reset). */
  readonly multikeyFields = new Set<number>();
  private readonly partial?: Query;
  /** How the last `build` got its order: from a snapshot's stored order, or by sorting. */
  builtFrom?: 'stored order' | 'sort';

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.entries(spec.key).map(([path, dir]) => ({
      path,
      parts: path.split('.'),
      direction: (Number(dir) < 0 ? -1 : 1) as 1 | -1,
    }));
    const n = this.fields.length;
    const dirs = this.fields.map((f) => f.direction);
    this.compare = (a, b) => {
      for (let i = 0; i < n; i++) {
        const c = compareValues(a[i], b[i]);
        if (c) return dirs[i] > 0 ? c : -c;
      }
      const x = a[n] as number;
      const y = b[n] as number;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    this.btree = new BTree<Entry, undefined>(undefined, this.compare, NODE_SIZE);
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression);
  }

  /** The B+tree of entries (replaced as a whole by `build`). */
  get tree(): BTree<Entry, undefined> {
    return this.btree;
  }

  get name(): string {
    return this.spec.name;
  }

  get multikey(): boolean {
    return this.multikeyFields.size > 0;
  }

  /** The keys (without position) a document contributes: one per combination of array elements. */
  keysOf(doc: Document): unknown[][] {
    if (this.spec.sparse && this.fields.every((f) => !presentAt(doc, f.parts))) return [];
    if (this.partial && !this.partial.test(doc)) return [];
    let keys: unknown[][] = [[]];
    this.fields.forEach((field, i) => {
      if (field.parts.length === 1) {
        const value = doc[field.path];
        if (!Array.isArray(value)) {
          for (const key of keys) key.push(value === undefined ? null : value);
          return;
        }
      }
      const { values, sawArray } = keysAtPath(doc, field.parts);
      if (sawArray) this.multikeyFields.add(i);
      if (values.length === 1) {
        for (const key of keys) key.push(values[0]);
        return;
      }
      const next: unknown[][] = [];
      for (const key of keys) for (const v of values) next.push([...key, v]);
      keys = next;
    });
    return keys;
  }

  add(position: number, doc: Document): void {
    for (const key of this.keysOf(doc)) {
      key.push(position);
      this.btree.set(key, undefined);
    }
  }

  /**
   * Replaces the tree with one holding the entries of `docs` (position, document), built bottom-up
   * from the sorted entries: far cheaper than inserting them one by one. `order` is the entries'
   * order as a snapshot stored it (their positions, in index order): when it fits the documents it
   * spares the sort; when it does not (another version's order, a damaged file) the entries are sorted.
   */
  build(docs: Iterable<[number, Document]>, order?: ArrayLike<number>): void {
    const byPosition: Entry[][] = [];
    let total = 0;
    this.multikeyFields.clear();
    for (const [position, doc] of docs) {
      const keys = this.keysOf(doc);
      for (const key of keys) key.push(position);
      byPosition[position] = keys.length > 1 ? this.sortedUnique(keys) : keys;
      total += byPosition[position].length;
    }
    if (order && order.length === total) {
      try {
        this.btree = this.load(this.inOrder(byPosition, order));
        this.builtFrom = 'stored order';
        return;
      } catch {
        // the stored order does not fit: sort below
      }
    }
    const entries: Entry[] = [];
    for (const keys of byPosition) if (keys) for (const key of keys) entries.push(key);
    this.btree = this.load(this.sortedUnique(entries));
    this.builtFrom = 'sort';
  }

  /** The entries in a stored order; throws when the order names entries the documents do not have. */
  private inOrder(byPosition: Entry[][], order: ArrayLike<number>): Entry[] {
    const taken = new Map<number, number>();
    const entries = new Array<Entry>(order.length);
    for (let i = 0; i < order.length; i++) {
      const position = order[i];
      const keys = byPosition[position];
      // a document's own entries come in key order, so its n-th appearance is its n-th smallest key
      const n = keys && keys.length > 1 ? (taken.get(position) ?? 0) : 0;
      if (!keys || n >= keys.length) throw new Error('stored order does not fit');
      if (keys.length > 1) taken.set(position, n + 1);
      entries[i] = keys[n];
    }
    return entries;
  }

  /** Sorts entries in index order and drops repeats (an array holding a value twice gives it twice). */
  private sortedUnique(entries: Entry[]): Entry[] {
    entries.sort(this.compare);
    let unique = 0;
    for (let i = 0; i < entries.length; i++) {
      if (unique === 0 || this.compare(entries[unique - 1], entries[i]) !== 0) entries[unique++] = entries[i];
    }
    entries.length = unique;
    return entries;
  }

  /** A tree of sorted entries (bulkLoad checks they are strictly ascending and throws otherwise). */
  private load(entries: Entry[]): BTree<Entry, undefined> {
    return bulkLoad(entries, new Array<undefined>(entries.length), NODE_SIZE, this.compare);
  }

  /**
   * The number of entries ordered before `key` (its rank), in O(log n): sorted-btree keeps each inner
   * node's size, which its public API does not walk by rank (test/units.spec.ts checks this against
   * a count of the entries).
   */
  rank(key: Entry): number {
    let node = (this.btree as unknown as { _root: TreeNode })._root;
    let before = 0;
    for (;;) {
      const keys = node.keys;
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.compare(keys[mid], key) < 0) lo = mid + 1;
        else hi = mid;
      }
      const children = node.children;
      if (!children) return before + lo;
      if (lo === keys.length) return before + node.size();
      for (let i = 0; i < lo; i++) before += children[i].size();
      node = children[lo];
    }
  }

  /** The entry of rank `i` (0 is the first in index order), in O(log n). */
  at(i: number): Entry | undefined {
    let node = (this.btree as unknown as { _root: TreeNode })._root;
    if (i < 0 || i >= node.size()) return undefined;
    while (node.children) {
      let k = 0;
      for (; k < node.children.length - 1; k++) {
        const size = node.children[k].size();
        if (i < size) break;
        i -= size;
      }
      node = node.children[k];
    }
    return node.keys[i];
  }

  /** The positions of the entries in index order (what a snapshot stores to spare the next start a sort). */
  positionsInOrder(): Int32Array {
    const out = new Int32Array(this.btree.size);
    let i = 0;
    for (const entry of this.btree.keys()) out[i++] = entry[entry.length - 1] as number;
    return out;
  }

  remove(position: number, doc: Document): void {
    for (const key of this.keysOf(doc)) {
      key.push(position);
      this.btree.delete(key);
    }
  }

  /**
   * A document at `position` changed from `before` to `after`: its entries are replaced, unless no
   * field the index reads changed (the usual update: a stock count, a timestamp, a cart's lines),
   * which leaves the tree alone. A partial index's membership depends on other fields: always replaced.
   */
  replace(position: number, before: Document, after: Document): void {
    if (!this.partial && this.topFields.every((field) => sameValue(before[field], after[field]))) return;
    this.remove(position, before);
    this.add(position, after);
  }

  /** The top-level fields the keys are read from (a dotted path changes only with its top field). */
  private get topFields(): string[] {
    return (this.topFieldsMemo ??= [...new Set(this.fields.map((f) => f.parts[0]))]);
  }
  private topFieldsMemo?: string[];
}

/** Whether two stored values are the same BSON value, type included (1 and 1.0 differ). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return (
    EJSON.stringify(a as Document, { relaxed: false }) === EJSON.stringify(b as Document, { relaxed: false })
  );
}
