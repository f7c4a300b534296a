import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { Response } from 'express';
import { ErrorDto } from './error.dto';
import type { ListPage, ListQuery as TypedListQuery } from './list-query';
import { InvalidDataError } from './errors/domain-error';

/**
 * The list convention of `ra-data-simple-rest` (docs/decisions/0013-admin-list-protocol.md):
 * `sort=["field","ASC"]`, `range=[0,24]`, `filter={"q":"..."}`; the answer is a JSON array and
 * `Content-Range: <resource> 0-24/<total>`. Everything here turns malformed input into a 400, never a
 * 500, and never lets a client-sent object reach Mongo as a query operator. The admin module's
 * controllers read a call with `readListQuery` into the typed `ListQuery` (common/list-query) the
 * owning module's service takes, and answer its page with `sendList`.
 */
export const MAX_RANGE_SIZE = 100;
export const DEFAULT_RANGE_SIZE = 25;

/** The query of every react-admin list route; each param is JSON text. */
export class ReactAdminListQuery {
  @ApiPropertyOptional({ description: 'JSON `["field","ASC"|"DESC"]`', example: '["createdAt","DESC"]' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  sort?: string;

  @ApiPropertyOptional({
    description: `JSON \`[start,end]\` (inclusive, at most ${MAX_RANGE_SIZE} records)`,
    example: '[0,24]',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  range?: string;

  @ApiPropertyOptional({
    description:
      "JSON object of filters: `q` for text search, `id` (array) for getMany, plus the resource's own fields. " +
      'Values are strings, numbers, booleans or arrays of those.',
    example: '{"q":"serum"}',
  })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  filter?: string;
}

export type FilterValue = string | number | boolean | Array<string | number | boolean>;

export interface ListSpec {
  /** Public sort field -> stored field (e.g. price -> priceSantim). `id` is always sortable as `_id`. */
  sortFields: Record<string, string>;
  /** Filter keys the resource understands (besides `id`). */
  filters: readonly string[];
  defaultSort: [string, 'ASC' | 'DESC'];
}

export interface ParsedList {
  sort: Record<string, 1 | -1>;
  skip: number;
  limit: number;
  filter: Record<string, FilterValue>;
}

function bad(field: string, message: string): never {
  throw new InvalidDataError(`Invalid ${field} parameter`, [{ field, message }], 'INVALID_LIST_PARAMETER', {
    field,
  });
}

function parseJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return bad(field, `${field} must be valid JSON`);
  }
}

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Parses and checks sort, range and filter against what the resource allows. */
export function parseListQuery(query: ReactAdminListQuery, spec: ListSpec): ParsedList {
  const sortFields: Record<string, string> = { id: '_id', _id: '_id', ...spec.sortFields };

  let [sortField, order] = spec.defaultSort;
  if (query.sort !== undefined) {
    const sort = parseJson(query.sort, 'sort');
    if (
      !Array.isArray(sort) ||
      sort.length !== 2 ||
      typeof sort[0] !== 'string' ||
      typeof sort[1] !== 'string'
    ) {
      bad('sort', 'sort must be ["field","ASC"|"DESC"]');
    }
    const direction = String(sort[1]).toUpperCase();
    if (direction !== 'ASC' && direction !== 'DESC') bad('sort', 'sort order must be ASC or DESC');
    if (!Object.prototype.hasOwnProperty.call(sortFields, sort[0])) {
      bad('sort', `cannot sort by ${sort[0]}; sortable: ${Object.keys(sortFields).join(', ')}`);
    }
    sortField = sort[0];
    order = direction;
  }
  const stored = sortFields[sortField] ?? '_id';
  const dir = order === 'ASC' ? 1 : -1;
  // a tie-breaker on _id keeps pages stable
  const sort: Record<string, 1 | -1> = stored === '_id' ? { _id: dir } : { [stored]: dir, _id: dir };

  let start = 0;
  let end = DEFAULT_RANGE_SIZE - 1;
  if (query.range !== undefined) {
    const range = parseJson(query.range, 'range');
    if (
      !Array.isArray(range) ||
      range.length !== 2 ||
      !range.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ||
      (range[1] as number) < (range[0] as number)
    ) {
      bad('range', 'range must be [start,end] with whole numbers 0 <= start <= end');
    }
    [start, end] = range as [number, number];
  }

  const filter: Record<string, FilterValue> = {};
  if (query.filter !== undefined) {
    const parsed = parseJson(query.filter, 'filter');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      bad('filter', 'filter must be a JSON object');
    const allowed = new Set(['id', ...spec.filters]);
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!allowed.has(key)) bad('filter', `unknown filter ${key}; allowed: ${[...allowed].join(', ')}`);
      if (value === null || value === undefined || value === '') continue;
      if (isScalar(value)) filter[key] = value;
      else if (Array.isArray(value) && value.length <= MAX_RANGE_SIZE && value.every(isScalar))
        filter[key] = value;
      else
        bad(
          'filter',
          `filter ${key} must be a string, number, boolean or a list of those (at most ${MAX_RANGE_SIZE})`,
        );
    }
  }
  // getMany (`filter={"id":[...]}`) sends no range and expects every listed record
  if (query.range === undefined && Array.isArray(filter.id)) end = start + MAX_RANGE_SIZE - 1;

  return { sort, skip: start, limit: Math.min(end - start + 1, MAX_RANGE_SIZE), filter };
}

/** Sets `Content-Range: <resource> <first>-<last>/<total>` (`*` range when the page is empty). */
export function setContentRange(
  res: Response,
  resource: string,
  skip: number,
  count: number,
  total: number,
): void {
  const span = count > 0 ? `${skip}-${skip + count - 1}` : '*';
  res.setHeader('Content-Range', `${resource} ${span}/${total}`);
}

/** Reads a filter value as one string (numbers are accepted as their text); lists are refused. */
export function filterText(filter: Record<string, FilterValue>, key: string): string | undefined {
  const value = filter[key];
  if (value === undefined) return undefined;
  if (Array.isArray(value) || typeof value === 'boolean')
    bad('filter', `filter ${key} must be a single text value`);
  return String(value).trim() || undefined;
}

/** Reads a filter value as a boolean ("true"/"false" text accepted). */
export function filterBoolean(filter: Record<string, FilterValue>, key: string): boolean | undefined {
  const value = filter[key];
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return bad('filter', `filter ${key} must be true or false`);
}

/** Reads a filter value as one of the allowed texts, or a list of them. */
export function filterEnum(
  filter: Record<string, FilterValue>,
  key: string,
  allowed: readonly string[],
): string[] | undefined {
  const value = filter[key];
  if (value === undefined) return undefined;
  const values = (Array.isArray(value) ? value : [value]).map(String);
  const wrong = values.find((v) => !allowed.includes(v));
  if (wrong !== undefined) bad('filter', `filter ${key} must be one of ${allowed.join(', ')}`);
  return values;
}

/** Reads `id` (one id or a list, as getMany sends it) as 24-hex ids; malformed ids match nothing. */
export function filterIds(filter: Record<string, FilterValue>, key = 'id'): string[] | undefined {
  const value = filter[key];
  if (value === undefined) return undefined;
  const values = (Array.isArray(value) ? value : [value]).map(String);
  return values.filter((v) => /^[a-f0-9]{24}$/i.test(v));
}

/**
 * Reads a react-admin list call as the typed query a domain service takes: sort, range and `id`
 * (getMany) parsed and checked against `spec` (400 on anything malformed), and the resource's own
 * filter read by `readFilter` (with `filterText`, `filterEnum`, `filterBoolean`, `filterIds`, which
 * refuse a value of the wrong kind with a 400 as well).
 */
export function readListQuery<F extends object>(
  raw: ReactAdminListQuery,
  spec: ListSpec,
  readFilter: (filter: Record<string, FilterValue>) => F,
): TypedListQuery<F> {
  const { sort, skip, limit, filter } = parseListQuery(raw, spec);
  const ids = filterIds(filter);
  return { filter: readFilter(filter), ...(ids ? { ids } : {}), sort, skip, limit };
}

/** Answers a list page: `Content-Range` set, the records as the body. */
export function sendList<R>(res: Response, resource: string, page: ListPage<R>): ListPage<R>['records'] {
  setContentRange(res, resource, page.skip, page.records.length, page.total);
  return page.records;
}

/** Swagger for a react-admin list route: the JSON array and its Content-Range header. */
export function ApiReactAdminList(resource: string, type: unknown) {
  return applyDecorators(
    ApiResponse({
      status: 200,
      description: `A JSON array of ${resource} records (ra-data-simple-rest); each has \`id\` mirrored from \`_id\`.`,
      type: type as never,
      isArray: true,
      headers: {
        'Content-Range': {
          description: `\`${resource} <first>-<last>/<total>\` (exposed through CORS)`,
          schema: { type: 'string', example: `${resource} 0-24/319` },
        },
      },
    }),
    ApiBadRequestResponse({
      type: ErrorDto,
      description: 'Malformed sort, range or filter, unknown sort field or filter',
    }),
  );
}
