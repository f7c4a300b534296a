import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ProductDto } from '../../catalog/dto/product.dto';
import { AddToCartDto, CartDto } from '../../cart/dto/cart.dto';

export class WishlistPreferencesDto {
  @ApiPropertyOptional({ example: true, description: 'Tell me when the price drops' })
  @IsOptional()
  @IsBoolean({ message: 'notifyOnSale must be true or false' })
  notifyOnSale?: boolean;

  @ApiPropertyOptional({ example: false, description: 'Tell me when it is back in stock' })
  @IsOptional()
  @IsBoolean({ message: 'notifyOnStock must be true or false' })
  notifyOnStock?: boolean;
}

/** The cart's own quantity rule (1 to 10 per add, default 1). */
export class MoveToCartDto extends PickType(AddToCartDto, ['quantity'] as const) {}

export class WishlistItemDto {
  @ApiProperty({ description: 'Id of the wishlist item' }) _id!: string;
  @ApiProperty({ description: 'Mirror of _id' }) id!: string;
  @ApiProperty({ type: ProductDto, description: 'The current product' }) product!: ProductDto;
  @ApiProperty() notifyOnSale!: boolean;
  @ApiProperty() notifyOnStock!: boolean;
  @ApiProperty({ example: 650, description: 'Price in ETB when added' }) priceAtAdd!: number;
  @ApiProperty({ type: String, format: 'date-time' }) addedAt!: string;
}

export class WishlistNoticeDto {
  @ApiProperty() productId!: string;
  @ApiProperty({ enum: ['removed'] }) type!: 'removed';
  @ApiProperty({ example: 'Gone Serum is no longer available and was removed from your wishlist' })
  message!: string;
  @ApiProperty({
    enum: ['NOTICE_UNAVAILABLE_REMOVED'],
    description: 'Stable code; texts in libs/i18n under errors.<CODE>',
  })
  code!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    example: { product: 'Shea Butter Cream' },
  })
  params!: Record<string, string | number>;
}

export class WishlistDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [WishlistItemDto] }) products!: WishlistItemDto[];
  @ApiPropertyOptional({ type: [WishlistNoticeDto] }) notices?: WishlistNoticeDto[];
  @ApiPropertyOptional({ example: 'Moved to cart' }) message?: string;
}

export class MoveToCartResponseDto extends WishlistDto {
  @ApiProperty({ type: CartDto, description: 'The cart after the move' }) cart!: CartDto;
}

export class UnsubscribeRequestDto {
  @ApiProperty({
    description: 'The signed token of the unsubscribe link in a wishlist notice',
    example: '66f0c0ffee0000000000abcd.66f0c0ffee0000000000dcba.sale.<signature>',
  })
  @IsString({ message: 'token must be a string' })
  @MaxLength(200, { message: 'token must be at most 200 characters' })
  token!: string;
}

export class UnsubscribeProductDto {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'Shea Butter Cream' }) name!: string;
  @ApiPropertyOptional({ example: 'የሺአ ቅቤ ክሬም' }) nameAm?: string;
}

export class UnsubscribeDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ enum: ['sale', 'stock'], description: 'sale: price drops; stock: back in stock' })
  kind!: 'sale' | 'stock';
  @ApiProperty({ type: UnsubscribeProductDto }) product!: UnsubscribeProductDto;
  @ApiProperty({ description: 'Whether the customer still receives this notice for this product' })
  subscribed!: boolean;
}
