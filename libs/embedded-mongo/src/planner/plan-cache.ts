import { EJSON } from 'bson';
import { Bound } from '../bson-order';
import type { Collection } from '../collection';
import type { Entry } from '../indexes';
import type { Predicates } from './bounds';
import { buildPlan, type Plan } from './plan';
import type { QueryOptions } from './query';

/**
 * The planner's two caches, both kept on the collection:
 * - plans: a query shape (fields, operators, sort, whether there is a limit) reuses the index chosen
 *   before (or the scan, `$natural`), until the indexes change or the collection grows or shrinks past
 *   a power of two (`Collection.planCache`); not used with a `hint` or a non-simple collation;
 * - counts: an index-only count that had to walk the entries (a multikey index) is remembered by index
 *   and bounds until the next write to the collection (`writeVersion`); at most 1,000, then emptied.
 */

// ------------------------------------------------------------------ plans

/** A query's shape: what the plan cache is keyed by. */
export function shapeOf(preds: Predicates, opts: QueryOptions): string {
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

/**
 * The plan this shape chose before, rebuilt for these bounds (`scan` when it was the scan); undefined
 * when the shape is not cached or its index no longer serves the query.
 */
export function cachedPlan(
  coll: Collection,
  shape: string,
  preds: Predicates,
  opts: QueryOptions,
  scan: Plan,
): Plan | undefined {
  const cached = coll.planCache.get(shape);
  if (cached === undefined) return undefined;
  if (cached === '$natural') return scan;
  const index = coll.ordered.get(cached);
  return (index && buildPlan(index, preds, opts.sort)) || undefined;
}

export function rememberPlan(coll: Collection, shape: string, plan: Plan): void {
  coll.planCache.set(shape, plan.kind === 'collscan' ? '$natural' : plan.index!.name);
}

// ------------------------------------------------------------------ counts

export interface Counted {
  count: number;
  keys: number;
}

/** The count cache's key of an index plan: the index and its streams' ends. */
export function countKey(plan: Plan): string {
  return `${plan.index!.name}|${plan.streams.map((st) => `${boundsKey(st.lo)}~${boundsKey(st.hi)}`).join('|')}`;
}

/** A count remembered under `key` since the last write to the collection. */
export function cachedCount(coll: Collection, key: string): Counted | undefined {
  const cached = coll.countCache.get(key);
  return cached && cached.version === coll.writeVersion ? cached : undefined;
}

export function rememberCount(coll: Collection, key: string, counted: Counted): void {
  if (coll.countCache.size >= 1000) coll.countCache.clear();
  coll.countCache.set(key, { ...counted, version: coll.writeVersion });
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
