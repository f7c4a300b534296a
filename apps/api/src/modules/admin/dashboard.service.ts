import { Injectable } from '@nestjs/common';
import { toBirr } from '@shop/shared';
import { ListingsService } from '../catalog/listings.service';
import { ProductsService } from '../catalog/products.service';
import { StockService } from '../catalog/stock.service';
import { OrderReportsService } from '../orders/order-reports.service';
import { SettingsService } from '../settings/settings.service';
import { AccountsService } from '../users/accounts.service';
import { orderUsers } from './order-users';

const DAY_MS = 24 * 60 * 60 * 1000;
const CHART_DAYS = 7;
const TOP_PRODUCTS = 5;
const RECENT_ORDERS = 5;
const RECENT_ACTIVITY = 10;
const LOW_STOCK_ITEMS = 20;

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
 * The dashboard figures of docs/product.md §3 (and docs/decisions/0033). Every figure is an
 * aggregation or a count on the server; no query loads every order.
 */
@Injectable()
export class DashboardService {
  constructor(
    private readonly orders: OrderReportsService,
    private readonly products: ProductsService,
    private readonly stock: StockService,
    private readonly listings: ListingsService,
    private readonly users: AccountsService,
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
      this.orders.count(),
      this.orders.salesTotals(),
      this.users.count(),
      this.listings.countActive(),
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
      // the spec's reader takes this name (docs/product.md §7, docs/decisions/0012): the same list
      lowStockProducts: lowStockItems,
      currency,
      timezone,
    };
  }

  /** One entry per day of the last 7 in the shop's timezone, days without sales included. */
  private async salesByDay(now: Date, timezone: string) {
    const days = lastDays(now, timezone, CHART_DAYS);
    // a window one day wider than the chart on each side; the days outside it are dropped below
    const from = new Date(now.getTime() - (CHART_DAYS + 1) * DAY_MS);
    const rows = await this.orders.salesByDay(from, timezone);
    const byDay = new Map(rows.map((r) => [r._id, r]));
    return days.map((day) => ({
      _id: day,
      totalSales: toBirr(byDay.get(day)?.totalSantim ?? 0),
      orders: byDay.get(day)?.orders ?? 0,
    }));
  }

  private async topSelling() {
    const rows = await this.orders.topSelling(TOP_PRODUCTS);
    const products = await this.products.productsByIds(
      rows.map((r) => String(r._id)),
      { name: 1, nameAm: 1, priceSantim: 1, images: 1 },
    );
    const byId = new Map(products.map((p) => [String(p._id), p]));
    return rows.map((r) => {
      const product = byId.get(String(r._id));
      // a product removed since keeps the name and price it was sold under
      return {
        _id: String(r._id),
        totalQuantity: r.totalQuantity,
        productDetails: {
          name: product?.name ?? r.name,
          ...(product?.nameAm ? { nameAm: product.nameAm } : {}),
          price: toBirr(product?.priceSantim ?? r.priceSantim),
          ...(product?.images?.[0] ? { image: product.images[0] } : {}),
        },
      };
    });
  }

  private async recentOrders() {
    const docs = await this.orders.recentOrders(RECENT_ORDERS);
    const users = await orderUsers(this.users, docs);
    return docs.map((o, i) => ({
      _id: String(o._id),
      id: String(o._id),
      ...(o.orderNumber ? { orderNumber: o.orderNumber } : {}),
      user: users[i],
      customer: { name: o.customer?.name ?? '', email: o.customer?.email ?? '' },
      totalAmount: toBirr(o.totalAmountSantim),
      status: o.status,
      paymentStatus: o.paymentStatus,
      createdAt: o.createdAt,
    }));
  }

  private async recentActivity() {
    const rows = await this.orders.recentActivity(RECENT_ACTIVITY);
    return rows.map((r) => ({
      orderId: String(r._id),
      ...(r.orderNumber ? { orderNumber: r.orderNumber } : {}),
      status: r.event.status,
      at: r.event.at,
      customerName: r.customer?.name ?? '',
      totalAmount: toBirr(r.totalAmountSantim),
    }));
  }

  private async lowStock() {
    const docs = await this.stock.lowStock(LOW_STOCK_ITEMS);
    return docs.map((p) => ({
      _id: String(p._id),
      name: p.name,
      ...(p.nameAm ? { nameAm: p.nameAm } : {}),
      stock: p.stock,
      price: toBirr(p.priceSantim),
      ...(p.images?.[0] ? { image: p.images[0] } : {}),
    }));
  }
}
