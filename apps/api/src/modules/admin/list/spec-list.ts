import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ErrorDto } from '../../../common/error.dto';
import { InvalidDataError } from '../../../common/errors/domain-error';
import { MAX_RANGE_SIZE, ReactAdminListQuery, type FilterValue } from '../../../common/react-admin-list';

/**
 * The admin lists as the specification's client calls them (docs/product.md §7,
 * docs/decisions/0012-spec-clients-work-unchanged.md): without any of
 * react-admin's `sort`, `range`, `filter`, a list takes `search`, `status`, `page`, `limit` and
 * answers `{ success, <resource>, total, page, pages }`; with them, the simple-rest array.
 * The spec query is translated into a react-admin one, so each resource keeps one list query.
 */
export const SPEC_LIST_DEFAULT_LIMIT = 50;

export class AdminListQuery extends ReactAdminListQuery {
  @ApiPropertyOptional({ description: 'Spec shape: text search (same as filter q)', example: 'serum' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({
    description:
      'Spec shape: products active | inactive, orders pending | processing | shipped | delivered | cancelled, users active | inactive; all (or empty) for every one',
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  status?: string;

  @ApiPropertyOptional({ description: 'Spec shape, users only: customer | admin | all' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  role?: string;

  @ApiPropertyOptional({ description: 'Spec shape: page number', minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({
    description: 'Spec shape: page size',
    minimum: 1,
    maximum: MAX_RANGE_SIZE,
    default: SPEC_LIST_DEFAULT_LIMIT,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RANGE_SIZE)
  limit?: number;
}

/** True when the call carries none of react-admin's list parameters: answer the spec's shape. */
export function isSpecListQuery(query: AdminListQuery): boolean {
  return query.sort === undefined && query.range === undefined && query.filter === undefined;
}

/** Maps one spec query value onto the resource's react-admin filters; `all` and empty mean no filter. */
export type SpecFilterMap = Record<string, Record<string, Record<string, FilterValue>>>;

function filterFor(query: AdminListQuery, map: SpecFilterMap): Record<string, FilterValue> {
  const filter: Record<string, FilterValue> = {};
  if (query.search?.trim()) filter.q = query.search.trim();
  for (const param of ['status', 'role'] as const) {
    const value = query[param]?.trim();
    if (value === undefined || value === '' || value.toLowerCase() === 'all') continue;
    const allowed = map[param];
    const mapped = allowed?.[value.toLowerCase()];
    if (!mapped) {
      const choices = allowed ? [...Object.keys(allowed), 'all'].join(', ') : 'none';
      throw new InvalidDataError(
        `Invalid ${param} parameter`,
        [{ field: param, message: `${param} must be one of ${choices}` }],
        'INVALID_LIST_PARAMETER',
        { field: param },
      );
    }
    Object.assign(filter, mapped);
  }
  return filter;
}

/**
 * Answers a spec-shaped list through the resource's react-admin list (`list`), then lets
 * `decorate` complete the page's records (e.g. populate order users).
 */
export async function specList<R, K extends string>(
  key: K,
  query: AdminListQuery,
  map: SpecFilterMap,
  list: (query: ReactAdminListQuery) => Promise<{ records: R[]; total: number }>,
  decorate: (records: R[]) => Promise<unknown[]> | unknown[] = (records) => records,
): Promise<{ success: true; total: number; page: number; pages: number } & Record<K, unknown[]>> {
  const page = query.page ?? 1;
  const limit = query.limit ?? SPEC_LIST_DEFAULT_LIMIT;
  const start = (page - 1) * limit;
  const { records, total } = await list({
    range: JSON.stringify([start, start + limit - 1]),
    filter: JSON.stringify(filterFor(query, map)),
  });
  const body = { success: true as const, total, page, pages: Math.ceil(total / limit) };
  return { ...body, [key]: await decorate(records) } as typeof body & Record<K, unknown[]>;
}

/** Swagger for an admin list: the simple-rest array (with react-admin params) or the spec's object. */
export function ApiAdminList(resource: string, type: new () => unknown, specType: new () => unknown = type) {
  const record = { $ref: getSchemaPath(type) };
  const specRecord = { $ref: getSchemaPath(specType) };
  return applyDecorators(
    ApiExtraModels(type, specType),
    ApiResponse({
      status: 200,
      description:
        `With any of react-admin's sort, range, filter: a JSON array of ${resource} records (ra-data-simple-rest), each with \`id\` mirrored from \`_id\`, ` +
        `and \`Content-Range: ${resource} <first>-<last>/<total>\`. Without them (the specification's shape, docs/product.md §7): \`{ success, ${resource}, total, page, pages }\`.`,
      headers: {
        'Content-Range': {
          description: `\`${resource} <first>-<last>/<total>\` (react-admin calls only; exposed through CORS)`,
          schema: { type: 'string', example: `${resource} 0-24/319` },
        },
      },
      schema: {
        oneOf: [
          { type: 'array', items: record },
          {
            type: 'object',
            required: ['success', resource, 'total', 'page', 'pages'],
            properties: {
              success: { type: 'boolean', example: true },
              [resource]: { type: 'array', items: specRecord },
              total: { type: 'integer', example: 319 },
              page: { type: 'integer', example: 1 },
              pages: { type: 'integer', example: 7 },
            },
          },
        ],
      },
    }),
    ApiBadRequestResponse({
      type: ErrorDto,
      description: 'Malformed sort, range or filter, unknown sort field or filter, unknown status or role',
    }),
  );
}
