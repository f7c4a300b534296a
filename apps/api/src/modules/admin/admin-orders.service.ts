import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ORDER_STATUSES, PAYMENT_STATUSES, SHIPPING_METHODS, type OrderStatus } from '@shop/shared';
import { FilterQuery, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { escapeRegex, parseObjectId } from '../../common/mongo';
import {
  filterEnum,
  filterIds,
  filterObjectIds,
  filterText,
  parseListQuery,
  type FilterValue,
  type ReactAdminListQuery,
} from '../../common/react-admin';
import { OrdersService, toOrderView } from '../orders/orders.module';
import { Order } from '../orders/schemas/order.schema';

const ORDER_NOT_FOUND = 'Order not found';
/** At most this many orders match an id fragment, so a one-character search cannot list the whole shop. */
const MAX_ID_MATCHES = 1000;

type LeanOrder = Parameters<typeof toOrderView>[0];

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
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = day
    ? new Date(`${text}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}${SHOP_UTC_OFFSET}`)
    : undefined;
  // 2026-02-30 parses to a date in March: refuse days that do not exist
  const real = date && new Date(date.getTime() + 3 * 3600_000).toISOString().slice(0, 10) === text;
  if (!date || Number.isNaN(date.getTime()) || !real)
    throw new InvalidDataError('Invalid filter parameter', [
      { field: 'filter', message: `filter ${key} must be a day as YYYY-MM-DD` },
    ]);
  return date;
}

/** Orders for the back office; status changes go through OrdersService and its status machine. */
@Injectable()
export class AdminOrdersService {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly ordersService: OrdersService,
  ) {}

  /**
   * react-admin list: filters status, paymentStatus, shippingMethod, createdFrom/createdTo (Addis Ababa
   * days, inclusive), user, id, and q over the order id and the customer's email or name.
   */
  async list(query: ReactAdminListQuery) {
    const { sort, skip, limit, filter } = parseListQuery(query, {
      sortFields: {
        createdAt: 'createdAt',
        status: 'status',
        paymentStatus: 'paymentStatus',
        totalAmount: 'totalAmountSantim',
        'customer.email': 'customer.email',
        'customer.name': 'customer.name',
      },
      filters: ['q', 'status', 'paymentStatus', 'shippingMethod', 'createdFrom', 'createdTo', 'user'],
      defaultSort: ['createdAt', 'DESC'],
    });
    const where: FilterQuery<Order> = {};
    const ids = filterObjectIds(filter);
    if (ids) where._id = { $in: ids };
    const statuses = filterEnum(filter, 'status', ORDER_STATUSES);
    if (statuses) where.status = { $in: statuses };
    const payments = filterEnum(filter, 'paymentStatus', PAYMENT_STATUSES);
    if (payments) where.paymentStatus = { $in: payments };
    const methods = filterEnum(filter, 'shippingMethod', SHIPPING_METHODS);
    if (methods) where.shippingMethod = { $in: methods };
    const from = filterDay(filter, 'createdFrom', 'start');
    const to = filterDay(filter, 'createdTo', 'end');
    if (from || to) where.createdAt = { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) };
    const users = filterIds(filter, 'user');
    if (users) where.user = { $in: users.flatMap((id) => [new Types.ObjectId(id), id]) };
    const q = filterText(filter, 'q');
    if (q) where.$or = await this.textMatch(q);
    const [docs, total] = await Promise.all([
      this.orders.find(where).sort(sort).skip(skip).limit(limit).lean().exec(),
      this.orders.countDocuments(where).exec(),
    ]);
    return { records: docs.map((d) => toOrderView(d as LeanOrder)), skip, total };
  }

  async getOne(id: string) {
    const doc = await this.orders.findById(parseObjectId(id, ORDER_NOT_FOUND)).lean().exec();
    if (!doc) throw new NotFoundError(ORDER_NOT_FOUND);
    return toOrderView(doc as LeanOrder);
  }

  changeStatus(id: string, status: OrderStatus, actor: AuthUser, trackingNumber?: string) {
    return this.ordersService.changeStatus(id, status, actor, trackingNumber);
  }

  /**
   * The admin table shows the last 6 characters of an order id, so q matches any part of the id
   * as well as the customer's email and name (always as literal text).
   */
  private async textMatch(q: string): Promise<FilterQuery<Order>[]> {
    const pattern = new RegExp(escapeRegex(q), 'i');
    const or: FilterQuery<Order>[] = [{ 'customer.email': pattern }, { 'customer.name': pattern }];
    const hex = q.toLowerCase().replace(/^#/, '');
    if (/^[a-f0-9]{24}$/.test(hex)) {
      or.push({ _id: new Types.ObjectId(hex) });
    } else if (/^[a-f0-9]{1,23}$/.test(hex)) {
      // ids are compared as text by walking the _id index only (no order bodies are read)
      const matches: Types.ObjectId[] = [];
      const cursor = this.orders.find({}, { _id: 1 }).sort({ _id: -1 }).lean().cursor();
      for await (const doc of cursor) {
        if (String(doc._id).includes(hex)) matches.push(doc._id as Types.ObjectId);
        if (matches.length >= MAX_ID_MATCHES) break;
      }
      await cursor.close();
      if (matches.length) or.push({ _id: { $in: matches } });
    }
    return or;
  }
}
