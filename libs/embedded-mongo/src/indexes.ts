import type { Document } from 'bson';
import { Query } from 'mingo';
import BTree from 'sorted-btree';
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

function getPath(doc: Document, parts: string[]): unknown {
  let current: unknown = doc;
  for (const part of parts) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Document)[part];
  }
  return current;
}

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
  readonly tree: BTree<Entry, undefined>;
  /** Field numbers where some document had an array (mongod's multikey paths; never reset). */
  readonly multikeyFields = new Set<number>();
  private readonly partial?: Query;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.entries(spec.key).map(([path, dir]) => ({
      path,
      parts: path.split('.'),
      direction: (Number(dir) < 0 ? -1 : 1) as 1 | -1,
    }));
    const n = this.fields.length;
    const dirs = this.fields.map((f) => f.direction);
    this.tree = new BTree<Entry, undefined>(undefined, (a, b) => {
      for (let i = 0; i < n; i++) {
        const c = compareValues(a[i], b[i]);
        if (c) return dirs[i] > 0 ? c : -c;
      }
      const x = a[n] as number;
      const y = b[n] as number;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression);
  }

  get name(): string {
    return this.spec.name;
  }

  get multikey(): boolean {
    return this.multikeyFields.size > 0;
  }

  /** The keys (without position) a document contributes: one per combination of array elements. */
  keysOf(doc: Document): unknown[][] {
    if (this.spec.sparse && this.fields.every((f) => getPath(doc, f.parts) === undefined)) return [];
    if (this.partial && !this.partial.test(doc)) return [];
    let keys: unknown[][] = [[]];
    this.fields.forEach((field, i) => {
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
      this.tree.set(key, undefined);
    }
  }

  remove(position: number, doc: Document): void {
    for (const key of this.keysOf(doc)) {
      key.push(position);
      this.tree.delete(key);
    }
  }
}
