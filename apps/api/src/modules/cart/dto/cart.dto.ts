import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_ADD_QUANTITY, MAX_QUANTITY_PER_ADD } from '@shop/shared';
import { IsInt, IsMongoId, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ProductVariantDto } from '../../catalog/dto/variant.dto';
import { ProductDto } from '../../catalog/dto/product.dto';
import { CartCouponDto, CouponProblemDto } from '../../coupons/dto/coupon.dto';

export const MAX_CART_LINE_QUANTITY = 10_000;

export class AddToCartDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345678' })
  @IsMongoId({ message: 'productId must be a valid product id' })
  productId!: string;

  @ApiPropertyOptional({
    example: 1,
    default: DEFAULT_ADD_QUANTITY,
    minimum: 1,
    maximum: MAX_QUANTITY_PER_ADD,
  })
  @IsOptional()
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(MAX_QUANTITY_PER_ADD, { message: `You can add at most ${MAX_QUANTITY_PER_ADD} units at a time` })
  quantity?: number;

  @ApiPropertyOptional({
    example: '665f1c2e9b1d8c0012345679',
    description:
      "One of the product's variants; left out, a product with variants adds its default variant. Not of the product: 404 VARIANT_NOT_FOUND",
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  variantId?: string;
}

export class UpdateCartItemDto {
  @ApiProperty({ example: 2, minimum: 1, description: 'The new quantity, between 1 and the stock' })
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(MAX_CART_LINE_QUANTITY)
  quantity!: number;
}

export class MergeCartDto {
  @ApiPropertyOptional({
    example: '9f86d081884c7d659a2feaa0c55ad015',
    description: 'The guest cart id (or send it as the X-Cart-Id header)',
  })
  @IsOptional()
  @Matches(/^[a-fA-F0-9]{32}$/, { message: 'cartId must be a guest cart id (32 hex characters)' })
  cartId?: string;
}

export class CartNoticeDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345678' }) productId!: string;
  @ApiPropertyOptional({ description: 'The variant of the line, when it has one' }) variantId?: string;
  @ApiProperty({ enum: ['removed', 'quantity_reduced', 'quantity_capped', 'repriced'] }) type!:
    'removed' | 'quantity_reduced' | 'quantity_capped' | 'repriced';
  @ApiProperty({ example: 'Only 2 left in stock for Shea Butter Cream; quantity reduced to 2' })
  message!: string;
  @ApiProperty({
    enum: [
      'NOTICE_UNAVAILABLE_REMOVED',
      'NOTICE_OUT_OF_STOCK_REMOVED',
      'NOTICE_QUANTITY_REDUCED',
      'CART_MERGE_CAPPED',
    ],
    description: 'Stable code; texts in libs/i18n under errors.<CODE>',
  })
  code!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    example: { product: 'Shea Butter Cream', available: 2, quantity: 2 },
  })
  params!: Record<string, string | number>;
}

export class CartLineDto {
  @ApiProperty({ type: ProductDto, description: 'The current product (live price, stock, images)' })
  product!: ProductDto;
  @ApiProperty({ example: 2 }) quantity!: number;
  @ApiPropertyOptional({ description: 'The variant of the line (a product with variants)' })
  variantId?: string;
  @ApiPropertyOptional({
    type: ProductVariantDto,
    description: "The variant as it is now: the line's unit price is its price",
  })
  variant?: ProductVariantDto;
}

export class CartDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [CartLineDto] }) products!: CartLineDto[];
  @ApiProperty({ example: 1300, description: 'Sum of price times quantity, in ETB' }) total!: number;
  @ApiProperty({ example: 2, description: 'Sum of quantities' }) itemCount!: number;
  @ApiPropertyOptional({
    type: [CartNoticeDto],
    description: 'Lines dropped or reduced since the last visit',
  })
  notices?: CartNoticeDto[];
  @ApiPropertyOptional({ example: 'Cart cleared' }) message?: string;
  @ApiPropertyOptional({
    example: '9f86d081884c7d659a2feaa0c55ad015',
    description: "A guest cart's id (guests only): send it back as the X-Cart-Id header",
  })
  cartId?: string;
  @ApiPropertyOptional({ type: CartCouponDto, description: 'The coupon code applied' })
  coupon?: CartCouponDto;
  @ApiPropertyOptional({ example: 130, description: "The coupon's discount in ETB now (standard delivery)" })
  discount?: number;
  @ApiPropertyOptional({ type: CouponProblemDto, description: 'Why the coupon gives nothing now' })
  couponProblem?: CouponProblemDto;
}
