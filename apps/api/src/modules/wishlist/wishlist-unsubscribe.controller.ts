import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorDto } from '../../common/error.dto';
import { UnsubscribeDto, UnsubscribeRequestDto } from './dto/wishlist.dto';
import { WishlistService } from './wishlist.service';

/**
 * The unsubscribe link of wishlist notices: public (no sign-in), the link's HMAC signature is the
 * proof. Reading it changes nothing (mail scanners open links); the storefront's page POSTs to stop.
 */
@ApiTags('wishlist')
@Controller('wishlist/unsubscribe')
export class WishlistUnsubscribeController {
  constructor(private readonly wishlist: WishlistService) {}

  @Get()
  @ApiOperation({ summary: 'What an unsubscribe link stops, and whether it is still on (public)' })
  @ApiQuery({ name: 'token', required: true })
  @ApiOkResponse({ type: UnsubscribeDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'UNSUBSCRIBE_INVALID' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'PRODUCT_NOT_FOUND (deleted product)' })
  describe(@Query('token') token: string) {
    return this.wishlist.describeUnsubscribe(token);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Stop one wishlist notice (on sale or back in stock) for one product (public, idempotent)',
  })
  @ApiBody({ type: UnsubscribeRequestDto })
  @ApiOkResponse({ type: UnsubscribeDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'UNSUBSCRIBE_INVALID or VALIDATION_FAILED' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'PRODUCT_NOT_FOUND (deleted product)' })
  unsubscribe(@Body() dto: UnsubscribeRequestDto) {
    return this.wishlist.unsubscribe(dto.token);
  }
}
