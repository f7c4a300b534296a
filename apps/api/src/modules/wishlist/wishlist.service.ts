import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { toBirr } from '@shop/shared';
import { ClientSession, Model, Types } from 'mongoose';
import { InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { CartService, type CartView } from '../cart/cart.service';
import { PRODUCT_NOT_FOUND, type CatalogProduct, type ProductChange } from '../catalog/catalog.types';
import { ProductsService } from '../catalog/products.service';
import { StockService } from '../catalog/stock.service';
import { NotificationsService, type WishlistNoticeKind } from '../notifications/notifications.service';
import { toProductView } from '../catalog/product.view';
import { Wishlist } from './schemas/wishlist.schema';

export const PRODUCT_NOT_IN_WISHLIST = 'Product not in wishlist';
export const UNSUBSCRIBE_INVALID = 'This unsubscribe link is not valid';

/** What an unsubscribe link stops, and whether it is still on (the storefront's confirmation page). */
export interface UnsubscribeView {
  success: true;
  kind: WishlistNoticeKind;
  product: { _id: string; name: string; nameAm?: string };
  /** Whether the customer still gets this notice for this product. */
  subscribed: boolean;
}

export interface WishlistPreferences {
  notifyOnSale?: boolean;
  notifyOnStock?: boolean;
}

export interface WishlistItemView {
  _id: string;
  id: string;
  product: Record<string, unknown>;
  notifyOnSale: boolean;
  notifyOnStock: boolean;
  priceAtAdd: number;
  addedAt: Date;
}

export interface WishlistView {
  success: true;
  products: WishlistItemView[];
  notices?: {
    productId: string;
    type: 'removed';
    message: string;
    code: 'NOTICE_UNAVAILABLE_REMOVED';
    params: Record<string, string | number>;
  }[];
}

/** Someone to tell about a price drop or a restock of a product. */
export interface WishlistSubscriber {
  userId: string;
  wishlistItemId: string;
  /** ETB price when the product was wished, to tell a real price drop. */
  priceAtAdd: number;
  priceAtAddSantim: number;
  addedAt: Date;
}

@Injectable()
export class WishlistService implements OnModuleInit {
  constructor(
    @InjectModel(Wishlist.name) private readonly wishlists: Model<Wishlist>,
    private readonly cart: CartService,
    private readonly products: ProductsService,
    private readonly stock: StockService,
    private readonly notifications: NotificationsService,
  ) {}

  /** The catalogue tells the wishlist of every price and stock change, inside the change's transaction. */
  onModuleInit(): void {
    this.stock.onProductChange((change, session) => this.productChanged(change, session));
  }

  /**
   * A product on sale (its price dropped below the price it had when the customer wished for it) or
   * back in stock (from none to some): the customers who chose that notice get one message each,
   * written in the change's transaction. Withdrawn products tell no one.
   */
  async productChanged({ before, after, cause }: ProductChange, session: ClientSession): Promise<void> {
    if (!after.active) return;
    if (after.priceSantim < before.priceSantim) {
      const subscribers = (await this.subscribersFor(String(after._id), 'sale', session)).filter(
        (s) => after.priceSantim < s.priceAtAddSantim,
      );
      if (subscribers.length)
        await this.notifications.enqueue(session, {
          type: 'wishlist.notice',
          kind: 'sale',
          product: after,
          wasSantim: before.priceSantim,
          cause,
          userIds: subscribers.map((s) => s.userId),
        });
    }
    if (before.stock <= 0 && after.stock > 0) {
      const subscribers = await this.subscribersFor(String(after._id), 'stock', session);
      if (subscribers.length)
        await this.notifications.enqueue(session, {
          type: 'wishlist.notice',
          kind: 'stock',
          product: after,
          cause,
          userIds: subscribers.map((s) => s.userId),
        });
    }
  }

  /** What an emailed unsubscribe link is about (no sign-in: the link's signature is the proof); 400 if forged. */
  async describeUnsubscribe(token: string): Promise<UnsubscribeView> {
    const { userId, productId, kind } = this.readToken(token);
    const [product] = await this.products.productsByIds([productId], { name: 1, nameAm: 1 });
    if (!product) throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const flag = kind === 'sale' ? 'notifyOnSale' : 'notifyOnStock';
    const subscribed = Boolean(
      await this.wishlists
        .exists({
          user: new Types.ObjectId(userId),
          items: { $elemMatch: { product: new Types.ObjectId(productId), [flag]: true } },
        })
        .exec(),
    );
    return {
      success: true,
      kind,
      product: { _id: productId, name: product.name, ...(product.nameAm ? { nameAm: product.nameAm } : {}) },
      subscribed,
    };
  }

  /** Stops the link's notice for its product (idempotent: a second click, or a removed item, changes nothing). */
  async unsubscribe(token: string): Promise<UnsubscribeView> {
    const { userId, productId, kind } = this.readToken(token);
    await this.setPreferences(new Types.ObjectId(userId), new Types.ObjectId(productId), {
      [kind === 'sale' ? 'notifyOnSale' : 'notifyOnStock']: false,
    });
    return this.describeUnsubscribe(token);
  }

  private readToken(token: unknown) {
    const read = typeof token === 'string' ? this.notifications.readUnsubscribeToken(token) : null;
    if (!read) throw new InvalidDataError(UNSUBSCRIBE_INVALID, undefined, 'UNSUBSCRIBE_INVALID');
    return read;
  }

  /** The wishlist with current product data; withdrawn products leave it with a notice. */
  async view(userId: string): Promise<WishlistView> {
    const user = new Types.ObjectId(userId);
    const wishlist = await this.wishlists.findOne({ user }).lean().exec();
    const items = wishlist?.items ?? [];
    const ids = items.map((i) => i.product);
    const found = await this.products.productsByIds(ids);
    const byId = new Map(found.map((p) => [String(p._id), p]));
    const notices: NonNullable<WishlistView['notices']> = [];
    const products: WishlistItemView[] = [];
    const dropped: Types.ObjectId[] = [];
    for (const item of items) {
      const product = byId.get(String(item.product));
      if (!product || !isListed(product)) {
        dropped.push(item.product);
        notices.push({
          productId: String(item.product),
          type: 'removed',
          message: `${product?.name ?? 'A product'} is no longer available and was removed from your wishlist`,
          code: 'NOTICE_UNAVAILABLE_REMOVED' as const,
          params: product ? { product: product.name } : {},
        });
        continue;
      }
      const id = String(item._id);
      products.push({
        _id: id,
        id,
        product: toProductView(product),
        notifyOnSale: item.notifyOnSale,
        notifyOnStock: item.notifyOnStock,
        priceAtAdd: toBirr(item.priceAtAddSantim),
        addedAt: item.addedAt,
      });
    }
    if (dropped.length)
      await this.wishlists.updateOne({ user }, { $pull: { items: { product: { $in: dropped } } } }).exec();
    return { success: true, products, ...(notices.length ? { notices } : {}) };
  }

  /**
   * The ids of the products `view` lists, in its order (docs/decisions/0105-shopper-summary.md): the
   * same rule (`isListed`) on the products' state alone, read only (the entries `view` drops are left
   * to it). No wishlist: none.
   */
  async productIds(userId: string): Promise<string[]> {
    const user = new Types.ObjectId(userId);
    const wishlist = await this.wishlists.findOne({ user }, { 'items.product': 1 }).lean().exec();
    const ids = (wishlist?.items ?? []).map((i) => i.product);
    if (!ids.length) return [];
    const found = await this.products.productsByIds(ids, { active: 1 });
    const byId = new Map(found.map((p) => [String(p._id), p]));
    return ids.map(String).filter((id) => isListed(byId.get(id)));
  }

  /** Adds an active product (sold-out ones too: that is what notify-on-stock is for); adding twice updates preferences. */
  async add(userId: string, productId: string, preferences: WishlistPreferences = {}): Promise<WishlistView> {
    const user = new Types.ObjectId(userId);
    const product = await this.products.activeProduct(productId);
    await this.ensureWishlist(user);
    const pushed = await this.wishlists
      .updateOne(
        { user, 'items.product': { $ne: product._id } },
        {
          $push: {
            items: {
              _id: new Types.ObjectId(),
              product: product._id,
              notifyOnSale: preferences.notifyOnSale ?? false,
              notifyOnStock: preferences.notifyOnStock ?? false,
              priceAtAddSantim: product.priceSantim,
              stockAtAdd: product.stock,
              addedAt: new Date(),
            },
          },
        },
      )
      .exec();
    if (!pushed.matchedCount) await this.setPreferences(user, product._id, preferences);
    return this.view(userId);
  }

  async remove(userId: string, productId: string): Promise<WishlistView> {
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    await this.wishlists
      .updateOne({ user: new Types.ObjectId(userId) }, { $pull: { items: { product: id } } })
      .exec();
    return this.view(userId);
  }

  async updatePreferences(
    userId: string,
    productId: string,
    preferences: WishlistPreferences,
  ): Promise<WishlistView> {
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const matched = await this.setPreferences(new Types.ObjectId(userId), id, preferences);
    if (!matched) throw new NotFoundError(PRODUCT_NOT_IN_WISHLIST, 'PRODUCT_NOT_IN_WISHLIST');
    return this.view(userId);
  }

  /** Adds to the cart with the cart's rules (404/409 as there), then takes the product off the wishlist. */
  async moveToCart(
    userId: string,
    productId: string,
    quantity?: number,
  ): Promise<WishlistView & { cart: CartView }> {
    const user = new Types.ObjectId(userId);
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const listed = await this.wishlists.exists({ user, 'items.product': id }).exec();
    if (!listed) throw new NotFoundError(PRODUCT_NOT_IN_WISHLIST, 'PRODUCT_NOT_IN_WISHLIST');
    const cart = await this.cart.add(userId, productId, quantity);
    await this.wishlists.updateOne({ user }, { $pull: { items: { product: id } } }).exec();
    return { ...(await this.view(userId)), cart };
  }

  /** Who asked to hear about a price drop ('sale') or a restock ('stock') of this product (in `session` when given). */
  async subscribersFor(
    productId: string,
    kind: WishlistNoticeKind,
    session?: ClientSession,
  ): Promise<WishlistSubscriber[]> {
    const product = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const flag = kind === 'sale' ? 'notifyOnSale' : 'notifyOnStock';
    const lists = await this.wishlists
      .find({ items: { $elemMatch: { product, [flag]: true } } })
      .session(session ?? null)
      .lean()
      .exec();
    return lists.flatMap((list) =>
      list.items
        .filter((item) => item.product.equals(product) && item[flag])
        .map((item) => ({
          userId: String(list.user),
          wishlistItemId: String(item._id),
          priceAtAdd: toBirr(item.priceAtAddSantim),
          priceAtAddSantim: item.priceAtAddSantim,
          addedAt: item.addedAt,
        })),
    );
  }

  /** Sets the given preferences on the line (positional update); answers whether the line exists. */
  private async setPreferences(
    user: Types.ObjectId,
    product: Types.ObjectId,
    preferences: WishlistPreferences,
  ): Promise<boolean> {
    const changes = (['notifyOnSale', 'notifyOnStock'] as const).filter(
      (flag) => preferences[flag] !== undefined,
    );
    if (!changes.length)
      return Boolean(await this.wishlists.exists({ user, 'items.product': product }).exec());
    // One update per flag: each is independent, and the embedded engine refuses two `items.$` paths in one $set.
    let matched = true;
    for (const flag of changes) {
      const res = await this.wishlists
        .updateOne({ user, 'items.product': product }, { $set: { [`items.$.${flag}`]: preferences[flag] } })
        .exec();
      matched = matched && res.matchedCount > 0;
    }
    return matched;
  }

  private async ensureWishlist(user: Types.ObjectId): Promise<void> {
    try {
      await this.wishlists.updateOne({ user }, { $setOnInsert: { items: [] } }, { upsert: true }).exec();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}

/** Whether a wished product is shown (a deleted or withdrawn one leaves the wishlist). */
function isListed(product: Pick<CatalogProduct, 'active'> | undefined): boolean {
  return Boolean(product?.active);
}
