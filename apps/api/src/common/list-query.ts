import type { FilterQuery, Model, Types } from 'mongoose';

/**
 * A list request as a domain service takes it: already parsed and checked by the edge that received
 * it (the back office's list protocols live in modules/admin/list). `filter` is the resource's own
 * typed filter; `sort` names stored fields, `_id` last as the tie-breaker.
 */
export interface ListQuery<F extends object = object> {
  filter: F;
  /** Only these records (react-admin's getMany): 24-hex ids; malformed ids were dropped by the edge. */
  ids?: readonly string[];
  sort: Record<string, 1 | -1>;
  skip: number;
  limit: number;
}

/** One page of a list: the records (each with `id`), where it starts and the total. */
export interface ListPage<R> {
  records: (R & { id: string })[];
  skip: number;
  total: number;
}

/** Reads one page of a model's documents matching `where` (and `query.ids`), counted, as records. */
export async function findPage<T, R extends { _id?: unknown; id?: unknown }>(
  model: Model<T>,
  where: FilterQuery<T>,
  query: ListQuery,
  toRecords: (docs: (T & { _id: Types.ObjectId })[]) => R[] | Promise<R[]>,
): Promise<ListPage<R>> {
  const filter: FilterQuery<T> = { ...where };
  if (query.ids) (filter as Record<string, unknown>)._id = { $in: [...query.ids] };
  const [docs, total] = await Promise.all([
    model.find(filter).sort(query.sort).skip(query.skip).limit(query.limit).lean().exec(),
    model.countDocuments(filter).exec(),
  ]);
  const records = await toRecords(docs as (T & { _id: Types.ObjectId })[]);
  return {
    records: records.map((r) => ({ id: String(r.id ?? r._id), ...r })),
    skip: query.skip,
    total,
  };
}
