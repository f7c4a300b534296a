import type { Document } from 'bson';
import { Bound, RANK, compareValues, keysAtPath } from '../bson-order';
import { inRange, type Condition, type Predicates } from './bounds';

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
  const compiled = checks.map(({ parts, conds }) => ({ parts, tests: conds.map(conditionTest) }));
  return (doc) => {
    for (const { parts, tests } of compiled) {
      if (parts.length === 1) {
        const top = doc[parts[0]];
        if (!Array.isArray(top)) {
          // the usual case: one value (a missing field is null)
          const v = top === undefined ? null : top;
          for (const test of tests) if (!test(v)) return false;
          continue;
        }
      }
      const values = keysAtPath(doc, parts).values;
      for (const test of tests) {
        let any = false;
        for (const v of values) {
          if (test(v)) {
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

/** A bound of a numeric range as a plain number (`Bound`s of the number bracket are its ends), or undefined. */
function numericEnd(end: unknown): number | undefined {
  if (typeof end === 'number') return end;
  if (end instanceof Bound && end.rank === RANK.number) return end.side < 0 ? -Infinity : Infinity;
  return undefined;
}

/**
 * One condition as a test of one value, as `compareValues` decides it, with shortcuts for plain
 * numbers, strings and booleans (the catalogue's filters): the same answers, fewer generic comparisons.
 */
function conditionTest(cond: Condition): (v: unknown) => boolean {
  if ('points' in cond) {
    const points = cond.points;
    const generic = (v: unknown) => {
      for (const p of points) if (compareValues(v, p) === 0) return true;
      return false;
    };
    if (points.length === 1) {
      const p = points[0];
      // same-type numbers (but NaN), strings and booleans are equal exactly when ===
      if ((typeof p === 'number' && !Number.isNaN(p)) || typeof p === 'string' || typeof p === 'boolean')
        return (v) => (typeof v === typeof p ? v === p : generic(v));
    }
    return generic;
  }
  const range = cond.range;
  const generic = (v: unknown) => {
    if (typeof v === 'number' && Number.isNaN(v)) return false; // NaN is in no range
    return inRange(v, range);
  };
  const lo = numericEnd(range.lo);
  const hi = numericEnd(range.hi);
  if (lo === undefined || hi === undefined || Number.isNaN(lo) || Number.isNaN(hi)) return generic;
  const { loIncl, hiIncl } = range;
  return (v) => {
    if (typeof v !== 'number') return generic(v);
    if (v !== v) return false; // NaN
    if (v < lo || (v === lo && !loIncl)) return false;
    return v < hi || (v === hi && hiIncl);
  };
}
