import type { Document } from 'bson';
import { compareValues, keysAtPath, type StringCompare } from './bson-order';
import { badValue } from './errors';

/**
 * Collation: `{ locale: 'simple' }` (binary, the default) or an ICU locale with a strength:
 * 1 ignores case and accents, 2 ignores case, 3 (the default) tells both apart. Strings in filters
 * and sorts compare through it; such queries never use the (binary) indexes.
 */
export function collator(collation: unknown): StringCompare | undefined {
  if (collation === undefined || collation === null) return undefined;
  if (typeof collation !== 'object' || Array.isArray(collation))
    throw badValue('collation must be an object');
  const c = collation as Document;
  if (typeof c.locale !== 'string') throw badValue("Missing expected field 'locale'");
  if (c.locale === 'simple') return undefined;
  const strength = c.strength === undefined ? 3 : Number(c.strength);
  if (![1, 2, 3, 4, 5].includes(strength)) throw badValue('strength must be an integer 1 through 5');
  if (!Intl.Collator.supportedLocalesOf([c.locale.replace('_', '-')]).length)
    throw badValue(`Field 'locale' is invalid in: ${JSON.stringify(c)}`);
  const sensitivity = strength === 1 ? 'base' : strength === 2 ? 'accent' : 'variant';
  const intl = new Intl.Collator(c.locale.replace('_', '-'), {
    sensitivity,
    caseFirst: c.caseFirst === 'upper' ? 'upper' : c.caseFirst === 'lower' ? 'lower' : 'false',
    numeric: !!c.numericOrdering,
  });
  return (a, b) => intl.compare(a, b);
}

const COMPARISONS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'];

function hasString(v: unknown): boolean {
  return typeof v === 'string' || (Array.isArray(v) && v.some((x) => typeof x === 'string'));
}

/** Rewrites string comparisons of a filter into `$where` tests through the collation. */
export function collateFilter(filter: Document | undefined, compare: StringCompare): Document | undefined {
  if (!filter || typeof filter !== 'object') return filter;
  const eq = (x: unknown, y: unknown) =>
    typeof x === 'string' && typeof y === 'string'
      ? compare(x, y) === 0
      : compareValues(x, y) === 0 && typeof x === typeof y;
  const out: Document = {};
  const wheres: Document[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(condition)) {
      out[key] = condition.map((c) => collateFilter(c as Document, compare));
      continue;
    }
    if (key.startsWith('$')) {
      out[key] = condition;
      continue;
    }
    const parts = key.split('.');
    const values = (doc: Document) => keysAtPath(doc, parts).values;
    if (typeof condition === 'string') {
      wheres.push({
        $where: function (this: Document) {
          return values(this).some((x) => eq(x, condition));
        },
      });
      continue;
    }
    const isOps =
      condition &&
      typeof condition === 'object' &&
      !Array.isArray(condition) &&
      !(condition instanceof Date) &&
      !(condition as { _bsontype?: string })._bsontype &&
      !(condition instanceof RegExp) &&
      Object.keys(condition).length > 0 &&
      Object.keys(condition).every((k) => k.startsWith('$'));
    if (!isOps) {
      out[key] = condition;
      continue;
    }
    const rest: Document = {};
    for (const [op, operand] of Object.entries(condition as Document)) {
      if (!COMPARISONS.includes(op) || !hasString(operand)) {
        rest[op] = operand;
        continue;
      }
      const test = (doc: Document): boolean => {
        const vs = values(doc);
        switch (op) {
          case '$eq':
            return vs.some((x) => eq(x, operand));
          case '$ne':
            return !vs.some((x) => eq(x, operand));
          case '$in':
            return vs.some((x) => (operand as unknown[]).some((y) => eq(x, y)));
          case '$nin':
            return !vs.some((x) => (operand as unknown[]).some((y) => eq(x, y)));
          default: {
            const c = (x: unknown) => (typeof x === 'string' ? compare(x, operand as string) : NaN);
            return vs.some((x) => {
              const r = c(x);
              if (Number.isNaN(r)) return false;
              return op === '$gt' ? r > 0 : op === '$gte' ? r >= 0 : op === '$lt' ? r < 0 : r <= 0;
            });
          }
        }
      };
      wheres.push({
        $where: function (this: Document) {
          return test(this);
        },
      });
    }
    if (Object.keys(rest).length) out[key] = rest;
  }
  if (wheres.length) out.$and = [...((out.$and as Document[]) ?? []), ...wheres];
  return out;
}
