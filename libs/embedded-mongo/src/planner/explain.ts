import type { Document } from 'bson';
import { Bound, MAX, MIN } from '../bson-order';
import type { Interval } from './bounds';
import type { ExecStats } from './query';

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
