import type { Document } from 'bson';
import { Bound, RANK, compareValues, typeRank } from '../bson-order';

/**
 * Index bounds from a filter: the conditions on each field that an index can be bounded by (equality,
 * `$eq`, `$in`, `$gt`/`$gte`/`$lt`/`$lte`, an anchored regex's literal prefix), collected from the top
 * level and top-level `$and` clauses, and their intersection into one interval per index field.
 */

export interface Range {
  lo: unknown;
  loIncl: boolean;
  hi: unknown;
  hiIncl: boolean;
}

export type Condition = { points: unknown[] } | { range: Range };

interface FieldConditions {
  conds: Condition[];
  /** Every condition on the field became a bound (none left for the residual filter). */
  exact: boolean;
}

export interface Predicates {
  fields: Map<string, FieldConditions>;
  /** Something in the filter is not a bound on a field ($or, $expr, a regex, ...). */
  residual: boolean;
}

/** Values an index bound can be built from: numbers (not NaN), strings, booleans, dates, ObjectIds. */
function boundable(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
    case 'object':
      if (v instanceof Date) return !Number.isNaN(v.getTime());
      return !!v && (v as { _bsontype?: string })._bsontype === 'ObjectId';
    default:
      return false;
  }
}

function isOperatorObject(v: unknown): v is Document {
  if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Date || v instanceof RegExp)
    return false;
  if ((v as { _bsontype?: string })._bsontype) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** The literal prefix of an anchored regex (`^abc`), when it has one and no flag changes its meaning. */
export function regexPrefix(source: string, flags: string): string | undefined {
  if (/[imx]/.test(flags) || !source.startsWith('^') || source.startsWith('^^')) return undefined;
  let prefix = '';
  for (let i = 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) break;
      prefix += next;
      i++;
      continue;
    }
    if ('.*+?()[]{}|^$'.includes(c)) {
      if ('?*{'.includes(c)) prefix = prefix.slice(0, -1); // the last character may be absent
      break;
    }
    prefix += c;
  }
  return prefix.length ? prefix : undefined;
}

function prefixRange(prefix: string): Range {
  const last = prefix.charCodeAt(prefix.length - 1);
  const hi = last < 0xd7ff ? prefix.slice(0, -1) + String.fromCharCode(last + 1) : new Bound(typeRank(''), 1);
  return { lo: prefix, loIncl: true, hi, hiIncl: false };
}

function rangeOf(op: string, v: unknown): Range {
  const rank = typeRank(v);
  // Numbers below a bound start at -Infinity, as mongod's bounds [-inf, v) do: NaN sorts below every
  // number in an index but is in no range, so a count answered from the index must not include it.
  const below = rank === RANK.number ? -Infinity : new Bound(rank, -1);
  switch (op) {
    case '$gt':
      return { lo: v, loIncl: false, hi: new Bound(rank, 1), hiIncl: true };
    case '$gte':
      return { lo: v, loIncl: true, hi: new Bound(rank, 1), hiIncl: true };
    case '$lt':
      return { lo: below, loIncl: true, hi: v, hiIncl: false };
    default:
      return { lo: below, loIncl: true, hi: v, hiIncl: true };
  }
}

/** Collects field conditions from the top level of a filter and its top-level `$and` clauses. */
export function predicatesOf(filter: Document | undefined): Predicates {
  const out: Predicates = { fields: new Map(), residual: false };
  const entry = (field: string) => {
    let f = out.fields.get(field);
    if (!f) out.fields.set(field, (f = { conds: [], exact: true }));
    return f;
  };
  const visit = (f: Document) => {
    for (const [key, condition] of Object.entries(f)) {
      if (key === '$and' && Array.isArray(condition)) {
        for (const clause of condition) {
          if (clause && typeof clause === 'object' && !Array.isArray(clause)) visit(clause as Document);
          else out.residual = true;
        }
        continue;
      }
      if (key.startsWith('$') || key.split('.').some((p) => /^\d+$/.test(p) || p === '')) {
        out.residual = true;
        if (!key.startsWith('$')) entry(key).exact = false;
        continue;
      }
      const field = entry(key);
      if (boundable(condition)) {
        field.conds.push({ points: [condition] });
        continue;
      }
      if (condition instanceof RegExp) {
        const prefix = regexPrefix(condition.source, condition.flags);
        if (prefix) field.conds.push({ range: prefixRange(prefix) });
        field.exact = false;
        continue;
      }
      if (!isOperatorObject(condition)) {
        field.exact = false;
        continue;
      }
      for (const [op, v] of Object.entries(condition)) {
        if (op === '$eq' && boundable(v)) field.conds.push({ points: [v] });
        else if (op === '$in' && Array.isArray(v) && v.length > 0 && v.every(boundable))
          field.conds.push({ points: [...v] });
        else if (['$gt', '$gte', '$lt', '$lte'].includes(op) && boundable(v))
          field.conds.push({ range: rangeOf(op, v) });
        else if (op === '$regex' && typeof v === 'string') {
          const flags = typeof condition.$options === 'string' ? condition.$options : '';
          const prefix = regexPrefix(v, flags);
          if (prefix) field.conds.push({ range: prefixRange(prefix) });
          field.exact = false;
        } else if (op === '$regex' && v instanceof RegExp) {
          const prefix = regexPrefix(v.source, v.flags + String(condition.$options ?? ''));
          if (prefix) field.conds.push({ range: prefixRange(prefix) });
          field.exact = false;
        } else field.exact = false;
      }
    }
  };
  if (filter && typeof filter === 'object') visit(filter);
  return out;
}

// ------------------------------------------------------------------ intervals

/** One index field's bounds: a sorted list of points, a range, or none (the whole field). */
export type Interval = { points: unknown[] } | { range: Range } | undefined;

export function inRange(v: unknown, r: Range): boolean {
  const lo = compareValues(v, r.lo);
  if (lo < 0 || (lo === 0 && !r.loIncl)) return false;
  const hi = compareValues(v, r.hi);
  return hi < 0 || (hi === 0 && r.hiIncl);
}

export function sortedUnique(values: unknown[]): unknown[] {
  const sorted = [...values].sort((a, b) => compareValues(a, b));
  return sorted.filter((v, i) => i === 0 || compareValues(sorted[i - 1], v) !== 0);
}

/** Intersects the conditions of one field (only valid when the field never holds an array). */
export function intersect(conds: Condition[]): Interval {
  let points: unknown[] | undefined;
  let range: Range | undefined;
  for (const c of conds) {
    if ('points' in c) {
      const ps = sortedUnique(c.points);
      points = points ? ps.filter((p) => points!.some((q) => compareValues(p, q) === 0)) : ps;
    } else if (!range) range = { ...c.range };
    else {
      const lo = compareValues(c.range.lo, range.lo);
      if (lo > 0 || (lo === 0 && !c.range.loIncl)) {
        range.lo = c.range.lo;
        range.loIncl = c.range.loIncl;
      }
      const hi = compareValues(c.range.hi, range.hi);
      if (hi < 0 || (hi === 0 && !c.range.hiIncl)) {
        range.hi = c.range.hi;
        range.hiIncl = c.range.hiIncl;
      }
    }
  }
  if (points) return { points: range ? points.filter((p) => inRange(p, range!)) : points };
  return range ? { range } : undefined;
}
