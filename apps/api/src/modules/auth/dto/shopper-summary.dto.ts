import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserDto } from './auth.dto';

/** A cart line as the header needs it: which product (and variant), how many (as `GET /cart` answers). */
export class SummaryCartLineDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' }) productId!: string;
  @ApiPropertyOptional({ description: 'The variant of the line, when it has one' }) variantId?: string;
  @ApiProperty({ example: 2 }) quantity!: number;
}

export class SummaryCartDto {
  @ApiProperty({ example: 3, description: "The same number as `GET /cart`'s itemCount" })
  itemCount!: number;
  @ApiProperty({
    type: [SummaryCartLineDto],
    description: "`GET /cart`'s lines (products' ids and quantities), in its order",
  })
  lines!: SummaryCartLineDto[];
}

export class SummaryWishlistDto {
  @ApiProperty({
    type: [String],
    description: 'The ids of the products `GET /wishlist` lists, in its order (none for a guest)',
  })
  productIds!: string[];
}

/** What a shop page's header needs of the shopper, in one call (docs/decisions/0105-shopper-summary.md). */
export class ShopperSummaryDto {
  @ApiProperty({
    type: UserDto,
    nullable: true,
    description: 'The signed-in user as `GET /auth/me` answers it; null for a guest',
  })
  user!: UserDto | null;
  @ApiProperty({ type: SummaryCartDto }) cart!: SummaryCartDto;
  @ApiProperty({ type: SummaryWishlistDto }) wishlist!: SummaryWishlistDto;
}
