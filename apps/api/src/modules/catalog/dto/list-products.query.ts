import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  CATALOGUE_PAGE_SIZE,
  CATEGORY_SLUGS,
  MAX_PAGE_SIZE,
  PRODUCT_SORTS,
  SUB_CATEGORY_SLUGS,
} from '@shop/shared';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Bounds of the list's parameters, shared with the early reader's parser (list-query.ts). */
export const MAX_LIST_PAGE = 100000;
export const MAX_LIST_TEXT = 100;
export const MIN_RATING = 1;
export const MAX_RATING = 5;
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

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  brand?: string;

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
