import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_ADD_QUANTITY, MAX_QUANTITY_PER_ADD } from '@shop/shared';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ProductDto } from '../../catalog/dto/product.dto';
import { CartDto } from '../../cart/dto/cart.dto';

export class WishlistPreferencesDto {
  @ApiPropertyOptional({ example: true, description: 'Tell me when the price drops' })
  @IsOptional() @IsBoolean({ message: 'notifyOnSale must be true or false' })
  notifyOnSale?: boolean;

  @ApiPropertyOptional({ example: false, description: 'Tell me when it is back in stock' })
  @IsOptional() @IsBoolean({ message: 'notifyOnStock must be true or false' })
  notifyOnStock?: boolean;
}

export class MoveToCartDto {
  @ApiPropertyOptional({ example: 1, default: DEFAULT_ADD_QUANTITY, minimum: 1, maximum: MAX_QUANTITY_PER_ADD })
  @IsOptional()
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(MAX_QUANTITY_PER_ADD, { message: `You can add at most ${MAX_QUANTITY_PER_ADD} units at a time` })
  quantity?: number;
}

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
  @ApiProperty({ example: 'Gone Serum is no longer available and was removed from your wishlist' }) message!: string;
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
