import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { cartTotals, DEFAULT_ADD_QUANTITY, toBirr } from '@shop/shared';
import { ClientSession, Model, Types, type FilterQuery, type mongo } from 'mongoose';
import { randomBytes } from 'node:crypto';
import {
  ConflictError,
  InvalidDataError,
  NotFoundError,
  type ErrorCode,
  type ErrorParams,
} from '../../common/errors/domain-error';
import { isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { absoluteImageUrls, withAbsoluteUrls } from '../../common/absolute-urls.interceptor';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CatalogService, PRODUCT_NOT_FOUND, type CatalogProduct } from '../catalog/catalog.service';
import { toProductView } from '../catalog/product.view';
import { onlyLeftMessage, shortOfStock } from '../catalog/stock-errors';
import { Cart, CartItem, GUEST_CART_TTL_DAYS, GuestCart } from './schemas/cart.schema';

export { onlyLeftMessage, outOfStockMessage, shortOfStock } from '../catalog/stock-errors';

export const PRODUCT_NOT_IN_CART = 'Product not in cart';

export interface CartNotice {
  productId: string;
  type: 'removed' | 'quantity_reduced' | 'quantity_capped';
  message: string;
  /** NOTICE_UNAVAILABLE_REMOVED, NOTICE_OUT_OF_STOCK_REMOVED, NOTICE_QUANTITY_REDUCED or CART_MERGE_CAPPED (texts in libs/i18n). */
  code: ErrorCode;
  params: ErrorParams;
}

export interface CartView {
  success: true;
  products: { product: Record<string, unknown>; quantity: number }[];
  total: number;
  itemCount: number;
  notices?: CartNotice[];
  /** A guest cart's id (answered to guests only; send it back as `X-Cart-Id`). */
  cartId?: string;
}

/** Whose cart: a user's id, or a guest cart's id. */
export type CartOwner = string | { guestId: string };
type CartModel = Model<{ items: CartItem[] }>;

const GUEST_CART_TTL_MS = GUEST_CART_TTL_DAYS * 24 * 60 * 60 * 1000;

/** A new guest cart id: 128 random bits. */
export function newGuestCartId(): string {
  return randomBytes(16).toString('hex');
}

type LeanProduct = CatalogProduct;

/** A guess kept this long at most (a cart changed elsewhere makes a wrong guess, which costs one update). */
const SEEN_LINES_MS = 60_000;
const SEEN_LINES_MAX = 10_000;

const keyOf = (owner: CartOwner) => (typeof owner === 'string' ? owner : `guest:${owner.guestId}`);

/** Which products each cart held when this instance last saw it (bounded; the oldest forgotten first). */
class SeenLines {
  private readonly carts = new Map<string, { products: Set<string>; until: number }>();

  note(owner: CartOwner, items: readonly { product: Types.ObjectId }[]): void {
    const key = keyOf(owner);
    this.carts.delete(key);
    if (this.carts.size >= SEEN_LINES_MAX) this.carts.delete(this.carts.keys().next().value as string);
    const products = new Set(items.map((i) => i.product.toHexString()));
    this.carts.set(key, { products, until: Date.now() + SEEN_LINES_MS });
  }

  /** Whether the cart was last seen without this product (false when not seen lately). */
  lacks(owner: CartOwner, productId: string): boolean {
    const seen = this.carts.get(keyOf(owner));
    return seen !== undefined && seen.until > Date.now() && !seen.products.has(productId);
  }
}

/**
 * Why `quantity` units of the product (with `inCart` of them in the cart already) cannot be in a cart:
 * not found or withdrawn (404), sold out, or more than the stock (409 naming the product); undefined if they can.
 */
function refusalOf(product: LeanProduct | undefined, quantity: number, inCart = 0) {
  if (!product || !product.active) return new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
  if (product.stock <= 0) return shortOfStock(product.name, 0);
  if (quantity > product.stock) return shortOfStock(product.name, product.stock);
  if (inCart + quantity > product.stock) return shortOfStock(product.name, product.stock, inCart);
  return undefined;
}

/**
 * One cart document per user (unique index), changed only with atomic conditional updates, so two
 * tabs adding at once can never push a line past the stock or create two carts.
 */
@Injectable()
export class CartService {
  constructor(
    @InjectModel(Cart.name) private readonly userCarts: Model<Cart>,
    @InjectModel(GuestCart.name) private readonly guestCarts: Model<GuestCart>,
    private readonly catalog: CatalogService,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'publicUrl'>,
  ) {
    this.origin = config.publicUrl.replace(/\/+$/, '');
  }

  /** PUBLIC_API_URL: the product views' image URLs are made absolute as they are built. */
  private readonly origin: string;

  /** The lines this instance last saw in each cart: a guess for `add`, never trusted. */
  private readonly seen = new SeenLines();

  /** The collection and the filter of an owner's cart (a guest cart past its expiry is not there). */
  private cartOf(owner: CartOwner): { model: CartModel; filter: FilterQuery<{ items: CartItem[] }> } {
    if (typeof owner === 'string')
      return { model: this.userCarts as unknown as CartModel, filter: { user: new Types.ObjectId(owner) } };
    return {
      model: this.guestCarts as unknown as CartModel,
      filter: { guestId: owner.guestId, expiresAt: { $gt: new Date() } },
    };
  }

  /** A guest without a cart updating a line: the line is not there (a malformed id is still 404 Product not found). */
  notInCart(productId: string): NotFoundError {
    this.checkProductId(productId);
    return new NotFoundError(PRODUCT_NOT_IN_CART, 'PRODUCT_NOT_IN_CART');
  }

  checkProductId(productId: string): void {
    parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
  }

  missingCartId(): InvalidDataError {
    return new InvalidDataError('cartId is required', [
      { field: 'cartId', message: 'must be a guest cart id (32 hex characters)', code: 'CART_ID_REQUIRED' },
    ]);
  }

  /** An empty cart as a guest without one sees it. */
  emptyView(): CartView {
    return { success: true, products: [], total: 0, itemCount: 0 };
  }

  /** Whether a guest cart with this id is alive. */
  async guestCartExists(guestId: string): Promise<boolean> {
    return (await this.guestCarts.exists({ guestId, expiresAt: { $gt: new Date() } }).exec()) !== null;
  }

  /** Creates a new, empty guest cart and answers its id. */
  async createGuestCart(): Promise<string> {
    const guestId = newGuestCartId();
    await this.guestCarts.create({ guestId, items: [], expiresAt: new Date(Date.now() + GUEST_CART_TTL_MS) });
    return guestId;
  }

  /**
   * The cart with current product data; withdrawn, sold-out and over-stock lines are fixed first.
   * `current`: the cart as an update just left it (not read again); `known`: products read already
   * in this request (only the lines' products missing from it are read).
   */
  async view(
    owner: CartOwner,
    current?: { items: CartItem[] },
    known?: Map<string, LeanProduct>,
  ): Promise<CartView> {
    const { model, filter } = this.cartOf(owner);
    const cart = current ?? (await model.findOne(filter).lean().exec());
    const items = cart?.items ?? [];
    this.seen.note(owner, items);
    const missing = items.map((i) => i.product).filter((id) => !known?.has(String(id)));
    const products = missing.length
      ? await this.catalog.recentProductsByIds(missing)
      : new Map<string, LeanProduct>();
    if (known) for (const [id, product] of known) if (!products.has(id)) products.set(id, product);
    // a line is dropped or reduced only on the product as the database has it now (not as kept)
    const doubtful = items
      .filter((i) => refusalOf(products.get(String(i.product)), i.quantity) !== undefined)
      .map((i) => i.product);
    if (doubtful.length)
      for (const [id, product] of await this.catalog.freshProductsByIds(doubtful)) products.set(id, product);
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
        await model
          .updateOne(
            { ...filter, items: { $elemMatch: { product: item.product, quantity: item.quantity } } },
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
      await model.updateOne(filter, { $pull: { items: { product: { $in: dropped } } } }).exec();
    const totals = cartTotals(lines.map((l) => ({ unitPrice: l.product.priceSantim, quantity: l.quantity })));
    // image URLs absolute as the views are built (the AbsoluteUrls interceptor then leaves the answer be)
    return withAbsoluteUrls({
      success: true,
      products: lines.map((l) => ({ product: toProductView(l.product, this.origin), quantity: l.quantity })),
      total: toBirr(totals.total),
      itemCount: totals.itemCount,
      ...(notices.length ? { notices: absoluteImageUrls(notices, this.origin) as CartNotice[] } : {}),
      ...(typeof owner !== 'string' && cart ? { cartId: owner.guestId } : {}),
    });
  }

  /**
   * Adds units of an active product; the line never exceeds the stock (409 naming the product).
   * No read of the cart: the product comes from what this instance read of it moments ago where it
   * can (CatalogService.recentProductsByIds), and one conditional update grows the line (`quantity <=
   * stock - added`) and answers the cart it left, from which the answer is built (the other lines'
   * products as kept too), or pushes a line that is not there yet (creating a user's first cart with
   * the same upsert; a guest cart's expiry moves in the same update): the one the lines this instance
   * last saw in the cart point to is tried first, the other when it matches nothing. When neither
   * matches, the line is read and the add decided again: the conditions, not the reads, are what make
   * two tabs adding at once safe. A refusal (unavailable, sold out, over the stock) is only ever given
   * on the product read again from the database.
   */
  async add(owner: CartOwner, productId: string, quantity = DEFAULT_ADD_QUANTITY): Promise<CartView> {
    const { model, filter: where } = this.cartOf(owner);
    const filter = where as Record<string, unknown>;
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const key = id.toHexString();
    const readNow = new Set<string>();
    let products = await this.catalog.recentProductsByIds([id], readNow);
    let fresh = readNow.has(key);
    const guest = typeof owner !== 'string';
    const now = new Date();
    // the schema's timestamps, and a guest cart lives GUEST_CART_TTL_DAYS after its last change: this one
    const $set = guest
      ? { updatedAt: now, expiresAt: new Date(now.getTime() + GUEST_CART_TTL_MS) }
      : { updatedAt: now };
    /** The cart's line of the product: undefined until read (null: read, not there). */
    let line: CartItem | null | undefined;
    for (let attempt = 0; attempt < 8; attempt++) {
      const product = products.get(key);
      const refusal = refusalOf(product, quantity, line?.quantity ?? 0);
      if (refusal && !fresh) {
        products = await this.catalog.freshProductsByIds([id]);
        fresh = true;
        attempt--;
        continue;
      }
      if (refusal || !product) throw refusal;
      const stock = product.stock;
      // the line grows only if the result stays within the stock (one atomic conditional update)
      const grow = () =>
        model.collection.findOneAndUpdate(
          { ...filter, items: { $elemMatch: { product: id, quantity: { $lte: stock - quantity } } } },
          { $inc: { 'items.$.quantity': quantity }, $set },
          { returnDocument: 'after', includeResultMetadata: false },
        );
      // a user's cart is created here if it does not exist yet (upsert; the unique index on `user`
      // turns a concurrent creation, or a cart that has the line by now, into a duplicate key)
      const push = () =>
        model.collection
          .findOneAndUpdate(
            { ...filter, 'items.product': { $ne: id } },
            {
              $push: { items: { product: id, quantity, addedAt: now } },
              $set,
              ...(guest ? {} : { $setOnInsert: { createdAt: now } }),
            } as unknown as mongo.UpdateFilter<mongo.Document>,
            { returnDocument: 'after', upsert: !guest, includeResultMetadata: false },
          )
          .catch((error: unknown) => {
            if (isDuplicateKeyError(error)) return null;
            throw error;
          });
      // Not read: which update comes first is a guess from the lines this instance last saw in the
      // cart (a wrong guess costs the other update, never a wrong line).
      const [first, second] =
        line === undefined
          ? this.seen.lacks(owner, key)
            ? [push, grow]
            : [grow, push]
          : line
            ? [grow]
            : [push];
      const updated = (await first()) ?? (second ? await second() : null);
      if (updated) return this.view(owner, updated as unknown as { items: CartItem[] }, products);
      // The line is over the stock kept, or another request changed it (or the cart): look, and decide again.
      line = (await this.line(owner, id)) ?? null;
      if (attempt >= 1) await new Promise((resolve) => setTimeout(resolve, attempt * 5));
    }
    throw new ConflictError('The cart changed while adding; please try again', 'CART_CHANGED');
  }

  /** Sets a line's quantity, between 1 and the stock. */
  async update(owner: CartOwner, productId: string, quantity: number): Promise<CartView> {
    const { model, filter } = this.cartOf(owner);
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const product = await this.catalog.productById(id);
    if (!product || !product.active) {
      await model.updateOne(filter, { $pull: { items: { product: id } } }).exec();
      throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    }
    if (product.stock <= 0) throw shortOfStock(product.name, 0);
    if (quantity > product.stock) throw shortOfStock(product.name, product.stock);
    const res = await model
      .updateOne({ ...filter, 'items.product': id }, { $set: { 'items.$.quantity': quantity } })
      .exec();
    if (!res.matchedCount) throw new NotFoundError(PRODUCT_NOT_IN_CART, 'PRODUCT_NOT_IN_CART');
    if (typeof owner !== 'string') await this.touchGuestCart(owner.guestId);
    return this.view(owner);
  }

  /** Removes a line; removing one that is not there is not an error (DELETE is idempotent). */
  async remove(owner: CartOwner, productId: string): Promise<CartView> {
    const { model, filter } = this.cartOf(owner);
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    await model.updateOne(filter, { $pull: { items: { product: id } } }).exec();
    return this.view(owner);
  }

  async clear(owner: CartOwner): Promise<CartView> {
    const { model, filter } = this.cartOf(owner);
    await model.updateOne(filter, { $set: { items: [] } }).exec();
    return this.view(owner);
  }

  /**
   * Moves a guest cart into the user's cart: quantities are added, each line capped by the stock (a
   * `quantity_capped` notice says so), lines no longer on sale are dropped with a notice; the guest
   * cart is then deleted. Merging an unknown or expired guest cart changes nothing.
   */
  async mergeGuestCart(userId: string, guestId: string): Promise<CartView> {
    const guest = await this.guestCarts
      .findOneAndDelete({ guestId, expiresAt: { $gt: new Date() } })
      .lean()
      .exec();
    const notices: CartNotice[] = [];
    if (guest?.items.length) {
      const user = new Types.ObjectId(userId);
      await this.ensureCart(user);
      // read now (the merge caps quantities by the stock)
      const products = await this.catalog.freshProductsByIds(guest.items.map((i) => i.product));
      for (const item of guest.items) {
        const product = products.get(String(item.product));
        if (!product || !product.active || product.stock <= 0) continue; // view() below reports it if kept
        const capped = await this.mergeLine(user, product, item.quantity);
        if (capped !== undefined) {
          notices.push({
            productId: String(product._id),
            type: 'quantity_capped',
            message: `Only ${product.stock} left in stock for ${product.name}; your cart now has ${capped}`,
            code: 'CART_MERGE_CAPPED',
            params: { product: product.name, available: product.stock, quantity: capped },
          });
        }
      }
    }
    const view = await this.view(userId);
    const all = [...notices, ...(view.notices ?? [])];
    return { ...view, ...(all.length ? { notices: all } : {}) };
  }

  /** Adds `quantity` to the user's line, capped by the stock; answers the capped quantity when capped. */
  private async mergeLine(user: Types.ObjectId, product: LeanProduct, quantity: number) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await this.line(String(user), product._id);
      const wanted = (existing?.quantity ?? 0) + quantity;
      const next = Math.min(wanted, product.stock);
      const res = existing
        ? await this.userCarts
            .updateOne(
              { user, items: { $elemMatch: { product: product._id, quantity: existing.quantity } } },
              { $set: { 'items.$.quantity': Math.max(next, existing.quantity) } },
            )
            .exec()
        : await this.userCarts
            .updateOne(
              { user, 'items.product': { $ne: product._id } },
              { $push: { items: { product: product._id, quantity: next, addedAt: new Date() } } },
            )
            .exec();
      if (res.matchedCount) return next < wanted ? Math.max(next, existing?.quantity ?? 0) : undefined;
    }
    throw new ConflictError('The cart changed while merging; please try again', 'CART_CHANGED');
  }

  /** Pushes a guest cart's expiry GUEST_CART_TTL_DAYS ahead. */
  private async touchGuestCart(guestId: string): Promise<void> {
    await this.guestCarts
      .updateOne({ guestId }, { $set: { expiresAt: new Date(Date.now() + GUEST_CART_TTL_MS) } })
      .exec();
  }

  /** The raw lines, for order placement (which checks products and stock itself). */
  async lines(userId: string): Promise<{ product: Types.ObjectId; quantity: number }[]> {
    const cart = await this.userCarts
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
    const cart = await this.userCarts.collection.findOneAndUpdate(
      { user: new Types.ObjectId(userId), 'items.0': { $exists: true } },
      { $set: { items: [], updatedAt: new Date() } },
      { returnDocument: 'before', session, projection: { items: 1 }, includeResultMetadata: false },
    );
    this.seen.note(userId, []);
    return ((cart?.items ?? []) as CartItem[]).map((i) => ({ product: i.product, quantity: i.quantity }));
  }

  /** Takes ordered products out of the cart after an order is placed. */
  async removeProducts(userId: string, productIds: Types.ObjectId[]): Promise<void> {
    await this.userCarts
      .updateOne({ user: new Types.ObjectId(userId) }, { $pull: { items: { product: { $in: productIds } } } })
      .exec();
  }

  private async line(owner: CartOwner, product: Types.ObjectId) {
    const { model, filter } = this.cartOf(owner);
    const cart = await model.findOne(filter).lean().exec();
    return cart?.items.find((i) => i.product.equals(product));
  }

  /** Creates the user's cart once; a concurrent creation loses on the unique index and is fine. */
  private async ensureCart(user: Types.ObjectId): Promise<void> {
    try {
      await this.userCarts.updateOne({ user }, { $setOnInsert: { items: [] } }, { upsert: true }).exec();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}
