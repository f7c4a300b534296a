import {
  Body,
  Controller,
  Get,
  Headers,
  HttpException,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
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
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { parseOrderNumber, type OrderStatus } from '@shop/shared';
import type { Request, Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly, JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { NotFoundError } from '../../common/errors/domain-error';
import { RateCounters } from '../../common/rate-limit';
import {
  OrderDto,
  OrderListResponseDto,
  OrderResponseDto,
  PlacedOrderResponseDto,
  PlaceOrderDto,
} from './dto/order.dto';
import { OrderLookupQueryDto, OrderLookupResponseDto } from './dto/order-lookup.dto';
import { ChangeOrderStatusDto } from './dto/staff-order-input.dto';
import { CurrentViewer, OrderAccessGuard, OrderPlacerGuard, type OrderViewer } from './order-access.guard';
import { OrderPlacement } from './order-placement.service';
import { ORDER_NOT_FOUND, OrderQueries } from './order-queries.service';
import { OrderStatusService } from './order-status.service';

/** Failed lookups allowed per client IP and per order number in a minute; the next answers 429. */
const LOOKUP_FAILURES = 5;
const LOOKUP_WINDOW_MS = 60_000;

/** The X-Order-Token header, documented on the routes that take it. */
const OrderTokenHeader = () =>
  ApiHeader({
    name: 'X-Order-Token',
    required: false,
    description: "A guest's order token (guestAccessToken of the placement), instead of a Bearer token",
  });

@ApiTags('orders')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorDto, description: 'No or invalid token' })
@Controller('orders')
export class OrdersController {
  constructor(
    private readonly placement: OrderPlacement,
    private readonly queries: OrderQueries,
    private readonly statuses: OrderStatusService,
    private readonly counters: RateCounters,
  ) {}

  @Post()
  @UseGuards(OrderPlacerGuard)
  @ApiOperation({
    summary: "Place an order from the signed-in user's cart, or from a guest's cart",
    description:
      'Items come from the server-side cart; prices, shipping (settings rates) and 15% tax are computed by the server. ' +
      'Stock is reserved for every line or for none. The ordered lines leave the cart. Guest checkout: no token, ' +
      'the guest cart in X-Cart-Id (or its cookie) and `guest` in the body; the answer then carries the ' +
      'guestAccessToken that opens the order (X-Order-Token). Without a token and a guest cart: 401.',
  })
  @ApiHeader({
    name: 'X-Cart-Id',
    required: false,
    description: 'Guest checkout: the guest cart to order from (ignored with a token)',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Any unique string (1-255 visible ASCII characters); a retry with the same key answers the same order (200) and never makes a second one',
  })
  @ApiCreatedResponse({ type: PlacedOrderResponseDto, description: 'Order placed' })
  @ApiOkResponse({
    type: PlacedOrderResponseDto,
    description:
      'Replay: the order (and a guest its token) an earlier request with the same Idempotency-Key made',
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
    description:
      'COD_UNAVAILABLE: pay on delivery not offered for this order (nothing changed); or the Idempotency-Key was ' +
      'already used for a different order request',
  })
  async placeOrder(
    @CurrentViewer() viewer: OrderViewer,
    @Body() dto: PlaceOrderDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { order, replayed, guestAccessToken } = await this.placement.placeOrder(
      viewer,
      dto,
      idempotencyKey,
    );
    res.status(replayed ? 200 : 201);
    return { success: true, order, ...(guestAccessToken ? { guestAccessToken } : {}) };
  }

  @Get('lookup')
  @ApiOperation({
    summary: "An order's state for whoever knows its number and phone (no account needed)",
    description:
      'Answers a reduced view: state, lines (name, quantity), totals, city and region, history; never the street, ' +
      'phone, email or name. A wrong number and a wrong phone answer the same 404. After 5 failed tries in a ' +
      'minute from one client or for one order number: 429 TOO_MANY_ATTEMPTS.',
  })
  @ApiOkResponse({ type: OrderLookupResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Order not found" (wrong number or wrong phone)' })
  @ApiTooManyRequestsResponse({ type: ErrorDto, description: 'TOO_MANY_ATTEMPTS' })
  async lookup(
    @Query() query: OrderLookupQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('Cache-Control', 'no-store');
    // every try counts until it succeeds (a success is taken back), so that parallel guesses are
    // counted before they are answered
    const keys = [
      `lookup:ip:${req.ip || req.socket.remoteAddress || 'unknown'}`,
      // one counter per order, however its number is written (AN-10042, an-10042, 10042)
      `lookup:number:${parseOrderNumber(query.number) ?? query.number.trim().toUpperCase().slice(0, 40)}`,
    ];
    for (const key of keys) {
      const { count, resetInMs } = await this.counters.hit(key, LOOKUP_WINDOW_MS);
      if (count > LOOKUP_FAILURES) {
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(resetInMs / 1000))));
        throw new HttpException(
          { message: 'Too many attempts, please try again in a minute', code: 'TOO_MANY_ATTEMPTS' },
          HttpStatus.TOO_MANY_REQUESTS,
        );
      }
    }
    const order = await this.queries.lookup(query.number, query.phone);
    if (!order) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    await Promise.all(keys.map((key) => this.counters.unhit(key)));
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
  @UseGuards(OrderAccessGuard)
  @OrderTokenHeader()
  @ApiOperation({
    summary:
      "One order (its owner, an admin, or a guest with the order's X-Order-Token; anyone else gets 404)",
    description:
      'Answers the order document itself (like GET /api/products/{id}); each line carries the product as bought.',
  })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: OrderDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Order not found"' })
  getOrder(@CurrentViewer() viewer: OrderViewer, @Param('id') id: string) {
    return this.queries.getOrder(id, viewer);
  }

  @Patch(':id/cancel')
  @UseGuards(OrderAccessGuard)
  @OrderTokenHeader()
  @ApiOperation({
    summary:
      'Cancel an order while it is pending or processing; stock is restored, a paid order is flagged for refund',
    description:
      "Its owner (or an admin) with a token, or a guest with the order's X-Order-Token; anyone else gets 404.",
  })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: OrderResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Order not found"' })
  @ApiConflictResponse({ type: ErrorDto, description: 'e.g. "Cannot cancel an order that is shipped"' })
  async cancel(@CurrentViewer() viewer: OrderViewer, @Param('id') id: string) {
    return { success: true, order: await this.statuses.cancel(id, viewer), message: 'Order cancelled' };
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
    description:
      'INVALID_STATUS_TRANSITION, e.g. "Cannot change order status from delivered to pending"; ORDER_NOT_PAID: ' +
      'processing or shipped for an online order not paid (pay on delivery may)',
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
