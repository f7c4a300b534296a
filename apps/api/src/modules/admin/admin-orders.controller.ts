import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ORDER_STATUSES, type OrderStatus } from '@shop/shared';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { sendList } from './list/react-admin';
import { AdminListQuery, ApiAdminList, isSpecListQuery, specList } from './list/spec-list';
import { AdminOrderRowDto, OrderDto, OrderResponseDto } from '../orders/dto/order.dto';
import { OrdersService } from '../orders/orders.service';
import { AccountsService } from '../users/accounts.service';
import { AdminOrderStatusDto } from './dto/admin.dto';
import { withOrderUsers } from './order-users';

/** The spec's `status` of an order is its order status. */
const SPEC_FILTERS = { status: Object.fromEntries(ORDER_STATUSES.map((s) => [s, { status: s }])) };

@ApiTags('admin')
@Controller('admin/orders')
@AdminOnly()
export class AdminOrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly users: AccountsService,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Orders (react-admin list; filter q over id, order number (AN-10042), customer email and name, status, paymentStatus, shippingMethod, createdFrom and createdTo (YYYY-MM-DD, Addis Ababa days, inclusive), user, id)',
  })
  @ApiAdminList('orders', OrderDto, AdminOrderRowDto)
  async list(@Query() query: AdminListQuery, @Res({ passthrough: true }) res: Response) {
    if (isSpecListQuery(query))
      return specList(
        'orders',
        query,
        SPEC_FILTERS,
        (q) => this.orders.listForAdmin(q),
        (records) => withOrderUsers(this.users, records),
      );
    return sendList(res, 'orders', await this.orders.listForAdmin(query));
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One order with items, address, payment status, tracking number and status history',
  })
  @ApiOkResponse({ type: OrderDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.orders.anyOrder(id);
  }

  @Put(':id/status')
  @ApiOperation({
    summary: 'Move the order along the status machine (cancel restores stock); optional tracking number',
  })
  @ApiOkResponse({ type: OrderResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Not a valid move from the current status' })
  async changeStatus(
    @Param('id') id: string,
    @Body() body: AdminOrderStatusDto,
    @CurrentUser() actor: AuthUser,
  ) {
    const order = await this.orders.changeStatus(id, body.status as OrderStatus, actor, body.trackingNumber);
    return { success: true, order, message: 'Order status updated successfully' };
  }
}
