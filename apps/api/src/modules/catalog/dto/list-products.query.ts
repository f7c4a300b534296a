import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  CATALOGUE_PAGE_SIZE,
  CATEGORY_SLUGS,
  MAX_PAGE_SIZE,
  PRODUCT_SORTS,
  SUB_CATEGORY_SLUGS,
} from '@shop/shared';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** Bounds of the list's parameters, shared with the early reader's parser (list-query.ts). */
export const MAX_LIST_PAGE = 100000;
export const MAX_LIST_TEXT = 100;
export const MIN_RATING = 1;
export const MAX_RATING = 5;
/** Brands a listing may filter by at once. */
export const MAX_LIST_BRANDS = 20;
/** The counts a listing may add to its answer (docs/decisions/0091-catalogue-facets.md). */
export const LIST_FACETS = ['category', 'brand'] as const;
export type ListFacet = (typeof LIST_FACETS)[number];
/** The words a boolean parameter may be written as. */
export const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  '1': true,
  false: false,
  '0': false,
};

const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'boolean'
    ? value
    : typeof value === 'string' && Object.hasOwn(BOOLEAN_WORDS, value)
      ? BOOLEAN_WORDS[value]
      : value;

/** Query of GET /products (docs/product.md §7): page, limit, search, the price range and the filters. */
export class ListProductsQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIST_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: CATALOGUE_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = CATALOGUE_PAGE_SIZE;

  @ApiPropertyOptional({ description: 'Case-insensitive text over name, brand, description and ingredients' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  search?: string;

  @ApiPropertyOptional({ description: 'Lowest price in ETB' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  minPrice?: number;

  @ApiPropertyOptional({ description: 'Highest price in ETB' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  maxPrice?: number;

  @ApiPropertyOptional({ enum: CATEGORY_SLUGS })
  @IsOptional()
  @IsIn(CATEGORY_SLUGS)
  category?: string;

  @ApiPropertyOptional({ enum: SUB_CATEGORY_SLUGS })
  @IsOptional()
  @IsIn(SUB_CATEGORY_SLUGS)
  subCategory?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_LIST_BRANDS,
    description:
      'One or several brands (repeat the parameter: brand=A&brand=B), each an exact case-insensitive match; ' +
      'an unknown brand lists nothing (docs/decisions/0091-catalogue-facets.md)',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(MAX_LIST_BRANDS)
  @IsString({ each: true })
  @MaxLength(MAX_LIST_TEXT, { each: true })
  brand?: string[];

  @ApiPropertyOptional({
    type: String,
    example: 'category,brand',
    description:
      'Counts to add to the answer (`facets`): category, brand or both, comma-separated; each facet counts ' +
      'the products of the other filters, ignoring its own',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',') : value))
  @IsArray()
  @ArrayMaxSize(LIST_FACETS.length)
  @IsIn(LIST_FACETS, { each: true })
  facets?: ListFacet[];

  @ApiPropertyOptional({ minimum: 1, maximum: 5 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(MIN_RATING)
  @Max(MAX_RATING)
  minRating?: number;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  inStock?: boolean;

  @ApiPropertyOptional({ enum: PRODUCT_SORTS, default: 'featured' })
  @IsOptional()
  @IsIn(PRODUCT_SORTS)
  sort?: (typeof PRODUCT_SORTS)[number];
}
