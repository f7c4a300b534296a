import { Body, Controller, Get, Headers, Param, Patch, Post, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiUnprocessableEntityResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { OrderStatus } from '@shop/shared';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly, JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import {
  ChangeOrderStatusDto,
  OrderDto,
  OrderListResponseDto,
  OrderResponseDto,
  PlaceOrderDto,
} from './dto/order.dto';
import { OrderPlacement } from './order-placement.service';
import { OrderQueries } from './order-queries.service';
import { OrderStatusService } from './order-status.service';

@ApiTags('orders')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorDto, description: 'No or invalid token' })
@Controller('orders')
export class OrdersController {
  constructor(
    private readonly placement: OrderPlacement,
    private readonly queries: OrderQueries,
    private readonly statuses: OrderStatusService,
  ) {}

  @Post()
  @UseGuards(JwtAuthGuard)
  @ApiOperation({
    summary: "Place an order from the signed-in user's cart",
    description:
      'Items come from the server-side cart; prices, shipping (settings rates) and 15% tax are computed by the server. ' +
      'Stock is reserved for every line or for none. The ordered lines leave the cart.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Any unique string (1-255 visible ASCII characters); a retry with the same key answers the same order (200) and never makes a second one',
  })
  @ApiCreatedResponse({ type: OrderResponseDto, description: 'Order placed' })
  @ApiOkResponse({
    type: OrderResponseDto,
    description: 'Replay: the order an earlier request with the same Idempotency-Key made',
  })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: 'Invalid address or method, client-sent prices, or "Your cart is empty"',
  })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'A line is short of stock, e.g. "Shea Butter Cream is out of stock"',
  })
  @ApiUnprocessableEntityResponse({
    type: ErrorDto,
    description: 'The Idempotency-Key was already used for a different order request',
  })
  async placeOrder(
    @CurrentUser() user: AuthUser,
    @Body() dto: PlaceOrderDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { order, replayed } = await this.placement.placeOrder(user, dto, idempotencyKey);
    res.status(replayed ? 200 : 201);
    return { success: true, order };
  }

  @Get('my-orders')
  @UseGuards(JwtAuthGuard)
  @ApiOperation({ summary: "The signed-in user's orders, newest first" })
  @ApiOkResponse({ type: OrderListResponseDto })
  async myOrders(@CurrentUser() user: AuthUser) {
    return { success: true, orders: await this.queries.myOrders(user) };
  }

  @Get(':id')
  @UseGuards(JwtAuthGuard)
  @ApiOperation({
    summary: 'One order (its owner or an admin; anyone else gets 404)',
    description:
      'Answers the order document itself (like GET /api/products/{id}); each line carries the product as bought.',
  })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: OrderDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Order not found"' })
  getOrder(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return this.queries.getOrder(id, user);
  }

  @Patch(':id/cancel')
  @UseGuards(JwtAuthGuard)
  @ApiOperation({
    summary:
      'Cancel an order while it is pending or processing; stock is restored, a paid order is flagged for refund',
  })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: OrderResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Order not found"' })
  @ApiConflictResponse({ type: ErrorDto, description: 'e.g. "Cannot cancel an order that is shipped"' })
  async cancel(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return { success: true, order: await this.statuses.cancel(id, user), message: 'Order cancelled' };
  }

  @Patch(':id/status')
  @AdminOnly()
  @ApiOperation({ summary: 'Change the status (admin), following the order status machine' })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: OrderResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Order not found"' })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'e.g. "Cannot change order status from delivered to pending"',
  })
  async changeStatus(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() dto: ChangeOrderStatusDto,
  ) {
    const order = await this.statuses.changeStatus(id, dto.status as OrderStatus, user, dto.trackingNumber);
    return { success: true, order, message: 'Order status updated' };
  }
}
