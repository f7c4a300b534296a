import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import {
  MoveToCartDto,
  MoveToCartResponseDto,
  WishlistDto,
  WishlistPreferencesDto,
} from './dto/wishlist.dto';
import { WishlistService } from './wishlist.service';

@ApiTags('wishlist')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorDto, description: 'No or invalid token' })
@UseGuards(JwtAuthGuard)
@Controller('wishlist')
export class WishlistController {
  constructor(private readonly wishlist: WishlistService) {}

  @Get()
  @ApiOperation({ summary: 'The wishlist with current product data and notification preferences' })
  @ApiOkResponse({ type: WishlistDto })
  getWishlist(@CurrentUser() user: AuthUser) {
    return this.wishlist.view(user.id);
  }

  @Post('add/:productId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add a product (optional notification preferences; adding again updates them)' })
  @ApiParam({ name: 'productId' })
  @ApiBody({ type: WishlistPreferencesDto, required: false })
  @ApiOkResponse({ type: WishlistDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Product not found"' })
  add(
    @CurrentUser() user: AuthUser,
    @Param('productId') productId: string,
    @Body() dto: WishlistPreferencesDto,
  ) {
    return this.wishlist.add(user.id, productId, dto);
  }

  @Delete('remove/:productId')
  @ApiOperation({ summary: 'Remove a product (idempotent)' })
  @ApiParam({ name: 'productId' })
  @ApiOkResponse({ type: WishlistDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Malformed product id: "Product not found"' })
  remove(@CurrentUser() user: AuthUser, @Param('productId') productId: string) {
    return this.wishlist.remove(user.id, productId);
  }

  @Post('move-to-cart/:productId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move a wished product to the cart (cart rules apply), taking it off the wishlist',
  })
  @ApiParam({ name: 'productId' })
  @ApiBody({ type: MoveToCartDto, required: false })
  @ApiOkResponse({ type: MoveToCartResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Product not in wishlist" or "Product not found"' })
  @ApiConflictResponse({ type: ErrorDto, description: 'Not enough stock, naming the product' })
  async moveToCart(
    @CurrentUser() user: AuthUser,
    @Param('productId') productId: string,
    @Body() dto: MoveToCartDto,
  ) {
    return {
      ...(await this.wishlist.moveToCart(user.id, productId, dto.quantity)),
      message: 'Moved to cart',
    };
  }

  @Patch('notifications/:productId')
  @ApiOperation({ summary: 'Update the notify-on-sale / notify-on-stock preferences of a wished product' })
  @ApiParam({ name: 'productId' })
  @ApiOkResponse({ type: WishlistDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Product not in wishlist"' })
  async updatePreferences(
    @CurrentUser() user: AuthUser,
    @Param('productId') productId: string,
    @Body() dto: WishlistPreferencesDto,
  ) {
    return {
      ...(await this.wishlist.updatePreferences(user.id, productId, dto)),
      message: 'Preferences updated',
    };
  }
}
