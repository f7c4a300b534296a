import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  normaliseEthiopianPhone,
  parseOrderNumber,
  type OrderStatus,
  type PaymentMethod,
  type PaymentStatus,
  type ShippingMethod,
} from '@shop/shared';
import { FilterQuery, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { NotFoundError } from '../../common/errors/domain-error';
import { findPage, type ListPage, type ListQuery } from '../../common/list-query';
import { escapeRegex, parseObjectId } from '../../common/mongo';
import { GuestOrderTokens } from './guest-order-tokens';
import type { OrderViewer } from './order-access.guard';
import {
  toAdminOrderView,
  toOrderLookupView,
  toOrderView,
  type AdminOrderView,
  type OrderLookupView,
  type OrderRecord,
  type OrderView,
} from './order.view';
import { Order } from './schemas/order.schema';

export const ORDER_NOT_FOUND = 'Order not found';
/** At most this many orders match an id fragment, so a one-character search cannot list the whole shop. */
const MAX_ID_MATCHES = 1000;

/** The back office's order list filter, as the admin module read it from its protocol. */
export interface OrderListFilter {
  /** Any part of the order id, the order number (AN-10042), the customer's email or name (literal text). */
  q?: string;
  statuses?: readonly OrderStatus[];
  paymentStatuses?: readonly PaymentStatus[];
  paymentMethods?: readonly PaymentMethod[];
  shippingMethods?: readonly ShippingMethod[];
  /** Placed at or after / at or before these instants. */
  createdFrom?: Date;
  createdTo?: Date;
  /** The customers' account ids (24 hex). */
  users?: readonly string[];
}

/** Reading orders: one's own, one for its owner or staff, the back office's list, the reviews' check. */
@Injectable()
export class OrderQueries {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly tokens: GuestOrderTokens,
  ) {}

  /** The user's orders, newest first. */
  async myOrders(user: AuthUser): Promise<OrderView[]> {
    const docs = await this.orders
      .find({ user: new Types.ObjectId(user.id) })
      .sort({ createdAt: -1, _id: -1 })
      .lean()
      .exec();
    return docs.map((d) => toOrderView(d as OrderRecord));
  }

  /** One order, for its owner, an admin or the holder of its guest token; to anyone else it does not exist. */
  async getOrder(id: string, viewer: OrderViewer): Promise<OrderView> {
    return toOrderView(await this.visibleRecord(id, viewer.user, viewer.orderToken));
  }

  /**
   * GET /api/orders/lookup: the order with this number, if `phone` is the phone it was placed with
   * (the guest's, or the delivery phone); null for a wrong number and a wrong phone alike.
   */
  async lookup(number: string, phone: string): Promise<OrderLookupView | null> {
    const orderNumber = parseOrderNumber(number);
    const e164 = normaliseEthiopianPhone(phone);
    if (!orderNumber || !e164) return null;
    const order = (await this.orders.findOne({ orderNumber }).lean().exec()) as OrderRecord | null;
    if (!order) return null;
    const phones = [order.customer?.phone, order.shippingAddress?.phone].filter(Boolean);
    return phones.includes(e164) ? toOrderLookupView(order) : null;
  }

  /** One order of any customer (the back office). */
  async anyOrder(id: string): Promise<AdminOrderView> {
    const doc = await this.orders
      .findById(parseObjectId(id, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND'))
      .lean()
      .exec();
    if (!doc) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    return toAdminOrderView(doc as OrderRecord);
  }

  /**
   * The stored order, for its owner, an admin, or (a guest's order) the holder of its token; to
   * anyone else it does not exist (404), another order's token included.
   */
  async visibleRecord(id: string, viewer: AuthUser | undefined, orderToken?: string): Promise<OrderRecord> {
    const order = (await this.orders
      .findById(parseObjectId(id, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND'))
      .lean()
      .exec()) as OrderRecord | null;
    if (!order || !this.mayView(order, viewer, orderToken))
      throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    return order;
  }

  /** Whether the viewer may see the order: an admin, its account, or its guest token. */
  mayView(
    order: Pick<OrderRecord, '_id' | 'user' | 'createdAt'>,
    viewer: AuthUser | undefined,
    orderToken?: string,
  ): boolean {
    if (viewer && (viewer.role === 'admin' || (order.user && String(order.user) === viewer.id))) return true;
    return this.tokens.accepts(order, orderToken);
  }

  /** The back office list: one page of the orders matching the filter. */
  async listForAdmin(query: ListQuery<OrderListFilter>): Promise<ListPage<OrderView>> {
    const { q, statuses, paymentStatuses, paymentMethods, shippingMethods, createdFrom, createdTo, users } =
      query.filter;
    const where: FilterQuery<Order> = {};
    if (statuses) where.status = { $in: [...statuses] };
    if (paymentStatuses) where.paymentStatus = { $in: [...paymentStatuses] };
    if (paymentMethods) where.paymentMethod = { $in: [...paymentMethods] };
    if (shippingMethods) where.shippingMethod = { $in: [...shippingMethods] };
    if (createdFrom || createdTo)
      where.createdAt = {
        ...(createdFrom ? { $gte: createdFrom } : {}),
        ...(createdTo ? { $lte: createdTo } : {}),
      };
    // the Order schema declares its references with `Types.ObjectId`, which @nestjs/mongoose turns
    // into Mixed, so an id written as a string stays a string: match both forms
    if (users) where.user = { $in: users.flatMap((id) => [new Types.ObjectId(id), id]) };
    if (q) where.$or = await this.textMatch(q);
    return findPage(this.orders, where, query, (docs) => docs.map((d) => toOrderView(d)));
  }

  /** Whether the customer has a delivered order with this product (a verified review). */
  async hasDelivered(user: Types.ObjectId, product: Types.ObjectId): Promise<boolean> {
    // references may be stored as strings (see listForAdmin): match both forms
    return !!(await this.orders.exists({
      user: { $in: [user, String(user)] },
      status: 'delivered',
      'orderItems.product': { $in: [product, String(product)] },
    }));
  }

  /**
   * The admin table shows the last 6 characters of an order id, so q matches any part of the id,
   * the order number, and the customer's email and name (always as literal text).
   */
  private async textMatch(q: string): Promise<FilterQuery<Order>[]> {
    const pattern = new RegExp(escapeRegex(q), 'i');
    const or: FilterQuery<Order>[] = [
      { 'customer.email': pattern },
      { 'customer.name': pattern },
      // a guest is found by its phone too
      { 'customer.phone': pattern },
    ];
    // The order number the customer quotes ("AN-10042", "#an-10042" or just "10042"), exactly.
    const orderNumber = parseOrderNumber(q);
    if (orderNumber) or.push({ orderNumber });
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
