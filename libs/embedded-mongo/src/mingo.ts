import * as path from 'node:path';
import { Context, Query as MingoQuery } from 'mingo';
import type { Document } from 'bson';

/**
 * mingo's `Query` as the engine uses it, without mingo's per-query cost of copying its operator tables.
 *
 * `new Query(filter)` from mingo's entry point builds a fresh context for every query: it copies every
 * operator table (about 300 operators) into new objects, which was an eighth of the engine's CPU time
 * in an order placement (bench/api). Here the tables are copied once: every query shares one set of
 * compute options (mingo copies an options *instance* by reference). Same operators, same defaults,
 * same results; only the copying goes.
 *
 * mingo 7 keeps the options class internal (`core/_internal`, not in its exports map), so it is loaded
 * by path from the installed package; if a later mingo moves it, the engine falls back to mingo's own
 * `Query` (slower, same behaviour).
 */
type Options = { variables?: Document };
interface ComputeOptionsClass {
  init(options: Record<string, unknown>): { options: Record<string, unknown> };
  new (options: Record<string, unknown>, locals?: Record<string, unknown>): unknown;
}

function loadComputeOptions(): ComputeOptionsClass | undefined {
  try {
    const entry = require.resolve('mingo');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const internal = require(path.join(path.dirname(entry), 'core', '_internal.js')) as {
      ComputeOptions?: ComputeOptionsClass;
    };
    return typeof internal.ComputeOptions?.init === 'function' ? internal.ComputeOptions : undefined;
  } catch {
    return undefined;
  }
}

const ComputeOptions = loadComputeOptions();
/** The class mingo's entry-point Query extends (the one that takes options as given). */
const BaseQuery = Object.getPrototypeOf(MingoQuery) as typeof MingoQuery;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { update: mingoUpdate } = require('mingo/updater') as {
  update(
    obj: Document,
    modifier: Document,
    arrayFilters: Document[] | undefined,
    condition: Document | undefined,
    options: Record<string, unknown>,
  ): string[];
};

let fullContext: Context | undefined;
/** The context of mingo's entry point: all operator kinds, all operators (built once). */
function sharedContext(): Context {
  if (fullContext) return fullContext;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const ops = {
    accumulator: require('mingo/operators/accumulator'),
    expression: require('mingo/operators/expression'),
    pipeline: require('mingo/operators/pipeline'),
    projection: require('mingo/operators/projection'),
    query: require('mingo/operators/query'),
    window: require('mingo/operators/window'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return (fullContext = Context.init(ops));
}

const shared = ComputeOptions ? ComputeOptions.init({ context: sharedContext() }) : undefined;

function computeOptions(options?: Options): unknown {
  if (!shared || !ComputeOptions) return options;
  if (!options?.variables) return shared;
  return new ComputeOptions({ ...shared.options, variables: options.variables });
}

/** mingo's Query over the shared operator tables (the fallback: mingo's own). */
export const Query: typeof MingoQuery = shared
  ? (class Query extends BaseQuery {
      constructor(condition: Document, options?: Options) {
        super(condition, computeOptions(options) as never);
      }
    } as unknown as typeof MingoQuery)
  : MingoQuery;
export type Query = MingoQuery;

type Mutation = (doc: Document) => string[];
/** mingo's update operators and the step that resolves their paths (`$`, `$[]`, `$[id]`) once per update. */
function loadUpdateInternals():
  | {
      operators: Record<string, (expr: Document, arrayFilters: Document[], options: unknown) => Mutation>;
      buildParams: (exprs: Document[], arrayFilters: Document[], options: unknown) => unknown;
    }
  | undefined {
  try {
    const entry = require.resolve('mingo');
    /* eslint-disable @typescript-eslint/no-require-imports */
    const operators = require('mingo/operators/update');
    const internal = require(path.join(path.dirname(entry), 'operators', 'update', '_internal.js'));
    /* eslint-enable @typescript-eslint/no-require-imports */
    return typeof internal.buildParams === 'function' && typeof operators.$set === 'function'
      ? { operators: { ...operators }, buildParams: internal.buildParams }
      : undefined;
  } catch {
    return undefined;
  }
}

const updateInternals = shared ? loadUpdateInternals() : undefined;

/**
 * Applies update operators to `doc` in place, as mingo's `update(doc, modifier, arrayFilters,
 * condition)` does (the operator branch of its updater, step for step), over the shared operator
 * tables: mingo's own updater copies its operator tables for every update (a third of an update's
 * cost). Answers the modified paths. The condition is what positional `$` paths resolve against; a
 * document it does not match is left as it is (mingo's behaviour).
 */
export function update(
  doc: Document,
  modifier: Document,
  arrayFilters: Document[] | undefined,
  condition: Document | undefined,
  options: { cloneMode: 'none' },
): string[] {
  if (!shared || !ComputeOptions || !updateInternals) {
    return mingoUpdate(doc, modifier, arrayFilters, condition, {
      cloneMode: options.cloneMode,
      queryOptions: {},
    });
  }
  const { operators, buildParams } = updateInternals;
  const filter = condition ?? {};
  const opts = new ComputeOptions(shared.options) as {
    update(locals: Record<string, unknown>): unknown;
  };
  opts.update({
    condition: filter,
    updateConfig: { cloneMode: options.cloneMode, arrayFilters },
    variables: undefined,
    updateParams: {},
  });
  if (Object.keys(filter).length && !new BaseQuery(filter, opts as never).test(doc)) return [];
  const unknown = Object.keys(modifier).find((op) => !operators[op]);
  if (unknown) throw new Error(`Unknown update operator: '${unknown}'.`);
  const filters = arrayFilters ?? [];
  const renameTargets = Object.values((modifier.$rename ?? {}) as Document).map((target) => ({
    [target as string]: true,
  }));
  opts.update({
    updateParams: buildParams([...Object.values(modifier), ...renameTargets], filters, opts),
  });
  const mutations = Object.keys(modifier).map((op) => operators[op](modifier[op], filters, opts));
  const modified: string[] = [];
  for (const mutate of mutations) modified.push(...mutate(doc));
  return modified.sort();
}
