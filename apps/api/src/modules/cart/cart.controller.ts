import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
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
import { CartService } from './cart.service';
import { AddToCartDto, CartDto, UpdateCartItemDto } from './dto/cart.dto';

/** Every signed-in user has a cart (admins too: the back office's "Create Order" goes to checkout). */
@ApiTags('cart')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorDto, description: 'No or invalid token' })
@UseGuards(JwtAuthGuard)
@Controller('cart')
export class CartController {
  constructor(private readonly cart: CartService) {}

  @Get()
  @ApiOperation({
    summary: 'The cart with current product data; drops withdrawn or sold-out lines with a notice',
  })
  @ApiOkResponse({ type: CartDto })
  getCart(@CurrentUser() user: AuthUser) {
    return this.cart.view(user.id);
  }

  @Post('add')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add units of a product (default 1, at most 10 per add, never beyond the stock)' })
  @ApiOkResponse({ type: CartDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'Invalid productId or quantity (1 to 10)' })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Product not found" (unknown or withdrawn)' })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'Not enough stock, e.g. "Only 2 left in stock for Shea Butter Cream"',
  })
  add(@CurrentUser() user: AuthUser, @Body() dto: AddToCartDto) {
    return this.cart.add(user.id, dto.productId, dto.quantity);
  }

  @Patch('update/:productId')
  @ApiOperation({ summary: "Set a line's quantity (1 to the stock)" })
  @ApiParam({ name: 'productId' })
  @ApiOkResponse({ type: CartDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Product not found" or "Product not in cart"' })
  @ApiConflictResponse({ type: ErrorDto, description: 'Quantity beyond the stock' })
  update(
    @CurrentUser() user: AuthUser,
    @Param('productId') productId: string,
    @Body() dto: UpdateCartItemDto,
  ) {
    return this.cart.update(user.id, productId, dto.quantity);
  }

  @Delete('remove/:productId')
  @ApiOperation({ summary: 'Remove a line (idempotent)' })
  @ApiParam({ name: 'productId' })
  @ApiOkResponse({ type: CartDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Malformed product id: "Product not found"' })
  remove(@CurrentUser() user: AuthUser, @Param('productId') productId: string) {
    return this.cart.remove(user.id, productId);
  }

  @Delete('clear')
  @ApiOperation({ summary: 'Empty the cart' })
  @ApiOkResponse({ type: CartDto })
  async clear(@CurrentUser() user: AuthUser) {
    return { ...(await this.cart.clear(user.id)), message: 'Cart cleared' };
  }

  @Delete('clearAllFromCart')
  @ApiOperation({ summary: 'Empty the cart (the name the payment success page calls)' })
  @ApiOkResponse({ type: CartDto })
  async clearAll(@CurrentUser() user: AuthUser) {
    return { ...(await this.cart.clear(user.id)), message: 'Cart cleared' };
  }
}
