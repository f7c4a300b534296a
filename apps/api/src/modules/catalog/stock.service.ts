import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { LOW_STOCK_THRESHOLD } from '@shop/shared';
import { ClientSession, Model, Types } from 'mongoose';
import { ConflictError } from '../../common/errors/domain-error';
import { ShopSignals } from '../../common/metrics/shop-signals';
import { NotificationsService } from '../notifications/notifications.service';
import {
  RESERVED_FIELDS,
  type CatalogProduct,
  type ProductChange,
  type ProductChangeListener,
  type Reservation,
  type ReservedProduct,
  type StockLine,
} from './catalog.types';
import { Product } from './schemas/product.schema';
import { shortOfStock } from './stock-errors';

/**
 * Stock: reserved by orders and given back (each line one conditional update inside the caller's
 * transaction), what every price or stock change sets off inside its transaction (the admin's
 * low-stock alert, then the listeners: the wishlist's notices), and the low-stock list.
 */
@Injectable()
export class StockService {
  private readonly listeners: ProductChangeListener[] = [];

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly notifications: NotificationsService,
    private readonly signals: ShopSignals,
  ) {}

  /**
   * Reserves every line inside the caller's transaction with one conditional update each
   * (`active`, `stock >= quantity`), so two customers can never take the same last unit; a short
   * line throws (409, coded) and the caller's transaction undoes the rest. The caller publishes the
   * `stock` change once its transaction has ended (orders/order-transaction.ts): said from inside the
   * transaction it would come before the commit, when a read still sees the old stock.
   */
  async reserveStock(lines: readonly StockLine[], session: ClientSession): Promise<Reservation[]> {
    const reservations: Reservation[] = [];
    for (const line of lines) {
      const product = await this.products
        .findOneAndUpdate(
          { _id: line.product, active: true, stock: { $gte: line.quantity } },
          { $inc: { stock: -line.quantity } },
          // only what the order keeps: a product's descriptions and lists are most of its bytes
          { new: true, session, projection: RESERVED_FIELDS },
        )
        .lean<ReservedProduct>()
        .exec();
      if (!product) {
        const refusal = await this.shortLineError(line.product, line.quantity, session);
        this.signals.stockRefused(refusal.code ?? 'CONFLICT');
        throw refusal;
      }
      reservations.push({ product, quantity: line.quantity });
    }
    return reservations;
  }

  /**
   * Gives reserved stock back (a cancelled order) inside the caller's transaction. `cause` names the
   * change (e.g. `cancel:<orderId>`): each product's change goes through the same path as a staff
   * edit, so a sold-out product coming back tells the customers who asked, in the same transaction.
   */
  async releaseStock(lines: readonly StockLine[], session: ClientSession, cause: string): Promise<void> {
    for (const line of lines) {
      const after = (await this.products
        .findOneAndUpdate({ _id: line.product }, { $inc: { stock: line.quantity } }, { new: true, session })
        .lean()
        .exec()) as CatalogProduct | null;
      if (!after) continue; // a product deleted for good: nothing to give back to
      const before = { ...after, stock: after.stock - line.quantity };
      await this.productChanged(session, { before, after, cause });
    }
  }

  /** Registers a listener told of every price or stock change inside its transaction; answers its removal. */
  onProductChange(listener: ProductChangeListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** The admin's low-stock alert (when the change crosses the threshold), then the listeners; all in `session`. */
  async productChanged(session: ClientSession, change: ProductChange): Promise<void> {
    await this.notifications.enqueue(session, {
      type: 'stock.changed',
      before: change.before,
      after: change.after,
      cause: change.cause,
    });
    for (const listener of this.listeners) await listener(change, session);
  }

  private async shortLineError(
    productId: Types.ObjectId,
    quantity: number,
    session: ClientSession,
  ): Promise<ConflictError> {
    const product = await this.products.findById(productId).session(session).lean().exec();
    if (!product || !product.active) {
      const name = product?.name ?? 'A product in your cart';
      return new ConflictError(`${name} is no longer available`, 'UNAVAILABLE', { product: name });
    }
    if (product.stock < quantity) return shortOfStock(product.name, product.stock);
    // Stock came back between the failed update and this read: still refuse; the customer retries.
    return new ConflictError(`Insufficient stock for ${product.name}`, 'INSUFFICIENT_STOCK', {
      product: product.name,
      available: product.stock,
      inCart: 0,
    });
  }

  /** Products on sale at or below the low-stock threshold, fewest first. */
  lowStock(limit: number) {
    return this.products
      .find(
        { active: true, stock: { $lte: LOW_STOCK_THRESHOLD } },
        { name: 1, nameAm: 1, stock: 1, priceSantim: 1, images: 1 },
      )
      .sort({ stock: 1, name: 1 })
      .limit(limit)
      .lean()
      .exec();
  }
}
