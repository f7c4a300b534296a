import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { LOW_STOCK_THRESHOLD } from '@shop/shared';
import { ClientSession, Model } from 'mongoose';
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

/** At most this many products with a low variant are read for the low-stock list. */
const LOW_VARIANT_PRODUCTS_MAX = 200;

import { Product } from './schemas/product.schema';
import { shortOfStock } from './stock-errors';
import { hasVariants, variantAsProduct, variantName, variantOf } from './variants';

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
      // a variant line: one conditional update of the variant and the product's sum together; a line
      // without a variant only of a product that has none (docs/decisions/0098-product-variants.md)
      const [filter, update] = line.variant
        ? [
            {
              _id: line.product,
              active: true,
              variants: { $elemMatch: { _id: line.variant, stock: { $gte: line.quantity } } },
            },
            { $inc: { 'variants.$.stock': -line.quantity, stock: -line.quantity } },
          ]
        : [
            { _id: line.product, active: true, variants: { $exists: false }, stock: { $gte: line.quantity } },
            { $inc: { stock: -line.quantity } },
          ];
      const product = await this.products
        .findOneAndUpdate(filter, update, {
          // only what the order keeps: a product's descriptions and lists are most of its bytes
          new: true,
          session,
          projection: RESERVED_FIELDS,
        })
        .lean<ReservedProduct>()
        .exec();
      if (!product) {
        const refusal = await this.shortLineError(line, session);
        this.signals.stockRefused(refusal.code ?? 'CONFLICT');
        throw refusal;
      }
      const variant = line.variant ? variantOf(product, line.variant) : undefined;
      reservations.push({ product, ...(variant ? { variant } : {}), quantity: line.quantity });
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
      // to its variant (and the product's sum); a variant removed since: nothing to give back to
      const after = (await this.products
        .findOneAndUpdate(
          line.variant ? { _id: line.product, 'variants._id': line.variant } : { _id: line.product },
          line.variant
            ? { $inc: { 'variants.$.stock': line.quantity, stock: line.quantity } }
            : { $inc: { stock: line.quantity } },
          { new: true, session },
        )
        .lean()
        .exec()) as CatalogProduct | null;
      if (!after) continue; // a product deleted for good: nothing to give back to
      const before = {
        ...after,
        stock: after.stock - line.quantity,
        ...(line.variant && after.variants
          ? {
              variants: after.variants.map((v) =>
                v._id.equals(line.variant!) ? { ...v, stock: v.stock - line.quantity } : v,
              ),
            }
          : {}),
      };
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
    if (hasVariants(change.after)) {
      // per variant, with the variant's threshold (docs/decisions/0098-product-variants.md)
      for (const after of change.after.variants!) {
        const before = variantOf(change.before, after._id);
        if (!before) continue; // a new variant: nothing crossed
        await this.notifications.enqueue(session, {
          type: 'stock.changed',
          before: variantAsProduct(change.before, before),
          after: variantAsProduct(change.after, after),
          cause: `${change.cause}:${String(after._id)}`,
        });
      }
    } else {
      await this.notifications.enqueue(session, {
        type: 'stock.changed',
        before: change.before,
        after: change.after,
        cause: change.cause,
      });
    }
    for (const listener of this.listeners) await listener(change, session);
  }

  private async shortLineError(line: StockLine, session: ClientSession): Promise<ConflictError> {
    const { quantity } = line;
    const product = await this.products.findById(line.product).session(session).lean().exec();
    // a line whose variant is gone, or without one for a product that has variants now: unavailable
    const variant = product && line.variant ? variantOf(product, line.variant) : undefined;
    const unfit = product && (line.variant ? !variant : hasVariants(product));
    if (!product || !product.active || unfit) {
      const name = product ? variantName(product, variant) : 'A product in your cart';
      return new ConflictError(`${name} is no longer available`, 'UNAVAILABLE', { product: name });
    }
    const name = variantName(product, variant);
    const stock = variant ? variant.stock : product.stock;
    if (stock < quantity) return shortOfStock(name, stock);
    // Stock came back between the failed update and this read: still refuse; the customer retries.
    return new ConflictError(`Insufficient stock for ${name}`, 'INSUFFICIENT_STOCK', {
      product: name,
      available: stock,
      inCart: 0,
    });
  }

  /**
   * Products on sale at or below the low-stock threshold, fewest first; a product with variants is
   * listed per variant at or below it (named "Name — 30 ml", with `variantId` and `sku`).
   */
  async lowStock(limit: number) {
    const fields = { name: 1, nameAm: 1, stock: 1, priceSantim: 1, images: 1, options: 1, variants: 1 };
    // products without variants by their stock; those with a low variant apart (a sold-out shade of a
    // lipstick whose other shades hold 18 is low, whatever the product's sum says)
    const [plain, varied] = await Promise.all([
      this.products
        .find({ active: true, variants: { $exists: false }, stock: { $lte: LOW_STOCK_THRESHOLD } }, fields)
        .sort({ stock: 1, name: 1 })
        .limit(limit)
        .lean()
        .exec(),
      this.products
        .find({ active: true, 'variants.stock': { $lte: LOW_STOCK_THRESHOLD } }, fields)
        .sort({ name: 1 })
        .limit(LOW_VARIANT_PRODUCTS_MAX)
        .lean()
        .exec(),
    ]);
    const docs = [...plain, ...varied];
    const rows = docs.flatMap((doc) => {
      const { options: _options, variants, ...product } = doc;
      if (!variants?.length) return [product];
      return variants
        .filter((v) => v.stock <= LOW_STOCK_THRESHOLD)
        .map((v) => ({
          ...product,
          name: variantName(doc, v),
          ...(doc.nameAm ? { nameAm: `${doc.nameAm} — ${Object.values(v.options).join(' / ')}` } : {}),
          stock: v.stock,
          priceSantim: v.priceSantim,
          images: v.images?.length ? v.images : product.images,
          variantId: String(v._id),
          sku: v.sku,
        }));
    });
    return rows.sort((a, b) => a.stock - b.stock || a.name.localeCompare(b.name)).slice(0, limit);
  }
}
