import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { ConflictError, InvalidDataError } from '../../common/errors/domain-error';
import { isDuplicateKeyError } from '../../common/mongo';
import type { CatalogProduct } from '../catalog/catalog.types';
import { ProductsService } from '../catalog/products.service';
import { variantName, type ProductVariant } from '../catalog/variants';
import { CartStore, GUEST_CART_TTL_MS, lineVariant, newGuestCartId } from './cart-store';
import { CartViewService, type CartNotice, type CartView } from './cart-view.service';

/**
 * Guest carts: a visitor's cart held by an unguessable id, created on its first add, and merged into
 * the account's cart after sign-in or sign-up.
 */
@Injectable()
export class GuestCartsService {
  constructor(
    private readonly store: CartStore,
    private readonly views: CartViewService,
    private readonly products: ProductsService,
  ) {}

  /** Whether a guest cart with this id is alive. */
  async guestCartExists(guestId: string): Promise<boolean> {
    return (await this.store.guestCarts.exists({ guestId, expiresAt: { $gt: new Date() } }).exec()) !== null;
  }

  /** Creates a new, empty guest cart and answers its id. */
  async createGuestCart(): Promise<string> {
    const guestId = newGuestCartId();
    await this.store.guestCarts.create({
      guestId,
      items: [],
      expiresAt: new Date(Date.now() + GUEST_CART_TTL_MS),
    });
    return guestId;
  }

  /** A merge without a guest cart id. */
  missingCartId(): InvalidDataError {
    return new InvalidDataError(
      'cartId is required',
      [{ field: 'cartId', message: 'must be a guest cart id (32 hex characters)', code: 'CART_ID_REQUIRED' }],
      'CART_ID_REQUIRED',
    );
  }

  /**
   * Moves a guest cart into the user's cart: quantities are added, each line capped by the stock (a
   * `quantity_capped` notice says so), lines no longer on sale are dropped with a notice; the guest
   * cart is then deleted. Merging an unknown or expired guest cart changes nothing.
   */
  async mergeGuestCart(userId: string, guestId: string): Promise<CartView> {
    const guest = await this.store.guestCarts
      .findOneAndDelete({ guestId, expiresAt: { $gt: new Date() } })
      .lean()
      .exec();
    const notices: CartNotice[] = [];
    if (guest?.items.length) {
      const user = new Types.ObjectId(userId);
      await this.ensureCart(user);
      // read now (the merge caps quantities by the stock)
      const products = await this.products.freshProductsByIds(guest.items.map((i) => i.product));
      for (const item of guest.items) {
        const product = products.get(String(item.product));
        if (!product || !product.active || product.stock <= 0) continue; // view() below reports it if kept
        // by (product, variant): a line whose variant is gone is not merged (docs/decisions/0098)
        const variant = lineVariant(product, item);
        if (variant === null || (variant && variant.stock <= 0)) continue;
        const stock = variant ? variant.stock : product.stock;
        const capped = await this.mergeLine(user, product, item.quantity, variant);
        if (capped !== undefined) {
          const name = variantName(product, variant);
          notices.push({
            productId: String(product._id),
            ...(variant ? { variantId: String(variant._id) } : {}),
            type: 'quantity_capped',
            message: `Only ${stock} left in stock for ${name}; your cart now has ${capped}`,
            code: 'CART_MERGE_CAPPED',
            params: { product: name, available: stock, quantity: capped },
          });
        }
      }
    }
    const view = await this.views.view(userId);
    const all = [...notices, ...(view.notices ?? [])];
    return { ...view, ...(all.length ? { notices: all } : {}) };
  }

  /** Adds `quantity` to the user's line, capped by the stock; answers the capped quantity when capped. */
  private async mergeLine(
    user: Types.ObjectId,
    product: CatalogProduct,
    quantity: number,
    variant?: ProductVariant,
  ) {
    const vid = variant?._id;
    const match = vid ? { product: product._id, variant: vid } : { product: product._id, variant: null };
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await this.store.line(String(user), product._id, vid);
      const wanted = (existing?.quantity ?? 0) + quantity;
      const next = Math.min(wanted, variant ? variant.stock : product.stock);
      const res = existing
        ? await this.store.userCarts
            .updateOne(
              { user, items: { $elemMatch: { ...match, quantity: existing.quantity } } },
              { $set: { 'items.$.quantity': Math.max(next, existing.quantity) } },
            )
            .exec()
        : await this.store.userCarts
            .updateOne(
              { user, $nor: [{ items: { $elemMatch: match } }] },
              {
                $push: {
                  items: {
                    product: product._id,
                    ...(vid ? { variant: vid } : {}),
                    quantity: next,
                    addedAt: new Date(),
                  },
                },
              },
            )
            .exec();
      if (res.matchedCount) return next < wanted ? Math.max(next, existing?.quantity ?? 0) : undefined;
    }
    throw new ConflictError('The cart changed while merging; please try again', 'CART_CHANGED');
  }

  /** Creates the user's cart once; a concurrent creation loses on the unique index and is fine. */
  private async ensureCart(user: Types.ObjectId): Promise<void> {
    try {
      await this.store.userCarts
        .updateOne({ user }, { $setOnInsert: { items: [] } }, { upsert: true })
        .exec();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}
