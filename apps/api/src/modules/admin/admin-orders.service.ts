import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ORDER_STATUSES, PAYMENT_STATUSES, type OrderStatus } from '@shop/shared';
import { FilterQuery, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { NotFoundError } from '../../common/errors/domain-error';
import { escapeRegex, parseObjectId } from '../../common/mongo';
import {
  filterEnum,
  filterIds,
  filterObjectIds,
  filterText,
  parseListQuery,
  type ReactAdminListQuery,
} from '../../common/react-admin';
import { OrdersService, toOrderView, type OrderView } from '../orders/orders.module';
import { Order } from '../orders/schemas/order.schema';
import { User } from '../users/schemas/user.schema';
import { orderUsers } from './order-users';

const ORDER_NOT_FOUND = 'Order not found';
/** At most this many orders match an id fragment, so a one-character search cannot list the whole shop. */
const MAX_ID_MATCHES = 1000;

type LeanOrder = Parameters<typeof toOrderView>[0];

/** Orders for the back office; status changes go through OrdersService and its status machine. */
@Injectable()
export class AdminOrdersService {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly ordersService: OrdersService,
  ) {}

  /** The spec's list rows: each order's `user` populated as `{ _id, name, email }`. */
  async withUsers(records: OrderView[]) {
    const users = await orderUsers(this.users, records);
    return records.map((order, i) => ({ ...order, user: users[i] }));
  }

  /** react-admin list: filters status, paymentStatus, user, id, and q over the order id and the customer's email or name. */
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
      filters: ['q', 'status', 'paymentStatus', 'user'],
      defaultSort: ['createdAt', 'DESC'],
    });
    const where: FilterQuery<Order> = {};
    const ids = filterObjectIds(filter);
    if (ids) where._id = { $in: ids };
    const statuses = filterEnum(filter, 'status', ORDER_STATUSES);
    if (statuses) where.status = { $in: statuses };
    const payments = filterEnum(filter, 'paymentStatus', PAYMENT_STATUSES);
    if (payments) where.paymentStatus = { $in: payments };
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
