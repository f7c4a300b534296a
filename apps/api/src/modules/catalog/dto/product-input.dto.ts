import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORY_SLUGS, CURRENCIES, SUB_CATEGORY_SLUGS } from '@shop/shared';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsMongoId,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { IsAmount, Nullable } from '../../../common/validation';
import { ProductDto } from './product.dto';
import { ProductOptionDto, ProductVariantInputDto } from './variant.dto';

/** With variants the product's price and stock are theirs (docs/decisions/0098): not required of the form. */
const withoutVariants = (o: { variants?: unknown }) => !(Array.isArray(o.variants) && o.variants.length > 0);

const MAX_PRICE = 10_000_000;
/** A promotion is named by a code or slug (or an id): nothing that could be markup or an operator. */
const PROMOTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** An image is an http(s) URL or one of the API's own image paths; never javascript:, data: or a relative oddity. */
const IMAGE_URL = /^(https?:\/\/[^\s"'<>]+|\/api\/(uploads|assets)\/[\w./-]+)$/i;
const IMAGE_URL_MESSAGE = 'images must be http(s) URLs or /api/uploads/... paths';

/**
 * The product form of docs/product.md §5: name, price and stock are required (stock may come as
 * countInStock, and one image as `image`). Prices in ETB with at most two decimals.
 */
export class ProductInputDto {
  @ApiProperty({ example: 'Moringa Glow Serum' }) @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) nameAm?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) sku?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) brand?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(5000) description?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(5000) descriptionAm?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(20000) richDescription?: string;
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  ingredients?: string[];
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  keyIngredients?: string[];
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  benefits?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Ingredients in Amharic' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  ingredientsAm?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Benefits in Amharic' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  benefitsAm?: string[];
  @ApiProperty({
    example: 890,
    description: "ETB (with variants: left out or ignored, the default variant's)",
  })
  @ValidateIf(withoutVariants)
  @IsAmount({ max: MAX_PRICE })
  price!: number;
  @ApiPropertyOptional({
    example: 1050,
    description:
      'The compare-at price in ETB (the discount badge compares the price with it): higher than the price, else 400 COMPARE_AT_NOT_ABOVE_PRICE; left out, none',
  })
  @IsOptional()
  @IsAmount({ max: MAX_PRICE })
  originalPrice?: number;
  @ApiPropertyOptional({ enum: CURRENCIES }) @IsOptional() @IsIn(CURRENCIES) currency?: string;
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  @Matches(IMAGE_URL, { each: true, message: IMAGE_URL_MESSAGE })
  images?: string[];
  @ApiPropertyOptional({ description: 'A single image URL (accepted as images[0])' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @Matches(IMAGE_URL, { message: IMAGE_URL_MESSAGE })
  image?: string;
  @ApiPropertyOptional({ example: 24 }) @IsOptional() @IsInt() @Min(0) @Max(1_000_000) stock?: number;
  @ApiPropertyOptional({ example: 24, description: 'Alias of stock' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  countInStock?: number;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) @Max(1_000_000) lowStockThreshold?: number;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) @Max(1_000_000) restockThreshold?: number;
  @ApiPropertyOptional({ example: 'meskel-2026', description: 'Letters, digits, - and _ (at most 64)' })
  @IsOptional()
  @IsString()
  @Matches(PROMOTION_ID, { message: 'promotionId must be 1-64 letters, digits, - or _' })
  promotionId?: string;
  @ApiPropertyOptional({ enum: CATEGORY_SLUGS }) @IsOptional() @IsIn(CATEGORY_SLUGS) category?: string;
  @ApiPropertyOptional({
    enum: SUB_CATEGORY_SLUGS,
    nullable: true,
    description:
      "One of the category's sub-categories, else 400 SUB_CATEGORY_NOT_IN_CATEGORY. On an edit: null clears it, left out keeps it",
  })
  @IsOptional()
  @Nullable()
  @IsIn(SUB_CATEGORY_SLUGS)
  subCategory?: string | null;
  @ApiPropertyOptional({
    type: String,
    example: '30 ml',
    nullable: true,
    description:
      'Size or volume as the product page shows it. On an edit: null or "" clears it, left out keeps it',
  })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(50)
  size?: string | null;
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(50, { each: true })
  skinTypes?: string[];
  @ApiPropertyOptional() @IsOptional() @IsBoolean() active?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() isFeatured?: boolean;
  @ApiPropertyOptional({
    type: [ProductOptionDto],
    nullable: true,
    description: 'With variants: 1-3 options. Left out on an edit: kept; null: cleared with the variants',
  })
  @IsOptional()
  @Nullable()
  @IsArray()
  options?: unknown[] | null;
  @ApiPropertyOptional({
    type: [ProductVariantInputDto],
    nullable: true,
    description:
      "Variants (1-50, in the picker's order); the product's stock becomes their sum and its price the default variant's. " +
      'Left out on an edit: kept; null or []: the product has none. 400 INVALID_VARIANTS, DUPLICATE_VARIANT, INVALID_COMPARE_AT_PRICE; 409 DUPLICATE_SKU',
  })
  @IsOptional()
  @Nullable()
  @IsArray()
  variants?: unknown[] | null;
}

/** Bulk activate/deactivate from the back office's product list. */
export class BulkActiveDto {
  @ApiProperty({ type: [String], description: 'Product ids (at most 100)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsMongoId({ each: true })
  ids!: string[];
  @ApiProperty({ description: 'true puts the products on sale, false withdraws them' })
  @IsBoolean()
  active!: boolean;
}

export class BulkActiveResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ description: 'How many products changed (those already in that state are left alone)' })
  updated!: number;
  @ApiProperty({ type: [String], description: 'The ids that changed' }) ids!: string[];
}

export class ProductResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: ProductDto }) product!: ProductDto;
}
