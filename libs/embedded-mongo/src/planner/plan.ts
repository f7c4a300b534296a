import { MAX, MIN, type SortField } from '../bson-order';
import type { Entry, OrderedIndex } from '../indexes';
import { intersect, sortedUnique, type Interval, type Predicates } from './bounds';

/** How a query reads a collection: a scan, or walks of one index within bounds. */
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

/**
 * The plan of one index for a filter and sort: the bounds of its leading fields (the equality prefix,
 * then at most one range), whether the bounds are the whole filter, which direction of walk (if any)
 * returns the requested sort, and the streams (one per combination of leading points) to walk.
 * Undefined when the index cannot serve the query (no bound and no sort, sparse or partial).
 */
export function buildPlan(
  index: OrderedIndex,
  preds: Predicates,
  sort: SortField[] | undefined,
): Plan | undefined {
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

/** The collection scan's plan (`providesSort`, `exact` and `cost` as the caller states them). */
export function scanPlan(fields: Partial<Pick<Plan, 'providesSort' | 'exact' | 'cost'>> = {}): Plan {
  return {
    kind: 'collscan',
    intervals: [],
    bounded: 0,
    direction: 1,
    providesSort: true,
    sortPositions: [],
    exact: false,
    streams: [],
    cost: 0,
    ...fields,
  };
}
