import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Order } from './schemas/order.schema';

/**
 * Revenue counts paid orders that are not cancelled, net of refunds (docs/decisions/0080): a partly
 * refunded order counts what the shop kept; a fully refunded one no longer counts.
 */
const SOLD = { paymentStatus: { $in: ['paid', 'partially_refunded'] }, status: { $ne: 'cancelled' } };
/** What the shop kept of an order: its total minus what went back. */
const NET_SANTIM = { $subtract: ['$totalAmountSantim', { $ifNull: ['$refundedSantim', 0] }] };

/**
 * The figures the back office's dashboard reads from orders, each one aggregation or count on the
 * server (no query loads every order). Amounts stay in santim; the dashboard presents them.
 */
@Injectable()
export class OrderReportsService {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  count(): Promise<number> {
    return this.orders.countDocuments({}).exec();
  }

  async salesTotals(): Promise<{ revenueSantim: number; itemsSold: number }> {
    const [row] = await this.orders
      .aggregate<{ revenueSantim: number; itemsSold: number }>([
        { $match: SOLD },
        { $project: { netSantim: NET_SANTIM, items: { $sum: '$orderItems.quantity' } } },
        {
          $group: { _id: null, revenueSantim: { $sum: '$netSantim' }, itemsSold: { $sum: '$items' } },
        },
      ])
      .exec();
    return { revenueSantim: row?.revenueSantim ?? 0, itemsSold: row?.itemsSold ?? 0 };
  }

  /** Sales per local day ('YYYY-MM-DD' in `timezone`) of orders placed since `from`. */
  salesByDay(from: Date, timezone: string) {
    return this.orders
      .aggregate<{ _id: string; totalSantim: number; orders: number }>([
        { $match: { ...SOLD, createdAt: { $gte: from } } },
        {
          $group: {
            // 'Etc/UTC' is the Olson name every engine knows (the embedded one refuses the bare 'UTC')
            _id: {
              $dateToString: {
                format: '%Y-%m-%d',
                date: '$createdAt',
                timezone: timezone === 'UTC' ? 'Etc/UTC' : timezone,
              },
            },
            totalSantim: { $sum: NET_SANTIM },
            orders: { $sum: 1 },
          },
        },
      ])
      .exec();
  }

  /**
   * Sales placed in [from, to) grouped by the delivery region (`shippingAddress.state`) or the
   * payment method: orders and net amount per group, largest first (docs/decisions/0081).
   */
  salesBy(key: 'region' | 'paymentMethod', from: Date, to: Date) {
    return this.orders
      .aggregate<{ _id: string | null; totalSantim: number; orders: number }>([
        { $match: { ...SOLD, createdAt: { $gte: from, $lt: to } } },
        {
          $group: {
            _id: key === 'region' ? '$shippingAddress.state' : '$paymentMethod',
            totalSantim: { $sum: NET_SANTIM },
            orders: { $sum: 1 },
          },
        },
        { $sort: { totalSantim: -1, _id: 1 } },
      ])
      .exec();
  }

  /** The best sellers by quantity, with the name and price they were last sold under. */
  topSelling(limit: number) {
    return this.orders
      .aggregate<{ _id: unknown; totalQuantity: number; name: string; priceSantim: number }>([
        { $match: SOLD },
        { $unwind: '$orderItems' },
        {
          $group: {
            _id: '$orderItems.product',
            totalQuantity: { $sum: '$orderItems.quantity' },
            name: { $last: '$orderItems.name' },
            priceSantim: { $last: '$orderItems.priceAtPurchaseSantim' },
          },
        },
        { $sort: { totalQuantity: -1, _id: 1 } },
        { $limit: limit },
      ])
      .exec();
  }

  recentOrders(limit: number) {
    return this.orders
      .find(
        {},
        {
          orderNumber: 1,
          user: 1,
          customer: 1,
          totalAmountSantim: 1,
          status: 1,
          paymentStatus: 1,
          createdAt: 1,
        },
      )
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .lean()
      .exec();
  }

  /** The latest order events (placed, processed, shipped...), newest first, from the status histories. */
  recentActivity(limit: number) {
    return this.orders
      .aggregate<{
        _id: unknown;
        orderNumber?: string;
        event: { status: string; at: Date };
        customer?: { name?: string };
        totalAmountSantim: number;
      }>([
        { $sort: { updatedAt: -1, _id: -1 } },
        // every event of the list belongs to one of the most recently changed orders
        { $limit: limit },
        {
          $project: {
            orderNumber: 1,
            customer: 1,
            totalAmountSantim: 1,
            event: {
              $cond: [
                { $gt: [{ $size: { $ifNull: ['$statusHistory', []] } }, 0] },
                '$statusHistory',
                [{ status: '$status', at: '$createdAt' }],
              ],
            },
          },
        },
        { $unwind: '$event' },
        { $sort: { 'event.at': -1, _id: -1 } },
        { $limit: limit },
      ])
      .exec();
  }
}
