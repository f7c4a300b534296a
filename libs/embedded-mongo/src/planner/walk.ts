import { compareValues, type SortField } from '../bson-order';
import type { Entry } from '../indexes';
import { inRange } from './bounds';
import type { Plan } from './plan';

/**
 * Reading an index plan's entries: each stream walked between its ends, streams merged in sort order
 * with ties in scan order, counts of the entries in bounds, and a page taken by rank.
 */

function entryInBounds(plan: Plan, entry: Entry): boolean {
  for (let k = 0; k < plan.intervals.length; k++) {
    const interval = plan.intervals[k];
    if (interval && 'range' in interval && !inRange(entry[k], interval.range)) return false;
  }
  return true;
}

/**
 * The entries of one stream, in the walk direction. How many entries lie between its ends is known
 * from their ranks (O(log n) each): the walk reads exactly those, with no comparison per entry (a
 * stream's ends end in ±Infinity in place of a position, so no entry is equal to either).
 */
export function* walkStream(
  plan: Plan,
  stream: { lo: Entry; hi: Entry },
  direction: 1 | -1,
): Generator<Entry> {
  const index = plan.index!;
  let left = index.rank(stream.hi) - index.rank(stream.lo);
  if (left <= 0) return;
  const reused: Array<Entry | undefined> = [];
  const entries =
    direction > 0 ? index.tree.entries(stream.lo, reused) : index.tree.entriesReversed(stream.hi, reused);
  for (const [entry] of entries) {
    if (entryInBounds(plan, entry)) yield entry;
    if (--left <= 0) return;
  }
}

/** Counts the entries in bounds, stopping at `cap`. */
export function countEntries(plan: Plan, cap: number): number {
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
export function* mergedInSortOrder(plan: Plan, sort: SortField[]): Generator<Entry> {
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
export function rankable(plan: Plan): boolean {
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
export function entriesByRank(plan: Plan, skip: number, limit: number): Entry[] {
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
