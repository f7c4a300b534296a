import { collator } from '../collation';
import type { Collection } from '../collection';
import { predicatesOf } from './bounds';
import { choosePlan } from './choice';
import { runFind } from './find';
import { buildPlan, scanPlan } from './plan';
import { cachedCount, countKey, rememberCount } from './plan-cache';
import type { ExecStats, Overlay, QueryOptions } from './query';
import { walkStream } from './walk';

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
    const plan = scanPlan({ exact: true });
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
      const cacheKey = countKey(plan);
      let counted = cachedCount(coll, cacheKey);
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
        rememberCount(coll, cacheKey, counted);
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
