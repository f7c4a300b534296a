import { ApiPropertyOptional } from '@nestjs/swagger';

/** What an order line keeps of the variant bought (docs/decisions/0098-product-variants.md). */
export class OrderLineVariantDto {
  @ApiPropertyOptional({ description: 'The variant bought, when the product had variants' })
  variantId?: string;
  @ApiPropertyOptional({ example: 'MOR-SER-30', description: "The variant's SKU at purchase time" })
  sku?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { Size: '30 ml' },
    description: "The variant's options at purchase time",
  })
  variantOptions?: Record<string, string>;
}
