import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const SUGGESTION_LANGS = ['en', 'am'] as const;
export type SuggestionLang = (typeof SUGGESTION_LANGS)[number];
export const MAX_SUGGESTION_TEXT = 100;
export const MAX_SUGGESTIONS = 10;
export const DEFAULT_SUGGESTIONS = 5;

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Query of GET /products/suggestions (the header's predictive search). */
export class SuggestionsQuery {
  @ApiPropertyOptional({
    maxLength: MAX_SUGGESTION_TEXT,
    description: 'What the shopper typed so far (trimmed; blank answers empty lists)',
  })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxLength(MAX_SUGGESTION_TEXT)
  q?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_SUGGESTIONS, default: DEFAULT_SUGGESTIONS })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_SUGGESTIONS)
  limit: number = DEFAULT_SUGGESTIONS;

  @ApiPropertyOptional({
    enum: SUGGESTION_LANGS,
    default: 'en',
    description: 'Language of names and highlights',
  })
  @IsOptional()
  @IsIn(SUGGESTION_LANGS)
  lang: SuggestionLang = 'en';
}

export class SuggestedProductDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345678' }) _id!: string;
  @ApiProperty({
    example: 'Coffee Bean Eye Serum',
    description: 'In `lang` (the English name when none in Amharic)',
  })
  name!: string;
  @ApiProperty({ example: 'Buna Beauty' }) brand!: string;
  @ApiProperty({ example: 680, description: 'Price in ETB' }) price!: number;
  @ApiPropertyOptional({ example: 800, description: 'Price before discount, in ETB (only when higher)' })
  compareAtPrice?: number;
  @ApiProperty({ type: String, nullable: true, example: '/api/assets/products/coffee-eye-serum.svg' })
  image!: string | null;
  @ApiProperty({ example: '/product/665f1c2e9b1d8c0012345678', description: 'Storefront path' }) url!: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
    example: [[0, 6]],
    description: '[start, end) UTF-16 ranges of `name` that matched the query (may be empty)',
  })
  highlight!: [number, number][];
}

export class SuggestedCategoryDto {
  @ApiProperty({ example: 'haircare' }) slug!: string;
  @ApiProperty({ example: 'Haircare', description: 'In `lang`' }) name!: string;
  @ApiProperty({ example: 6, description: 'Active products of this category matching the query' })
  count!: number;
  @ApiProperty({ example: '/products?category=haircare', description: 'Storefront catalogue path' })
  url!: string;
}

export class SuggestedBrandDto {
  @ApiProperty({ example: 'Buna Beauty' }) name!: string;
  @ApiProperty({ example: 5, description: 'Active products of this brand matching the query' })
  count!: number;
  @ApiProperty({
    example: '/products?search=Buna%20Beauty',
    description: "Storefront catalogue path (the catalogue's search for the brand)",
  })
  url!: string;
}

export class SuggestionsDto {
  @ApiProperty({ example: 'bunna', description: 'The query as read (trimmed)' }) query!: string;
  @ApiProperty({ type: [SuggestedProductDto] }) products!: SuggestedProductDto[];
  @ApiProperty({ type: [SuggestedCategoryDto], description: 'At most 3' })
  categories!: SuggestedCategoryDto[];
  @ApiProperty({ type: [SuggestedBrandDto], description: 'At most 3' }) brands!: SuggestedBrandDto[];
}
