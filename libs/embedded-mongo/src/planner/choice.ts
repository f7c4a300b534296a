import type { Document } from 'bson';
import type { Collection } from '../collection';
import type { OrderedIndex } from '../indexes';
import type { Predicates } from './bounds';
import { buildPlan, scanPlan, type Plan } from './plan';
import { cachedPlan, rememberPlan, shapeOf } from './plan-cache';
import type { QueryOptions } from './query';
import { countEntries } from './walk';

/**
 * Which plan runs a query: the collection scan when a non-simple collation compares strings; else the
 * plan cached for the query's shape; else the hinted index's plan (the scan when it cannot serve the
 * query); else the cheapest plan. A plan's cost is the number of index entries in its bounds, counted
 * only up to the best cost so far (a sort done in memory adds a fifth; a plan that provides the sort
 * under a limit costs at most skip + limit, four times that when the bounds are not the whole filter);
 * the scan costs 0.6 per document (0.8 with a sort) plus one. On a tie, the plan that provides the
 * sort wins.
 */
export function choosePlan(coll: Collection, opts: QueryOptions, preds: Predicates): Plan {
  const scanCost = coll.docs.size * 0.6 + (opts.sort?.length ? coll.docs.size * 0.2 : 0) + 1;
  const scan = scanPlan({ providesSort: !opts.sort?.length, cost: scanCost });
  if (opts.strings) return scan;
  const shape = opts.hint === undefined ? shapeOf(preds, opts) : undefined;
  const cached = shape !== undefined ? cachedPlan(coll, shape, preds, opts, scan) : undefined;
  if (cached) return cached;
  const best = pickPlan(coll, opts, preds, scan);
  if (shape !== undefined) rememberPlan(coll, shape, best);
  return best;
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
