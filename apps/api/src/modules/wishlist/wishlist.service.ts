import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { toBirr } from '@shop/shared';
import { Model, Types } from 'mongoose';
import { NotFoundError } from '../../common/errors/domain-error';
import { isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { CartService, type CartView } from '../cart/cart.service';
import { CatalogService, PRODUCT_NOT_FOUND } from '../catalog/catalog.service';
import { toProductView } from '../catalog/product.view';
import { Wishlist } from './schemas/wishlist.schema';

export const PRODUCT_NOT_IN_WISHLIST = 'Product not in wishlist';

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
  addedAt: Date;
}

@Injectable()
export class WishlistService {
  constructor(
    @InjectModel(Wishlist.name) private readonly wishlists: Model<Wishlist>,
    private readonly cart: CartService,
    private readonly catalog: CatalogService,
  ) {}

  /** The wishlist with current product data; withdrawn products leave it with a notice. */
  async view(userId: string): Promise<WishlistView> {
    const user = new Types.ObjectId(userId);
    const wishlist = await this.wishlists.findOne({ user }).lean().exec();
    const items = wishlist?.items ?? [];
    const ids = items.map((i) => i.product);
    const found = await this.catalog.productsByIds(ids);
    const byId = new Map(found.map((p) => [String(p._id), p]));
    const notices: NonNullable<WishlistView['notices']> = [];
    const products: WishlistItemView[] = [];
    const dropped: Types.ObjectId[] = [];
    for (const item of items) {
      const product = byId.get(String(item.product));
      if (!product || !product.active) {
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

  /** Adds an active product (sold-out ones too: that is what notify-on-stock is for); adding twice updates preferences. */
  async add(userId: string, productId: string, preferences: WishlistPreferences = {}): Promise<WishlistView> {
    const user = new Types.ObjectId(userId);
    const product = await this.catalog.activeProduct(productId);
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

  /** Who asked to hear about a price drop ('sale') or a restock ('stock') of this product. */
  async subscribersFor(productId: string, kind: 'sale' | 'stock'): Promise<WishlistSubscriber[]> {
    const product = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const flag = kind === 'sale' ? 'notifyOnSale' : 'notifyOnStock';
    const lists = await this.wishlists
      .find({ items: { $elemMatch: { product, [flag]: true } } })
      .lean()
      .exec();
    return lists.flatMap((list) =>
      list.items
        .filter((item) => item.product.equals(product) && item[flag])
        .map((item) => ({
          userId: String(list.user),
          wishlistItemId: String(item._id),
          priceAtAdd: toBirr(item.priceAtAddSantim),
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
