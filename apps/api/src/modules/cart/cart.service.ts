import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { cartTotals, DEFAULT_ADD_QUANTITY, toBirr } from '@shop/shared';
import { ClientSession, Model, Types } from 'mongoose';
import {
  ConflictError,
  NotFoundError,
  type ErrorCode,
  type ErrorParams,
} from '../../common/errors/domain-error';
import { isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { CatalogService, PRODUCT_NOT_FOUND, type CatalogProduct } from '../catalog/catalog.service';
import { toProductView } from '../catalog/product.view';
import { onlyLeftMessage, shortOfStock } from '../catalog/stock-errors';
import { Cart } from './schemas/cart.schema';

export { onlyLeftMessage, outOfStockMessage, shortOfStock } from '../catalog/stock-errors';

export const PRODUCT_NOT_IN_CART = 'Product not in cart';

export interface CartNotice {
  productId: string;
  type: 'removed' | 'quantity_reduced';
  message: string;
  /** NOTICE_UNAVAILABLE_REMOVED, NOTICE_OUT_OF_STOCK_REMOVED or NOTICE_QUANTITY_REDUCED (texts in libs/i18n). */
  code: ErrorCode;
  params: ErrorParams;
}

export interface CartView {
  success: true;
  products: { product: Record<string, unknown>; quantity: number }[];
  total: number;
  itemCount: number;
  notices?: CartNotice[];
}

type LeanProduct = CatalogProduct;

/**
 * One cart document per user (unique index), changed only with atomic conditional updates, so two
 * tabs adding at once can never push a line past the stock or create two carts.
 */
@Injectable()
export class CartService {
  constructor(
    @InjectModel(Cart.name) private readonly carts: Model<Cart>,
    private readonly catalog: CatalogService,
  ) {}

  /** The cart with current product data; withdrawn, sold-out and over-stock lines are fixed first. */
  async view(userId: string): Promise<CartView> {
    const user = new Types.ObjectId(userId);
    const cart = await this.carts.findOne({ user }).lean().exec();
    const items = cart?.items ?? [];
    const products = await this.productsById(items.map((i) => i.product));
    const notices: CartNotice[] = [];
    const lines: { product: LeanProduct; quantity: number }[] = [];
    const dropped: Types.ObjectId[] = [];
    for (const item of items) {
      const product = products.get(String(item.product));
      const productId = String(item.product);
      if (!product || !product.active) {
        dropped.push(item.product);
        notices.push({
          productId,
          type: 'removed',
          message: `${product?.name ?? 'A product'} is no longer available and was removed from your cart`,
          code: 'NOTICE_UNAVAILABLE_REMOVED',
          params: product ? { product: product.name } : {},
        });
      } else if (product.stock <= 0) {
        dropped.push(item.product);
        notices.push({
          productId,
          type: 'removed',
          message: `${product.name} is out of stock and was removed from your cart`,
          code: 'NOTICE_OUT_OF_STOCK_REMOVED',
          params: { product: product.name },
        });
      } else if (item.quantity > product.stock) {
        // Conditional, so a concurrent change of the line is never overwritten by a stale clamp.
        await this.carts
          .updateOne(
            { user, items: { $elemMatch: { product: item.product, quantity: item.quantity } } },
            { $set: { 'items.$.quantity': product.stock } },
          )
          .exec();
        notices.push({
          productId,
          type: 'quantity_reduced',
          message: `${onlyLeftMessage(product.name, product.stock)}; quantity reduced to ${product.stock}`,
          code: 'NOTICE_QUANTITY_REDUCED',
          params: { product: product.name, available: product.stock },
        });
        lines.push({ product, quantity: product.stock });
      } else {
        lines.push({ product, quantity: item.quantity });
      }
    }
    if (dropped.length)
      await this.carts.updateOne({ user }, { $pull: { items: { product: { $in: dropped } } } }).exec();
    const totals = cartTotals(lines.map((l) => ({ unitPrice: l.product.priceSantim, quantity: l.quantity })));
    return {
      success: true,
      products: lines.map((l) => ({ product: toProductView(l.product), quantity: l.quantity })),
      total: toBirr(totals.total),
      itemCount: totals.itemCount,
      ...(notices.length ? { notices } : {}),
    };
  }

  /** Adds units of an active product; the line never exceeds the stock (409 naming the product). */
  async add(userId: string, productId: string, quantity = DEFAULT_ADD_QUANTITY): Promise<CartView> {
    const user = new Types.ObjectId(userId);
    const product = await this.catalog.activeProduct(productId);
    if (product.stock <= 0) throw shortOfStock(product.name, 0);
    await this.ensureCart(user);
    for (let attempt = 0; attempt < 8; attempt++) {
      // An existing line grows only if the result stays within the stock (one atomic conditional update).
      const grown = await this.carts
        .updateOne(
          {
            user,
            items: { $elemMatch: { product: product._id, quantity: { $lte: product.stock - quantity } } },
          },
          { $inc: { 'items.$.quantity': quantity } },
        )
        .exec();
      if (grown.matchedCount) return this.view(userId);
      if (quantity > product.stock) throw shortOfStock(product.name, product.stock);
      const pushed = await this.carts
        .updateOne(
          { user, 'items.product': { $ne: product._id } },
          { $push: { items: { product: product._id, quantity, addedAt: new Date() } } },
        )
        .exec();
      if (pushed.matchedCount) return this.view(userId);
      const line = await this.line(user, product._id);
      if (line && line.quantity + quantity > product.stock)
        throw shortOfStock(product.name, product.stock, line.quantity);
      // Another request created the line (or it vanished) between the two updates and the stock
      // still allows this add: grow it on the next attempt instead of refusing.
      if (attempt >= 1) await new Promise((resolve) => setTimeout(resolve, attempt * 5));
    }
    throw new ConflictError('The cart changed while adding; please try again', 'CART_CHANGED');
  }

  /** Sets a line's quantity, between 1 and the stock. */
  async update(userId: string, productId: string, quantity: number): Promise<CartView> {
    const user = new Types.ObjectId(userId);
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const product = await this.catalog.productById(id);
    if (!product || !product.active) {
      await this.carts.updateOne({ user }, { $pull: { items: { product: id } } }).exec();
      throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    }
    if (product.stock <= 0) throw shortOfStock(product.name, 0);
    if (quantity > product.stock) throw shortOfStock(product.name, product.stock);
    const res = await this.carts
      .updateOne({ user, 'items.product': id }, { $set: { 'items.$.quantity': quantity } })
      .exec();
    if (!res.matchedCount) throw new NotFoundError(PRODUCT_NOT_IN_CART, 'PRODUCT_NOT_IN_CART');
    return this.view(userId);
  }

  /** Removes a line; removing one that is not there is not an error (DELETE is idempotent). */
  async remove(userId: string, productId: string): Promise<CartView> {
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    await this.carts
      .updateOne({ user: new Types.ObjectId(userId) }, { $pull: { items: { product: id } } })
      .exec();
    return this.view(userId);
  }

  async clear(userId: string): Promise<CartView> {
    await this.carts.updateOne({ user: new Types.ObjectId(userId) }, { $set: { items: [] } }).exec();
    return this.view(userId);
  }

  /** The raw lines, for order placement (which checks products and stock itself). */
  async lines(userId: string): Promise<{ product: Types.ObjectId; quantity: number }[]> {
    const cart = await this.carts
      .findOne({ user: new Types.ObjectId(userId) })
      .lean()
      .exec();
    return (cart?.items ?? []).map((i) => ({ product: i.product, quantity: i.quantity }));
  }

  /**
   * Empties the cart inside the caller's transaction and answers the lines it held: the lines ordered
   * are exactly the lines removed, and a change to the cart before the commit retries the transaction.
   */
  async takeLines(
    userId: string,
    session: ClientSession,
  ): Promise<{ product: Types.ObjectId; quantity: number }[]> {
    const cart = await this.carts
      .findOneAndUpdate(
        { user: new Types.ObjectId(userId), 'items.0': { $exists: true } },
        { $set: { items: [] } },
        { new: false, session },
      )
      .lean()
      .exec();
    return (cart?.items ?? []).map((i) => ({ product: i.product, quantity: i.quantity }));
  }

  /** Takes ordered products out of the cart after an order is placed. */
  async removeProducts(userId: string, productIds: Types.ObjectId[]): Promise<void> {
    await this.carts
      .updateOne({ user: new Types.ObjectId(userId) }, { $pull: { items: { product: { $in: productIds } } } })
      .exec();
  }

  private async line(user: Types.ObjectId, product: Types.ObjectId) {
    const cart = await this.carts.findOne({ user }).lean().exec();
    return cart?.items.find((i) => i.product.equals(product));
  }

  private async productsById(ids: Types.ObjectId[]): Promise<Map<string, LeanProduct>> {
    const found = await this.catalog.productsByIds(ids);
    return new Map(found.map((p) => [String(p._id), p]));
  }

  /** Creates the user's cart once; a concurrent creation loses on the unique index and is fine. */
  private async ensureCart(user: Types.ObjectId): Promise<void> {
    try {
      await this.carts.updateOne({ user }, { $setOnInsert: { items: [] } }, { upsert: true }).exec();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}
