import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  SHIPPING_METHODS,
  type OrderStatus,
  type PaymentMethod,
  type PaymentStatus,
  type ShippingMethod,
} from '@shop/shared';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { InvalidDataError } from '../../common/errors/domain-error';
import {
  filterEnum,
  filterIds,
  filterText,
  readListQuery,
  sendList,
  type FilterValue,
  type ListSpec,
  type ReactAdminListQuery,
} from '../../common/react-admin-list';
import { AdminListQuery, ApiAdminList, isSpecListQuery, specList } from './list/spec-list';
import {
  AdminOrderDto,
  AdminOrderResponseDto,
  AdminOrderRowDto,
  CollectPaymentDto,
  OrderDto,
  OrderResponseDto,
} from '../orders/dto/order.dto';
import { AddOrderNoteDto, RecordRefundDto } from '../orders/dto/staff-order-input.dto';
import { OrderNotes } from '../orders/order-notes.service';
import { PaymentRefunds } from '../payments/payments.module';
import { OrderPayments } from '../orders/order-payments.service';
import { OrderQueries, type OrderListFilter } from '../orders/order-queries.service';
import { OrderStatusService } from '../orders/order-status.service';
import { AccountsService } from '../users/accounts.service';
import { AdminOrderStatusDto } from './dto/admin.dto';
import { withOrderUsers } from './order-users';

/** The shop's days are Addis Ababa days (UTC+3, no daylight saving). */
const SHOP_UTC_OFFSET = '+03:00';

/**
 * A day filter (`YYYY-MM-DD`, as react-admin's DateInput sends it) as the first or last instant of
 * that day in Addis Ababa; anything else is a 400.
 */
export function filterDay(
  filter: Record<string, FilterValue>,
  key: string,
  edge: 'start' | 'end',
): Date | undefined {
  const value = filter[key];
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const date = day
    ? new Date(`${text}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}${SHOP_UTC_OFFSET}`)
    : undefined;
  // 2026-02-30 parses to a day in March: refuse days that do not exist
  const real =
    date &&
    !Number.isNaN(date.getTime()) &&
    new Date(date.getTime() + 3 * 3600_000).toISOString().slice(0, 10) === text;
  if (!real)
    throw new InvalidDataError(
      'Invalid filter parameter',
      [{ field: 'filter', message: `filter ${key} must be a day as YYYY-MM-DD` }],
      'INVALID_LIST_PARAMETER',
      { field: 'filter' },
    );
  return date;
}

/** The orders list: sortable fields and filters (q over the order id and number and the customer's email or name). */
const LIST: ListSpec = {
  sortFields: {
    createdAt: 'createdAt',
    status: 'status',
    paymentStatus: 'paymentStatus',
    totalAmount: 'totalAmountSantim',
    'customer.email': 'customer.email',
    'customer.name': 'customer.name',
    orderNumber: 'orderNumber',
  },
  filters: [
    'q',
    'status',
    'paymentStatus',
    'paymentMethod',
    'shippingMethod',
    'createdFrom',
    'createdTo',
    'user',
  ],
  defaultSort: ['createdAt', 'DESC'],
};

function orderFilter(filter: Record<string, FilterValue>): OrderListFilter {
  return {
    q: filterText(filter, 'q'),
    statuses: filterEnum(filter, 'status', ORDER_STATUSES) as OrderStatus[] | undefined,
    paymentStatuses: filterEnum(filter, 'paymentStatus', PAYMENT_STATUSES) as PaymentStatus[] | undefined,
    paymentMethods: filterEnum(filter, 'paymentMethod', PAYMENT_METHODS) as PaymentMethod[] | undefined,
    shippingMethods: filterEnum(filter, 'shippingMethod', SHIPPING_METHODS) as ShippingMethod[] | undefined,
    createdFrom: filterDay(filter, 'createdFrom', 'start'),
    createdTo: filterDay(filter, 'createdTo', 'end'),
    users: filterIds(filter, 'user'),
  };
}

/** A react-admin list call as the orders' typed query (400 on anything malformed). */
export const listQuery = (raw: ReactAdminListQuery) => readListQuery(raw, LIST, orderFilter);

/** The spec's `status` of an order is its order status. */
const SPEC_FILTERS = { status: Object.fromEntries(ORDER_STATUSES.map((s) => [s, { status: s }])) };

@ApiTags('admin')
@Controller('admin/orders')
@AdminOnly()
export class AdminOrdersController {
  constructor(
    private readonly orders: OrderQueries,
    private readonly statuses: OrderStatusService,
    private readonly users: AccountsService,
    private readonly payments: OrderPayments,
    private readonly refunds: PaymentRefunds,
    private readonly notes: OrderNotes,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Orders (react-admin list; filter q over id, order number (AN-10042), customer email and name, status, paymentStatus, paymentMethod, shippingMethod, createdFrom and createdTo (YYYY-MM-DD, Addis Ababa days, inclusive), user, id)',
  })
  @ApiAdminList('orders', OrderDto, AdminOrderRowDto)
  async list(@Query() query: AdminListQuery, @Res({ passthrough: true }) res: Response) {
    if (isSpecListQuery(query))
      return specList(
        'orders',
        query,
        SPEC_FILTERS,
        (q) => this.orders.listForAdmin(listQuery(q)),
        (records) => withOrderUsers(this.users, records),
      );
    return sendList(res, 'orders', await this.orders.listForAdmin(listQuery(query)));
  }

  @Get(':id')
  @ApiOperation({
    summary:
      'One order with items, address, payment status, tracking number, status history, refunds and internal notes (staff only)',
  })
  @ApiOkResponse({ type: AdminOrderDto })
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
  @ApiConflictResponse({
    type: ErrorDto,
    description:
      'INVALID_STATUS_TRANSITION: not a valid move from the current status; ORDER_NOT_PAID: processing or shipped for an online order not paid (pay on delivery may)',
  })
  async changeStatus(
    @Param('id') id: string,
    @Body() body: AdminOrderStatusDto,
    @CurrentUser() actor: AuthUser,
  ) {
    const order = await this.statuses.changeStatus(
      id,
      body.status as OrderStatus,
      actor,
      body.trackingNumber,
    );
    return { success: true, order, message: 'Order status updated successfully' };
  }

  @Post(':id/payment/collected')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Record the money the rider collected for a pay-on-delivery order (unpaid → paid, audited)',
    description:
      'paidAt is now; paymentReference the reference if given. Only once, only for an unpaid, not cancelled ' +
      'cash_on_delivery order: anything else is 409 PAYMENT_NOT_COLLECTABLE.',
  })
  @ApiOkResponse({ type: OrderResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'PAYMENT_NOT_COLLECTABLE: not pay on delivery, not unpaid, or cancelled',
  })
  async paymentCollected(
    @Param('id') id: string,
    @Body() body: CollectPaymentDto,
    @CurrentUser() actor: AuthUser,
  ) {
    const order = await this.payments.markCollected(id, actor, body.reference);
    return { success: true, order, message: 'Payment recorded' };
  }

  @Post(':id/refunds')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Record a refund of a paid order (full or a part with a reason), audited, the customer told',
    description:
      "method 'chapa': given back through Chapa's refund API on the paid transaction; 'manual': given back " +
      'otherwise, with its reference. paid | refund_pending | partially_refunded → refunded (all of the paid ' +
      'amount back) or partially_refunded.',
  })
  @ApiOkResponse({ type: AdminOrderResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({
    type: ErrorDto,
    description:
      'NOT_REFUNDABLE: not paid or fully refunded; REFUND_EXCEEDS_PAID: more than the paid amount minus earlier refunds; REFUND_METHOD_UNAVAILABLE: chapa for an order not paid through Chapa',
  })
  async refund(@Param('id') id: string, @Body() body: RecordRefundDto, @CurrentUser() actor: AuthUser) {
    const order = await this.refunds.refund(id, actor, body);
    return { success: true, order, message: 'Refund recorded' };
  }

  @Post(':id/notes')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add an internal note to an order (staff only, audited; never shown to customers)',
  })
  @ApiCreatedResponse({ type: AdminOrderResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async addNote(@Param('id') id: string, @Body() body: AddOrderNoteDto, @CurrentUser() actor: AuthUser) {
    const order = await this.notes.add(id, actor, body.text);
    return { success: true, order, message: 'Note added' };
  }
}
