import type { Document } from 'bson';
import { Query } from '../mingo';
import { sortDocuments } from '../bson-order';
import { collateFilter, collator } from '../collation';
import { valueKey, type Collection } from '../collection';
import { predicatesOf } from './bounds';
import { choosePlan } from './choice';
import { boundsMatcher } from './matcher';
import { scanPlan } from './plan';
import type { ExecStats, FindResult, Overlay, QueryOptions } from './query';
import { entriesByRank, mergedInSortOrder, rankable, walkStream } from './walk';

const idKeyOf = (doc: Document) => valueKey(doc._id);

/** With a non-simple collation: string comparisons of the filter and sort go through it (and no index). */
function applyCollation(opts: QueryOptions): QueryOptions {
  const strings = collator(opts.collation);
  if (!strings) return opts;
  return { ...opts, strings, filter: collateFilter(opts.filter, strings) };
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
    plan: scanPlan(),
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
