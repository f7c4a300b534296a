import type { Document } from 'bson';

/**
 * MongoDB's BSON comparison order, as mongod sorts and indexes values:
 * MinKey < (empty array in a sort) < null/missing < numbers < strings < objects < arrays < binData <
 * ObjectId < bool < date < timestamp < regex < MaxKey. Numbers compare numerically across
 * int/long/double/decimal; strings by their UTF-8 bytes (the `simple` collation).
 */

/** A sentinel before (side -1) or after (side 1) every value of a type rank; ranks ±Infinity are MinKey/MaxKey. */
export class Bound {
  constructor(
    readonly rank: number,
    readonly side: -1 | 1,
  ) {}
}

export const MIN = new Bound(-Infinity, -1);
export const MAX = new Bound(Infinity, 1);

/** The sort key of an empty array: below null (MongoDB 3.6+). */
export const EMPTY_ARRAY = Symbol('empty array');

export const RANK = {
  minKey: -1,
  empty: 0,
  null: 5,
  number: 10,
  string: 15,
  object: 20,
  array: 25,
  binData: 30,
  objectId: 35,
  bool: 40,
  date: 45,
  timestamp: 47,
  regex: 50,
  code: 60,
  maxKey: 100,
} as const;

type Tagged = { _bsontype?: string };

export function typeRank(v: unknown): number {
  switch (typeof v) {
    case 'undefined':
      return RANK.null;
    case 'number':
    case 'bigint':
      return RANK.number;
    case 'string':
      return RANK.string;
    case 'boolean':
      return RANK.bool;
    case 'symbol':
      return RANK.empty;
    case 'function':
      return RANK.code;
    case 'object': {
      if (v === null) return RANK.null;
      if (v instanceof Bound) return v.rank;
      if (Array.isArray(v)) return RANK.array;
      if (v instanceof Date) return RANK.date;
      if (v instanceof RegExp) return RANK.regex;
      if (v instanceof Uint8Array) return RANK.binData;
      switch ((v as Tagged)._bsontype) {
        case 'ObjectId':
        case 'ObjectID':
          return RANK.objectId;
        case 'Long':
        case 'Int32':
        case 'Double':
        case 'Decimal128':
          return RANK.number;
        case 'Binary':
          return RANK.binData;
        case 'Timestamp':
          return RANK.timestamp;
        case 'BSONRegExp':
          return RANK.regex;
        case 'MinKey':
          return RANK.minKey;
        case 'MaxKey':
          return RANK.maxKey;
        case 'Code':
          return RANK.code;
        case 'BSONSymbol':
          return RANK.string;
        default:
          return RANK.object;
      }
    }
  }
  return RANK.object;
}

export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const t = (v as Tagged)._bsontype;
  if (t === 'Long') return (v as { toNumber(): number }).toNumber();
  if (t === 'Decimal128') return Number((v as { toString(): string }).toString());
  return Number((v as { valueOf(): unknown }).valueOf());
}

/** String order by UTF-8 bytes, which is code point order (UTF-16 code units differ above U+E000). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1; // a surrogate pair is a code point above every BMP character
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  // NaN sorts below every other number
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  return an && bn ? 0 : an ? -1 : 1;
}

function bytesOf(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  return (v as { buffer: Uint8Array }).buffer;
}

export type StringCompare = (a: string, b: string) => number;

/** Compares two BSON values in MongoDB's order (optionally with a collation's string comparison). */
export function compareValues(a: unknown, b: unknown, strings: StringCompare = compareStrings): number {
  // fast paths for the common keys
  const ta = typeof a;
  if (ta === typeof b) {
    if (ta === 'number') return compareNumbers(a as number, b as number);
    if (ta === 'string') return strings(a as string, b as string);
    if (ta === 'boolean') return a === b ? 0 : a ? 1 : -1;
  }
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (a instanceof Bound || b instanceof Bound) {
    if (ra !== rb) return ra < rb ? -1 : 1;
    const sa = a instanceof Bound ? a.side : 0;
    const sb = b instanceof Bound ? b.side : 0;
    return sa === sb ? 0 : sa < sb ? -1 : 1;
  }
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case RANK.null:
    case RANK.minKey:
    case RANK.maxKey:
    case RANK.empty:
      return 0;
    case RANK.number:
      return typeof a === 'number' && typeof b === 'number'
        ? compareNumbers(a, b)
        : compareNumbers(toNumber(a), toNumber(b));
    case RANK.string:
      return strings(String(a), String(b));
    case RANK.bool:
      return a === b ? 0 : a ? 1 : -1;
    case RANK.date: {
      const x = (a as Date).getTime();
      const y = (b as Date).getTime();
      return x === y ? 0 : x < y ? -1 : 1;
    }
    case RANK.objectId: {
      const x = (a as { id: Uint8Array }).id;
      const y = (b as { id: Uint8Array }).id;
      for (let i = 0; i < 12; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
      return 0;
    }
    case RANK.timestamp: {
      const x = a as { high: number; low: number };
      const y = b as { high: number; low: number };
      const xh = x.high >>> 0;
      const yh = y.high >>> 0;
      if (xh !== yh) return xh < yh ? -1 : 1;
      const xl = x.low >>> 0;
      const yl = y.low >>> 0;
      return xl === yl ? 0 : xl < yl ? -1 : 1;
    }
    case RANK.binData: {
      const x = bytesOf(a);
      const y = bytesOf(b);
      if (x.length !== y.length) return x.length < y.length ? -1 : 1;
      const xs = (a as { sub_type?: number }).sub_type ?? 0;
      const ys = (b as { sub_type?: number }).sub_type ?? 0;
      if (xs !== ys) return xs < ys ? -1 : 1;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
      return 0;
    }
    case RANK.regex: {
      const x = a as { source?: string; pattern?: string; flags?: string; options?: string };
      const y = b as typeof x;
      const c = compareStrings(x.source ?? x.pattern ?? '', y.source ?? y.pattern ?? '');
      return c || compareStrings(x.flags ?? x.options ?? '', y.flags ?? y.options ?? '');
    }
    case RANK.array: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(x[i], y[i], strings);
        if (c) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case RANK.code:
      return compareStrings(String((a as { code?: string }).code), String((b as { code?: string }).code));
    default: {
      // documents: element by element, type rank first, then field name, then value
      const x = Object.entries(a as Document).filter(([, v]) => v !== undefined);
      const y = Object.entries(b as Document).filter(([, v]) => v !== undefined);
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const tx = typeRank(x[i][1]);
        const ty = typeRank(y[i][1]);
        if (tx !== ty) return tx < ty ? -1 : 1;
        const k = compareStrings(x[i][0], y[i][0]);
        if (k) return k;
        const c = compareValues(x[i][1], y[i][1], strings);
        if (c) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
  }
}

function isPlainObject(v: unknown): v is Document {
  return (
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    !(v instanceof Date) &&
    !(v instanceof RegExp) &&
    !(v instanceof Uint8Array) &&
    (v as Tagged)._bsontype === undefined
  );
}

/**
 * Every value a dotted path reaches in a document, as mongod generates index and sort keys: arrays
 * met on the way are traversed (one level each), an array at the end contributes its elements (an
 * empty one contributes EMPTY_ARRAY), and a missing value is null. `sawArray` reports whether an
 * array was met (the key is multikey).
 */
export function keysAtPath(
  doc: unknown,
  parts: string[],
  out: unknown[] = [],
): { values: unknown[]; sawArray: boolean } {
  let sawArray = false;
  const visit = (value: unknown, i: number, inArray: boolean): void => {
    if (i === parts.length) {
      if (Array.isArray(value)) {
        sawArray = true;
        if (value.length === 0) out.push(EMPTY_ARRAY);
        else for (const element of value) out.push(element === undefined ? null : element);
      } else out.push(value === undefined ? null : value);
      return;
    }
    if (Array.isArray(value)) {
      sawArray = true;
      const part = parts[i];
      if (/^\d+$/.test(part) && Number(part) < value.length && !inArray) {
        visit(value[Number(part)], i + 1, false);
        return;
      }
      if (value.length === 0) {
        out.push(null);
        return;
      }
      let found = false;
      for (const element of value) {
        if (isPlainObject(element)) {
          found = true;
          visit(element[part], i + 1, true);
        }
      }
      if (!found) out.push(null);
      return;
    }
    if (isPlainObject(value)) {
      visit(value[parts[i]], i + 1, inArray);
      return;
    }
    out.push(null);
  };
  visit(doc, 0, false);
  return { values: out, sawArray };
}

/** The sort key of one field: the smallest value for an ascending sort, the largest for a descending one. */
export function sortKeyOf(
  doc: Document,
  parts: string[],
  direction: number,
  strings?: StringCompare,
): unknown {
  if (parts.length === 1) {
    const v = doc[parts[0]];
    if (!Array.isArray(v)) return v === undefined ? null : v;
  }
  const { values } = keysAtPath(doc, parts);
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    const c = compareValues(values[i], best, strings);
    if (direction > 0 ? c < 0 : c > 0) best = values[i];
  }
  return best;
}

export interface SortField {
  path: string;
  parts: string[];
  direction: 1 | -1;
}

/** The fields of a sort document, or undefined when it has something other than 1/-1 ($meta, $natural). */
export function parseSort(sort: unknown): SortField[] | undefined {
  if (!sort || typeof sort !== 'object') return [];
  const out: SortField[] = [];
  for (const [path, dir] of Object.entries(sort as Document)) {
    const d = Number(dir);
    if (path === '$natural' || (d !== 1 && d !== -1)) return undefined;
    out.push({ path, parts: path.split('.'), direction: d as 1 | -1 });
  }
  return out;
}

/** Sorts documents in MongoDB order; ties keep the input order (stable), as the scan path does. */
export function sortDocuments(docs: Document[], fields: SortField[], strings?: StringCompare): Document[] {
  if (fields.length === 0) return docs;
  const keyed = docs.map((doc, i) => ({
    doc,
    i,
    keys: fields.map((f) => sortKeyOf(doc, f.parts, f.direction, strings)),
  }));
  keyed.sort((x, y) => {
    for (let k = 0; k < fields.length; k++) {
      const c = compareValues(x.keys[k], y.keys[k], strings) * fields[k].direction;
      if (c) return c;
    }
    return x.i - y.i;
  });
  return keyed.map((k) => k.doc);
}
