import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OPTION_KINDS } from '../variants';

/** Classes of the product variants (docs/decisions/0098-product-variants.md), answered and written. */

/** A product option as answered and written: a size, a shade or another choice, and its values. */
export class ProductOptionDto {
  @ApiProperty({ example: 'Size', description: '1-30 letters, digits or spaces; unique per product' })
  name!: string;
  @ApiPropertyOptional({ example: 'መጠን' }) nameAm?: string;
  @ApiProperty({ enum: OPTION_KINDS, example: 'size' }) kind!: string;
  @ApiProperty({
    type: [String],
    example: ['30 ml', '50 ml'],
    description: '1-20 values, each 1-40 characters',
  })
  values!: string[];
}

class VariantPromotionNameDto {
  @ApiProperty() en!: string;
  @ApiProperty() am!: string;
}

class VariantPromotionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ type: VariantPromotionNameDto }) name!: VariantPromotionNameDto;
  @ApiProperty({ type: String, format: 'date-time' }) endsAt!: string;
}

/** A variant as answered: ETB prices, a running sale applied as on the product. */
export class ProductVariantDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345679' }) _id!: string;
  @ApiProperty({ example: 'MOR-SER-30' }) sku!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { Size: '30 ml' },
    description: 'A value of every option of the product',
  })
  options!: Record<string, string>;
  @ApiProperty({ example: 650, description: 'What the customer pays now, in ETB (a running sale applies)' })
  price!: number;
  @ApiPropertyOptional({ example: 800, description: 'The compare-at price in ETB' }) originalPrice?: number;
  @ApiPropertyOptional({ example: 800, description: 'The regular or compare-at price when above price' })
  compareAtPrice?: number;
  @ApiPropertyOptional({ type: VariantPromotionDto }) promotion?: VariantPromotionDto;
  @ApiProperty({ example: 12 }) countInStock!: number;
  @ApiProperty({ example: 5, description: "The variant's own, else the product's" })
  lowStockThreshold!: number;
  @ApiProperty({ type: [String] }) images!: string[];
  @ApiPropertyOptional({ example: '#a4243b', description: 'A shade swatch, #rrggbb' }) swatch?: string;
}

/** A variant as written (POST/PUT /api/products, back office): without `_id` it is new. */
export class ProductVariantInputDto {
  @ApiPropertyOptional({ description: "One of the product's variants (kept), or left out for a new one" })
  _id?: string;
  @ApiProperty({
    example: 'MOR-SER-30',
    description: 'Unique across every product and variant SKU (409 DUPLICATE_SKU)',
  })
  sku!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { Size: '30 ml' } })
  options!: Record<string, string>;
  @ApiProperty({ example: 650, description: 'ETB, above 0' }) price!: number;
  @ApiPropertyOptional({ example: 800, description: 'ETB, not below price (400 INVALID_COMPARE_AT_PRICE)' })
  originalPrice?: number;
  @ApiProperty({ example: 12, description: 'Or countInStock' }) stock!: number;
  @ApiPropertyOptional({ example: 12, description: 'Alias of stock' }) countInStock?: number;
  @ApiPropertyOptional({ example: 3 }) lowStockThreshold?: number;
  @ApiPropertyOptional({ type: [String] }) images?: string[];
  @ApiPropertyOptional({ example: '#a4243b' }) swatch?: string;
}
