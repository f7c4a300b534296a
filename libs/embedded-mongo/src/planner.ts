import { EJSON, type Document } from 'bson';
import { Query } from './mingo';
import {
  Bound,
  MAX,
  MIN,
  RANK,
  compareValues,
  keysAtPath,
  sortDocuments,
  typeRank,
  type SortField,
  type StringCompare,
} from './bson-order';
import type { Entry, OrderedIndex } from './indexes';
import { collateFilter, collator } from './collation';
import { valueKey, type Collection } from './collection';

const idKeyOf = (doc: Document) => valueKey(doc._id);

/**
 * Query planning over the ordered indexes: bounds from the filter (equality prefix, then a range on
 * the next field), a sort served by walking an index forward or backward, `$in` points merged in
 * order, counts from the index alone when the bounds are the whole filter, and a collection scan
 * when no index fits. Every plan returns exactly what the scan returns, order included: ties on the
 * sort key are always in scan (insertion) order.
 */

// ------------------------------------------------------------------ predicates

interface Range {
  lo: unknown;
  loIncl: boolean;
  hi: unknown;
  hiIncl: boolean;
}

type Condition = { points: unknown[] } | { range: Range };

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

// ------------------------------------------------------------------ simple filters without mingo

/**
 * A matcher for a filter made only of bounds (equality, `$eq`, `$in`, `$gt`/`$gte`/`$lt`/`$lte` on
 * numbers, strings, booleans, dates and ObjectIds, at the top level or in `$and`), as mongod matches
 * them: a field matches a condition when one of its values does (an array's elements count one by
 * one; a missing field is null, which no bound matches), each condition on its own. Undefined for any
 * other filter (mingo then matches). test/planner.spec.ts checks it against mingo on random filters.
 */
export function boundsMatcher(preds: Predicates): ((doc: Document) => boolean) | undefined {
  if (preds.residual) return undefined;
  const checks: Array<{ parts: string[]; conds: Condition[] }> = [];
  for (const [path, fc] of preds.fields) {
    if (!fc.exact || fc.conds.length === 0) return undefined;
    checks.push({ parts: path.split('.'), conds: fc.conds });
  }
  const holds = (cond: Condition, v: unknown): boolean => {
    if ('points' in cond) {
      for (const p of cond.points) if (compareValues(v, p) === 0) return true;
      return false;
    }
    if (typeof v === 'number' && Number.isNaN(v)) return false; // NaN is in no range
    return inRange(v, cond.range);
  };
  return (doc) => {
    for (const { parts, conds } of checks) {
      let values: unknown[];
      const top = parts.length === 1 ? doc[parts[0]] : undefined;
      if (parts.length === 1 && !Array.isArray(top)) values = [top === undefined ? null : top];
      else values = keysAtPath(doc, parts).values;
      for (const cond of conds) {
        let any = false;
        for (const v of values) {
          if (holds(cond, v)) {
            any = true;
            break;
          }
        }
        if (!any) return false;
      }
    }
    return true;
  };
}

// ------------------------------------------------------------------ plans

type Interval = { points: unknown[] } | { range: Range } | undefined;

function inRange(v: unknown, r: Range): boolean {
  const lo = compareValues(v, r.lo);
  if (lo < 0 || (lo === 0 && !r.loIncl)) return false;
  const hi = compareValues(v, r.hi);
  return hi < 0 || (hi === 0 && r.hiIncl);
}

function sortedUnique(values: unknown[]): unknown[] {
  const sorted = [...values].sort((a, b) => compareValues(a, b));
  return sorted.filter((v, i) => i === 0 || compareValues(sorted[i - 1], v) !== 0);
}

/** Intersects the conditions of one field (only valid when the field never holds an array). */
function intersect(conds: Condition[]): Interval {
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

export interface Plan {
  kind: 'ixscan' | 'collscan';
  index?: OrderedIndex;
  intervals: Interval[];
  /** Number of leading fields with bounds. */
  bounded: number;
  /** +1 forward, -1 backward. */
  direction: 1 | -1;
  /** The index walk returns documents in the requested sort order. */
  providesSort: boolean;
  /** Field numbers (in the index) of the sort fields, when the sort is provided. */
  sortPositions: number[];
  /** The bounds are the whole filter: no document needs to be checked. */
  exact: boolean;
  streams: Array<{ lo: Entry; hi: Entry }>;
  cost: number;
}

const MAX_STREAMS = 2000;

function buildPlan(index: OrderedIndex, preds: Predicates, sort: SortField[] | undefined): Plan | undefined {
  const n = index.fields.length;
  const intervals: Interval[] = [];
  let bounded = 0;
  let exact = !preds.residual;
  let streamCount = 1;
  for (; bounded < n; bounded++) {
    const field = index.fields[bounded];
    const fc = preds.fields.get(field.path);
    if (!fc || fc.conds.length === 0) break;
    let interval: Interval;
    if (index.multikeyFields.has(bounded)) {
      // each condition may be met by a different array element: bound by one of them only
      const c = fc.conds.find((x) => 'points' in x) ?? fc.conds[0];
      interval = 'points' in c ? { points: sortedUnique(c.points) } : { range: c.range };
    } else interval = intersect(fc.conds);
    if (!interval) break;
    if ('points' in interval) {
      if (streamCount * Math.max(1, interval.points.length) > MAX_STREAMS) break;
      streamCount *= Math.max(1, interval.points.length);
      intervals.push(interval);
      continue;
    }
    intervals.push(interval);
    bounded++;
    break;
  }
  // exactness: every filtered field is bounded here, by all of its conditions, on a non-array field
  if (exact) {
    const boundedPaths = new Set(index.fields.slice(0, bounded).map((f) => f.path));
    for (const [path, fc] of preds.fields) {
      const at = index.fields.findIndex((f) => f.path === path);
      if (!fc.exact || !boundedPaths.has(path) || index.multikeyFields.has(at)) exact = false;
    }
  }
  // which sort this index walk provides
  let providesSort = !sort || sort.length === 0;
  let direction: 1 | -1 = 1;
  const sortPositions: number[] = [];
  if (sort && sort.length) {
    let fixed = 0;
    while (fixed < intervals.length && intervals[fixed] && 'points' in intervals[fixed]!) fixed++;
    let next = fixed;
    let dir: number | undefined;
    providesSort = true;
    for (const s of sort) {
      const at = index.fields.findIndex((f) => f.path === s.path);
      if (at < 0 || index.multikeyFields.has(at)) {
        providesSort = false;
        break;
      }
      sortPositions.push(at);
      if (at < fixed) continue; // pinned within each stream; streams are merged on the sort key
      if (at !== next) {
        providesSort = false;
        break;
      }
      const d = s.direction * index.fields[at].direction;
      if (dir === undefined) dir = d;
      else if (dir !== d) {
        providesSort = false;
        break;
      }
      next++;
    }
    direction = (dir ?? 1) as 1 | -1;
  }
  if (bounded === 0 && !(providesSort && sort && sort.length)) return undefined;
  if (bounded === 0 && (index.spec.sparse || index.spec.partialFilterExpression)) return undefined;
  if (index.spec.partialFilterExpression) return undefined;
  // streams: one per combination of the leading points
  let prefixes: unknown[][] = [[]];
  let i = 0;
  for (; i < intervals.length && intervals[i] && 'points' in intervals[i]!; i++) {
    const points = (intervals[i] as { points: unknown[] }).points;
    const next: unknown[][] = [];
    for (const p of prefixes) for (const v of points) next.push([...p, v]);
    prefixes = next;
  }
  // each stream's first and last possible entries: between them (in tree order) are exactly the
  // entries within the bounds, an exclusive end of the range included
  const streams = prefixes.map((prefix) => {
    const lo: Entry = [...prefix];
    const hi: Entry = [...prefix];
    let loAfter = false; // lo must sort after every entry equal to it so far (an exclusive lower end)
    let hiAfter = true; // hi sorts after every entry equal to it so far (an inclusive upper end)
    for (let k = prefix.length; k < n; k++) {
      const f = index.fields[k];
      const interval = intervals[k];
      if (interval && 'range' in interval) {
        const r = interval.range;
        lo.push(f.direction > 0 ? r.lo : r.hi);
        hi.push(f.direction > 0 ? r.hi : r.lo);
        loAfter = f.direction > 0 ? !r.loIncl : !r.hiIncl;
        hiAfter = f.direction > 0 ? r.hiIncl : r.loIncl;
      } else {
        // the smallest or largest value in this field's tree order
        lo.push(f.direction > 0 === !loAfter ? MIN : MAX);
        hi.push(f.direction > 0 === hiAfter ? MAX : MIN);
      }
    }
    lo.push(loAfter ? Infinity : -Infinity);
    hi.push(hiAfter ? Infinity : -Infinity);
    return { lo, hi };
  });
  return {
    kind: 'ixscan',
    index,
    intervals,
    bounded,
    direction,
    providesSort,
    sortPositions,
    exact,
    streams,
    cost: Infinity,
  };
}

function entryInBounds(plan: Plan, entry: Entry): boolean {
  for (let k = 0; k < plan.intervals.length; k++) {
    const interval = plan.intervals[k];
    if (interval && 'range' in interval && !inRange(entry[k], interval.range)) return false;
  }
  return true;
}

/** The entries of one stream, in the walk direction. */
function* walkStream(plan: Plan, stream: { lo: Entry; hi: Entry }, direction: 1 | -1): Generator<Entry> {
  const tree = plan.index!.tree;
  const cmp = (tree as unknown as { _compare: (a: Entry, b: Entry) => number })._compare;
  const reused: Array<Entry | undefined> = [];
  if (direction > 0) {
    for (const [entry] of tree.entries(stream.lo, reused)) {
      if (cmp(entry, stream.hi) > 0) return;
      if (entryInBounds(plan, entry)) yield entry;
    }
  } else {
    for (const [entry] of tree.entriesReversed(stream.hi, reused)) {
      if (cmp(entry, stream.lo) < 0) return;
      if (entryInBounds(plan, entry)) yield entry;
    }
  }
}

/** Counts the entries in bounds, stopping at `cap`. */
function countEntries(plan: Plan, cap: number): number {
  let n = 0;
  for (const stream of plan.streams) {
    for (const _ of walkStream(plan, stream, 1)) {
      void _;
      if (++n >= cap) return n;
    }
  }
  return n;
}

/** Within a stream, entries with equal sort keys come out in position (scan) order. */
function* scanOrderTies(entries: Generator<Entry>, positions: number[], n: number): Generator<Entry> {
  let run: Entry[] = [];
  const same = (a: Entry, b: Entry) => positions.every((p) => compareValues(a[p], b[p]) === 0);
  for (const entry of entries) {
    if (run.length && !same(run[0], entry)) {
      if (run.length > 1) run.sort((a, b) => (a[n] as number) - (b[n] as number));
      yield* run;
      run = [];
    }
    run.push(entry);
  }
  if (run.length > 1) run.sort((a, b) => (a[n] as number) - (b[n] as number));
  yield* run;
}

/** All streams of a sort-providing plan merged on (sort key, position). */
function* mergedInSortOrder(plan: Plan, sort: SortField[]): Generator<Entry> {
  const n = plan.index!.fields.length;
  const inOrder = walkOrderIsSortOrder(plan);
  const iterators = plan.streams.map((s) =>
    inOrder
      ? walkStream(plan, s, plan.direction)
      : scanOrderTies(walkStream(plan, s, plan.direction), plan.sortPositions, n),
  );
  if (iterators.length === 1) {
    yield* iterators[0];
    return;
  }
  const heads: Array<Entry | undefined> = iterators.map((it) => it.next().value as Entry | undefined);
  const cmp = (a: Entry, b: Entry) => {
    for (let k = 0; k < sort.length; k++) {
      const c = compareValues(a[plan.sortPositions[k]], b[plan.sortPositions[k]]) * sort[k].direction;
      if (c) return c;
    }
    return (a[n] as number) - (b[n] as number);
  };
  for (;;) {
    let best = -1;
    for (let k = 0; k < heads.length; k++) {
      const h = heads[k];
      if (h !== undefined && (best < 0 || cmp(h, heads[best]!) < 0)) best = k;
    }
    if (best < 0) return;
    yield heads[best]!;
    heads[best] = iterators[best].next().value as Entry | undefined;
  }
}

/**
 * Whether a plan's entries can be taken by rank: one stream, the bounds are the whole filter, no array
 * values, and the walk order is exactly (sort key, scan position): the sort covers every index field
 * after the equality prefix, and a backward walk (which meets ties in reverse position order) sorts
 * on `_id` too, so that it has no ties.
 */
function rankable(plan: Plan): boolean {
  if (plan.streams.length !== 1 || !plan.exact || plan.index!.multikey) return false;
  return walkOrderIsSortOrder(plan);
}

/**
 * Whether a stream's walk already meets ties on the sort key in scan (position) order: the sort covers
 * every index field after the equality prefix, and a backward walk sorts on `_id` too (no ties).
 */
function walkOrderIsSortOrder(plan: Plan): boolean {
  const index = plan.index!;
  let fixed = 0;
  while (fixed < plan.intervals.length && plan.intervals[fixed] && 'points' in plan.intervals[fixed]!)
    fixed++;
  const covered = new Set(plan.sortPositions);
  for (let k = fixed; k < index.fields.length; k++) if (!covered.has(k)) return false;
  return plan.direction > 0 || plan.sortPositions.some((k) => index.fields[k].path === '_id');
}

/** The entries in bounds, `skip` of them passed over by rank (not read), at most `limit`. */
function entriesByRank(plan: Plan, skip: number, limit: number): Entry[] {
  const index = plan.index!;
  const { lo, hi } = plan.streams[0];
  const first = index.rank(lo);
  const end = index.rank(hi);
  const take = Math.max(0, Math.min(limit, end - first - skip));
  const out: Entry[] = [];
  if (take === 0) return out;
  const start = index.at(plan.direction > 0 ? first + skip : end - 1 - skip)!;
  const walk = plan.direction > 0 ? index.tree.keys(start) : index.tree.entriesReversed(start);
  for (const item of walk) {
    out.push(plan.direction > 0 ? (item as Entry) : (item as [Entry, undefined])[0]);
    if (out.length >= take) break;
  }
  return out;
}

// ------------------------------------------------------------------ choosing and running

export interface QueryOptions {
  filter?: Document;
  sort?: SortField[];
  skip?: number;
  limit?: number;
  /** A non-simple collation: strings compare through it, and no index serves the query. */
  strings?: StringCompare;
  /** Index name or key pattern to use (`hint`). */
  hint?: unknown;
  /** The command's `let` variables, for `$$name` in `$expr`. */
  variables?: Document;
  /** The command's collation (`simple` or an ICU locale with a strength). */
  collation?: unknown;
}

/** With a non-simple collation: string comparisons of the filter and sort go through it (and no index). */
function applyCollation(opts: QueryOptions): QueryOptions {
  const strings = collator(opts.collation);
  if (!strings) return opts;
  return { ...opts, strings, filter: collateFilter(opts.filter, strings) };
}

export interface ExecStats {
  plan: Plan;
  keysExamined: number;
  docsExamined: number;
  nReturned: number;
}

/** This transaction's uncommitted writes on the collection (_id key -> document, null = deleted). */
export type Overlay = Map<string, Document | null>;

function choosePlan(coll: Collection, opts: QueryOptions, preds: Predicates): Plan {
  const scanCost = coll.docs.size * 0.6 + (opts.sort?.length ? coll.docs.size * 0.2 : 0) + 1;
  const scan: Plan = {
    kind: 'collscan',
    intervals: [],
    bounded: 0,
    direction: 1,
    providesSort: !opts.sort?.length,
    sortPositions: [],
    exact: false,
    streams: [],
    cost: scanCost,
  };
  if (opts.strings) return scan;
  // the plan cache: a query shape (fields, operators, sort, limit) reuses the index chosen before,
  // until the indexes change or the collection grows or shrinks past a power of two
  const shape = opts.hint === undefined ? shapeOf(preds, opts) : undefined;
  const cached = shape !== undefined ? coll.planCache.get(shape) : undefined;
  if (cached !== undefined) {
    if (cached === '$natural') return scan;
    const index = coll.ordered.get(cached);
    const plan = index && buildPlan(index, preds, opts.sort);
    if (plan) return plan;
  }
  const best = pickPlan(coll, opts, preds, scan);
  if (shape !== undefined)
    coll.planCache.set(shape, best.kind === 'collscan' ? '$natural' : best.index!.name);
  return best;
}

function shapeOf(preds: Predicates, opts: QueryOptions): string {
  const fields = [...preds.fields]
    .map(
      ([path, fc]) =>
        `${path}:${fc.exact ? 'x' : ''}${fc.conds.map((c) => ('points' in c ? (c.points.length > 1 ? 'in' : 'eq') : 'r')).join(',')}`,
    )
    .sort()
    .join(';');
  const sort = (opts.sort ?? []).map((f) => `${f.path}:${f.direction}`).join(',');
  return `${fields}|${preds.residual ? 'r' : ''}|${sort}|${opts.limit ? 'l' : ''}`;
}

function pickPlan(coll: Collection, opts: QueryOptions, preds: Predicates, scan: Plan): Plan {
  const needed = opts.limit !== undefined && opts.limit > 0 ? (opts.skip ?? 0) + opts.limit : undefined;
  let plans: Plan[] = [];
  for (const index of coll.ordered.values()) {
    if (opts.hint !== undefined && !hintMatches(index, opts.hint)) continue;
    const plan = buildPlan(index, preds, opts.sort);
    if (plan) plans.push(plan);
  }
  if (opts.hint !== undefined && plans.length) return plans[0];
  plans = plans.sort((a, b) => b.bounded - a.bounded || Number(b.providesSort) - Number(a.providesSort));
  let best = scan;
  for (const plan of plans) {
    const useful = plan.providesSort && needed !== undefined;
    const factor = plan.exact ? 1 : 4;
    const cap = Math.ceil(Math.min(best.cost, useful ? needed! * factor : Infinity)) + 1;
    const keys = countEntries(plan, cap);
    let cost: number;
    if (useful) cost = Math.min(keys, needed! * factor);
    else cost = keys + (opts.sort?.length && !plan.providesSort ? keys * 0.2 : 0);
    plan.cost = cost;
    if (cost < best.cost || (cost === best.cost && plan.providesSort && !best.providesSort)) best = plan;
  }
  return best;
}

function hintMatches(index: OrderedIndex, hint: unknown): boolean {
  if (typeof hint === 'string') return index.name === hint;
  if (hint && typeof hint === 'object') {
    const a = Object.entries(hint as Document);
    const b = Object.entries(index.spec.key);
    return a.length === b.length && a.every(([k, v], i) => b[i][0] === k && Number(b[i][1]) === Number(v));
  }
  return false;
}

export interface FindResult {
  docs: Document[];
  stats: ExecStats;
}

/**
 * Runs a query: the matching documents, sorted, skipped and limited, exactly as the collection scan
 * would return them. With an overlay (a transaction's own writes), the index narrows the committed
 * documents and the overlay's are added before filtering and sorting in memory.
 */
export function runFind(coll: Collection | undefined, options: QueryOptions, overlay?: Overlay): FindResult {
  const opts = applyCollation(options);
  const preds = predicatesOf(opts.filter);
  const hasFilter = !!opts.filter && Object.keys(opts.filter).length > 0;
  let query: Query | undefined;
  const stats: ExecStats = {
    plan: {
      kind: 'collscan',
      intervals: [],
      bounded: 0,
      direction: 1,
      providesSort: true,
      sortPositions: [],
      exact: false,
      streams: [],
      cost: 0,
    },
    keysExamined: 0,
    docsExamined: 0,
    nReturned: 0,
  };
  if (!coll) return { docs: [], stats };
  const plan = choosePlan(coll, opts, preds);
  stats.plan = plan;
  const skip = opts.skip ?? 0;
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  // a filter made only of bounds is matched directly; anything else through mingo
  const simple = hasFilter && !opts.strings ? boundsMatcher(preds) : undefined;
  const matches = (doc: Document) => {
    stats.docsExamined++;
    if (!hasFilter) return true;
    if (simple) return simple(doc);
    query ??= new Query(opts.filter!, opts.variables ? { variables: opts.variables } : undefined);
    return query.test(doc);
  };
  const finish = (docs: Document[]): FindResult => {
    let out = opts.sort?.length ? sortDocuments(docs, opts.sort, opts.strings) : docs;
    if (skip || limit !== Infinity) out = out.slice(skip, skip + limit);
    stats.nReturned = out.length;
    return { docs: out, stats };
  };
  const useOverlay = overlay && overlay.size > 0;
  if (plan.kind === 'collscan') {
    const out: Document[] = [];
    // without a sort, the scan stops once skip + limit documents matched
    const enough = !opts.sort?.length && !useOverlay ? skip + limit : Infinity;
    for (const [idKey, doc] of coll.docs) {
      const current = useOverlay && overlay!.has(idKey) ? overlay!.get(idKey) : doc;
      if (current && matches(current)) out.push(current);
      if (out.length >= enough) break;
    }
    if (useOverlay)
      for (const [idKey, doc] of overlay!) if (doc && !coll.docs.has(idKey) && matches(doc)) out.push(doc);
    return finish(out);
  }
  const n = plan.index!.fields.length;
  if (plan.providesSort && !useOverlay && opts.sort?.length && rankable(plan)) {
    // a page of a sorted listing: the skipped entries are passed over by rank, not read
    const out = entriesByRank(plan, skip, limit).map((entry) => coll.atPosition(entry[n] as number)!);
    stats.keysExamined = out.length;
    stats.docsExamined = out.length;
    stats.nReturned = out.length;
    return { docs: out, stats };
  }
  if (plan.providesSort && !useOverlay) {
    // the walk is in the requested order: stop after skip + limit matches
    const out: Document[] = [];
    const seen = plan.index!.multikey ? new Set<number>() : undefined;
    let skipped = 0;
    const entries = opts.sort?.length ? mergedInSortOrder(plan, opts.sort) : undefined;
    if (entries) {
      for (const entry of entries) {
        stats.keysExamined++;
        const position = entry[n] as number;
        if (seen) {
          if (seen.has(position)) continue;
          seen.add(position);
        }
        const doc = coll.atPosition(position)!;
        if (!plan.exact && !matches(doc)) continue;
        if (plan.exact) stats.docsExamined++;
        if (skipped < skip) {
          skipped++;
          continue;
        }
        out.push(doc);
        if (out.length >= limit) break;
      }
      stats.nReturned = out.length;
      return { docs: out, stats };
    }
  }
  // unsorted or sorted in memory: gather, then restore scan order and sort
  const positions = new Set<number>();
  for (const stream of plan.streams) {
    for (const entry of walkStream(plan, stream, 1)) {
      stats.keysExamined++;
      positions.add(entry[n] as number);
    }
  }
  const ordered = [...positions].sort((a, b) => a - b);
  const out: Document[] = [];
  for (const position of ordered) {
    const idKey = coll.byPosition.get(position)!;
    if (useOverlay && overlay!.has(idKey)) continue; // the transaction's version is added below
    const doc = coll.docs.get(idKey)!;
    if (plan.exact) {
      stats.docsExamined++;
      out.push(doc);
    } else if (matches(doc)) out.push(doc);
  }
  if (!useOverlay) return finish(out);
  // with the transaction's own versions: committed positions in scan order, then new documents
  const merged: Array<[number, Document]> = out.map((doc) => [coll.position(idKeyOf(doc))!, doc]);
  const fresh: Document[] = [];
  for (const [idKey, doc] of overlay!) {
    if (!doc || !matches(doc)) continue;
    const position = coll.position(idKey);
    if (position === undefined) fresh.push(doc);
    else merged.push([position, doc]);
  }
  merged.sort((a, b) => a[0] - b[0]);
  return finish([...merged.map(([, d]) => d), ...fresh]);
}

/**
 * Counts matching documents; from the index alone (no document read) when the bounds are the
 * whole filter.
 */
export function runCount(
  coll: Collection | undefined,
  opts: QueryOptions,
  overlay?: Overlay,
): { n: number; stats: ExecStats } {
  if (collator(opts.collation)) {
    const { docs, stats } = runFind(coll, { ...opts, sort: undefined }, overlay);
    return { n: docs.length, stats };
  }
  if (!coll) return runFind(coll, opts, overlay) as unknown as { n: number; stats: ExecStats };
  const preds = predicatesOf(opts.filter);
  const unfiltered = !opts.filter || Object.keys(opts.filter).length === 0;
  if (unfiltered && !overlay?.size && opts.hint === undefined) {
    let n = Math.max(0, coll.docs.size - (opts.skip ?? 0));
    if (opts.limit && opts.limit > 0) n = Math.min(n, opts.limit);
    const plan: Plan = {
      kind: 'collscan',
      intervals: [],
      bounded: 0,
      direction: 1,
      providesSort: true,
      sortPositions: [],
      exact: true,
      streams: [],
      cost: 0,
    };
    return { n, stats: { plan, keysExamined: 0, docsExamined: 0, nReturned: n } };
  }
  if (!overlay?.size && !opts.strings) {
    // an index whose bounds are the whole filter (and no array values) counts by rank, in O(log n)
    const rankCount =
      opts.hint === undefined
        ? [...coll.ordered.values()]
            .filter((index) => !index.multikey)
            .map((index) => buildPlan(index, preds, undefined))
            .find((plan) => plan?.exact)
        : undefined;
    const plan =
      rankCount ?? choosePlan(coll, { ...opts, sort: undefined, limit: undefined, skip: undefined }, preds);
    if (plan.kind === 'ixscan' && plan.exact) {
      const n = plan.index!.fields.length;
      // an index-only count is remembered until the next write to the collection
      const cacheKey = `${plan.index!.name}|${plan.streams.map((st) => `${boundsKey(st.lo)}~${boundsKey(st.hi)}`).join('|')}`;
      const cachedCount = coll.countCache.get(cacheKey);
      let counted: { count: number; keys: number } | undefined =
        cachedCount && cachedCount.version === coll.writeVersion ? cachedCount : undefined;
      if (!counted && !plan.index!.multikey) {
        // every entry in bounds is one matching document: the ranks of the bounds give the count
        let count = 0;
        for (const stream of plan.streams) count += plan.index!.rank(stream.hi) - plan.index!.rank(stream.lo);
        counted = { count, keys: count };
      }
      if (!counted) {
        let count = 0;
        let keys = 0;
        const seen = plan.index!.multikey ? new Set<number>() : undefined;
        for (const stream of plan.streams) {
          for (const entry of walkStream(plan, stream, 1)) {
            keys++;
            if (seen) {
              if (seen.has(entry[n] as number)) continue;
              seen.add(entry[n] as number);
            }
            count++;
          }
        }
        counted = { count, keys };
        if (coll.countCache.size >= 1000) coll.countCache.clear();
        coll.countCache.set(cacheKey, { ...counted, version: coll.writeVersion });
      }
      const { count, keys } = counted;
      let result = Math.max(0, count - (opts.skip ?? 0));
      if (opts.limit && opts.limit > 0) result = Math.min(result, opts.limit);
      return { n: result, stats: { plan, keysExamined: keys, docsExamined: 0, nReturned: result } };
    }
  }
  const { docs, stats } = runFind(coll, { ...opts, sort: undefined }, overlay);
  return { n: docs.length, stats };
}

/** `explain` output for a run. */
export function explainPlan(ns: string, stats: ExecStats, filter: Document | undefined): Document {
  const plan = stats.plan;
  const inputStage =
    plan.kind === 'collscan'
      ? { stage: 'COLLSCAN', filter: filter ?? {}, direction: 'forward' }
      : {
          stage: 'IXSCAN',
          keyPattern: { ...plan.index!.spec.key },
          indexName: plan.index!.name,
          isMultiKey: plan.index!.multikey,
          isUnique: !!plan.index!.spec.unique,
          isSparse: !!plan.index!.spec.sparse,
          isPartial: !!plan.index!.spec.partialFilterExpression,
          direction: plan.direction > 0 ? 'forward' : 'backward',
          indexBounds: Object.fromEntries(
            plan.index!.fields.map((f, k) => [
              f.path,
              describeInterval(plan.intervals[k], f.direction * plan.direction),
            ]),
          ),
        };
  const winningPlan =
    plan.kind === 'collscan'
      ? inputStage
      : { stage: 'FETCH', ...(plan.exact ? {} : { filter: filter ?? {} }), inputStage };
  return {
    queryPlanner: {
      namespace: ns,
      indexFilterSet: false,
      parsedQuery: filter ?? {},
      winningPlan,
      rejectedPlans: [],
    },
    executionStats: {
      executionSuccess: true,
      nReturned: stats.nReturned,
      executionTimeMillis: 0,
      totalKeysExamined: stats.keysExamined,
      totalDocsExamined: stats.docsExamined,
      executionStages: { ...winningPlan, nReturned: stats.nReturned },
    },
  };
}

function boundsKey(entry: Entry): string {
  return entry
    .map((v) =>
      v instanceof Bound
        ? `B${v.rank}${v.side}`
        : v === Infinity || v === -Infinity
          ? String(v)
          : EJSON.stringify({ v }, { relaxed: false }),
    )
    .join(',');
}

function show(v: unknown): string {
  if (v instanceof Bound) {
    if (v === MIN || v.rank === -Infinity) return 'MinKey';
    if (v === MAX || v.rank === Infinity) return 'MaxKey';
    return v.side < 0
      ? `${v.rank === 15 ? '""' : v.rank === 10 ? '-inf.0' : 'MinKey'}`
      : v.rank === 15
        ? '{}'
        : v.rank === 10
          ? 'inf.0'
          : 'MaxKey';
  }
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v && typeof v === 'object' && 'toHexString' in v)
    return `ObjectId('${(v as { toHexString(): string }).toHexString()}')`;
  return String(v);
}

function describeInterval(interval: Interval, direction: number): string[] {
  if (!interval) return [direction > 0 ? '[MinKey, MaxKey]' : '[MaxKey, MinKey]'];
  if ('points' in interval) {
    const ps = interval.points.map((p) => `[${show(p)}, ${show(p)}]`);
    return direction > 0 ? ps : ps.reverse();
  }
  const r = interval.range;
  return direction > 0
    ? [`${r.loIncl ? '[' : '('}${show(r.lo)}, ${show(r.hi)}${r.hiIncl ? ']' : ')'}`]
    : [`${r.hiIncl ? '[' : '('}${show(r.hi)}, ${show(r.lo)}${r.loIncl ? ']' : ')'}`];
}
