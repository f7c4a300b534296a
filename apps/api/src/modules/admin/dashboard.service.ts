import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { LOW_STOCK_THRESHOLD, toBirr } from '@shop/shared';
import { Model, Types } from 'mongoose';
import { Product } from '../catalog/schemas/product.schema';
import { Order } from '../orders/schemas/order.schema';
import { SettingsService } from '../settings/settings.service';
import { User } from '../users/schemas/user.schema';
import { orderUsers } from './order-users';

const DAY_MS = 24 * 60 * 60 * 1000;
const CHART_DAYS = 7;
const TOP_PRODUCTS = 5;
const RECENT_ORDERS = 5;
const RECENT_ACTIVITY = 10;
const LOW_STOCK_ITEMS = 20;

/** Revenue counts paid orders that are not cancelled (refunded ones are no longer 'paid'). */
const SOLD = { paymentStatus: 'paid', status: { $ne: 'cancelled' } };

/** 'YYYY-MM-DD' of an instant in a timezone. */
export function localDay(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** The last `count` calendar days in the timezone, oldest first, ending with today. */
export function lastDays(now: Date, timeZone: string, count: number): string[] {
  const [y, m, d] = localDay(now, timeZone).split('-').map(Number);
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(y, m - 1, d - (count - 1 - i))).toISOString().slice(0, 10),
  );
}

/**
 * The dashboard figures of SPEC section 3 as settled by DECISIONS.md. Every figure is an
 * aggregation or a count on the server; no query loads every order.
 */
@Injectable()
export class DashboardService {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly settings: SettingsService,
  ) {}

  async stats(now = new Date()) {
    const { currency, timezone } = await this.settings.get();
    const [
      totalOrders,
      totals,
      totalUsers,
      totalProducts,
      salesData,
      topSellingProducts,
      recentOrders,
      recentActivity,
      lowStockItems,
    ] = await Promise.all([
      this.orders.countDocuments({}).exec(),
      this.totals(),
      this.users.countDocuments({}).exec(),
      this.products.countDocuments({ active: true }).exec(),
      this.salesByDay(now, timezone),
      this.topSelling(),
      this.recentOrders(),
      this.recentActivity(),
      this.lowStock(),
    ]);
    return {
      totalOrders,
      totalRevenue: toBirr(totals.revenueSantim),
      itemsSold: totals.itemsSold,
      totalUsers,
      totalProducts,
      salesData,
      topSellingProducts,
      recentOrders,
      recentActivity,
      lowStockItems,
      // SPEC section 7's reader takes this name (DECISIONS.md, revised): the same list
      lowStockProducts: lowStockItems,
      currency,
      timezone,
    };
  }

  private async totals(): Promise<{ revenueSantim: number; itemsSold: number }> {
    const [row] = await this.orders
      .aggregate<{ revenueSantim: number; itemsSold: number }>([
        { $match: SOLD },
        { $project: { totalAmountSantim: 1, items: { $sum: '$orderItems.quantity' } } },
        {
          $group: { _id: null, revenueSantim: { $sum: '$totalAmountSantim' }, itemsSold: { $sum: '$items' } },
        },
      ])
      .exec();
    return { revenueSantim: row?.revenueSantim ?? 0, itemsSold: row?.itemsSold ?? 0 };
  }

  /** One entry per day of the last 7 in the shop's timezone, days without sales included. */
  private async salesByDay(now: Date, timezone: string) {
    const days = lastDays(now, timezone, CHART_DAYS);
    // a window one day wider than the chart on each side; the days outside it are dropped below
    const from = new Date(now.getTime() - (CHART_DAYS + 1) * DAY_MS);
    const rows = await this.orders
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
            totalSantim: { $sum: '$totalAmountSantim' },
            orders: { $sum: 1 },
          },
        },
      ])
      .exec();
    const byDay = new Map(rows.map((r) => [r._id, r]));
    return days.map((day) => ({
      _id: day,
      totalSales: toBirr(byDay.get(day)?.totalSantim ?? 0),
      orders: byDay.get(day)?.orders ?? 0,
    }));
  }

  private async topSelling() {
    const rows = await this.orders
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
        { $limit: TOP_PRODUCTS },
      ])
      .exec();
    const ids = rows.map((r) => String(r._id)).filter((id) => Types.ObjectId.isValid(id));
    const products = await this.products
      .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) } }, { name: 1, priceSantim: 1, images: 1 })
      .lean()
      .exec();
    const byId = new Map(products.map((p) => [String(p._id), p]));
    return rows.map((r) => {
      const product = byId.get(String(r._id));
      // a product removed since keeps the name and price it was sold under
      return {
        _id: String(r._id),
        totalQuantity: r.totalQuantity,
        productDetails: {
          name: product?.name ?? r.name,
          price: toBirr(product?.priceSantim ?? r.priceSantim),
          ...(product?.images?.[0] ? { image: product.images[0] } : {}),
        },
      };
    });
  }

  private async recentOrders() {
    const docs = await this.orders
      .find({}, { user: 1, customer: 1, totalAmountSantim: 1, status: 1, paymentStatus: 1, createdAt: 1 })
      .sort({ createdAt: -1, _id: -1 })
      .limit(RECENT_ORDERS)
      .lean()
      .exec();
    const users = await orderUsers(this.users, docs);
    return docs.map((o, i) => ({
      _id: String(o._id),
      id: String(o._id),
      user: users[i],
      customer: { name: o.customer?.name ?? '', email: o.customer?.email ?? '' },
      totalAmount: toBirr(o.totalAmountSantim),
      status: o.status,
      paymentStatus: o.paymentStatus,
      createdAt: o.createdAt,
    }));
  }

  /** The latest order events (placed, processed, shipped...), newest first, from the status histories. */
  private async recentActivity() {
    const rows = await this.orders
      .aggregate<{
        _id: unknown;
        event: { status: string; at: Date };
        customer?: { name?: string };
        totalAmountSantim: number;
      }>([
        { $sort: { updatedAt: -1, _id: -1 } },
        // every event of the list belongs to one of the most recently changed orders
        { $limit: RECENT_ACTIVITY },
        {
          $project: {
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
        { $limit: RECENT_ACTIVITY },
      ])
      .exec();
    return rows.map((r) => ({
      orderId: String(r._id),
      status: r.event.status,
      at: r.event.at,
      customerName: r.customer?.name ?? '',
      totalAmount: toBirr(r.totalAmountSantim),
    }));
  }

  private async lowStock() {
    const docs = await this.products
      .find(
        { active: true, stock: { $lte: LOW_STOCK_THRESHOLD } },
        { name: 1, stock: 1, priceSantim: 1, images: 1 },
      )
      .sort({ stock: 1, name: 1 })
      .limit(LOW_STOCK_ITEMS)
      .lean()
      .exec();
    return docs.map((p) => ({
      _id: String(p._id),
      name: p.name,
      stock: p.stock,
      price: toBirr(p.priceSantim),
      ...(p.images?.[0] ? { image: p.images[0] } : {}),
    }));
  }
}
