import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types, type FilterQuery } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { NotFoundError } from '../../common/errors/domain-error';
import { PRODUCT_NOT_FOUND, type CatalogProduct } from '../catalog/catalog.types';
import { shortOfStock } from '../catalog/stock-errors';
import { hasVariants, variantName, variantOf, type ProductVariant } from '../catalog/variants';
import { Cart, CartItem, GUEST_CART_TTL_DAYS, GuestCart } from './schemas/cart.schema';

export const PRODUCT_NOT_IN_CART = 'Product not in cart';

/** Whose cart: a user's id, or a guest cart's id. */
export type CartOwner = string | { guestId: string };
export type CartModel = Model<{ items: CartItem[]; couponCode?: string }>;

export const GUEST_CART_TTL_MS = GUEST_CART_TTL_DAYS * 24 * 60 * 60 * 1000;

/** A new guest cart id: 128 random bits. */
export function newGuestCartId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Why `quantity` units of the product (with `inCart` of them in the cart already) cannot be in a cart:
 * not found or withdrawn (404), sold out, or more than the stock (409 naming the product); undefined if they can.
 */
export function refusalOf(
  product: CatalogProduct | undefined,
  quantity: number,
  inCart = 0,
  variant?: ProductVariant,
) {
  if (!product || !product.active) return new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
  // a variant line: the variant's stock, named "Name — 30 ml" (docs/decisions/0098-product-variants.md)
  const stock = variant ? variant.stock : product.stock;
  const name = variantName(product, variant);
  if (stock <= 0) return shortOfStock(name, 0);
  if (quantity > stock) return shortOfStock(name, stock);
  if (inCart + quantity > stock) return shortOfStock(name, stock, inCart);
  return undefined;
}

/**
 * The variant a stored cart line is of, on the product as it is now: `undefined` for a line of a
 * product without variants, `null` when the line no longer fits the product (its variant removed,
 * or variants added to a product the line was put in the cart without): such a line is dropped as
 * no longer available.
 */
export function lineVariant(
  product: CatalogProduct,
  item: { variant?: Types.ObjectId | null },
): ProductVariant | null | undefined {
  if (item.variant) return variantOf(product, item.variant) ?? null;
  return hasVariants(product) ? null : undefined;
}

/** Whether a stored line is of this product and variant (none: the line has none). */
export function isLine(
  item: { product: Types.ObjectId; variant?: Types.ObjectId | null },
  product: Types.ObjectId,
  variant?: Types.ObjectId,
): boolean {
  return item.product.equals(product) && String(item.variant ?? '') === String(variant ?? '');
}

/** The key of a line: its product, and its variant when it has one. */
export function lineKey(item: {
  product: Types.ObjectId | string;
  variant?: Types.ObjectId | string | null;
}) {
  return item.variant ? `${String(item.product)}:${String(item.variant)}` : String(item.product);
}

/** A guess kept this long at most (a cart changed elsewhere makes a wrong guess, which costs one update). */
const SEEN_LINES_MS = 60_000;
const SEEN_LINES_MAX = 10_000;

const keyOf = (owner: CartOwner) => (typeof owner === 'string' ? owner : `guest:${owner.guestId}`);

/** Which products each cart held when this instance last saw it (bounded; the oldest forgotten first). */
class SeenLines {
  private readonly carts = new Map<string, { products: Set<string>; until: number }>();

  note(owner: CartOwner, items: readonly { product: Types.ObjectId; variant?: Types.ObjectId }[]): void {
    const key = keyOf(owner);
    this.carts.delete(key);
    if (this.carts.size >= SEEN_LINES_MAX) this.carts.delete(this.carts.keys().next().value as string);
    const products = new Set(items.map((i) => lineKey(i)));
    this.carts.set(key, { products, until: Date.now() + SEEN_LINES_MS });
  }

  /** Whether the cart was last seen without this line (a lineKey; false when not seen lately). */
  lacks(owner: CartOwner, productId: string): boolean {
    const seen = this.carts.get(keyOf(owner));
    return seen !== undefined && seen.until > Date.now() && !seen.products.has(productId);
  }
}

/**
 * The two cart collections (one cart per user, guest carts by their id) and what every cart service
 * shares: where an owner's cart is, its line of a product, and the lines this instance last saw in
 * each cart (a guess for the add, never trusted).
 */
@Injectable()
export class CartStore {
  constructor(
    @InjectModel(Cart.name) readonly userCarts: Model<Cart>,
    @InjectModel(GuestCart.name) readonly guestCarts: Model<GuestCart>,
  ) {}

  /** The lines this instance last saw in each cart. */
  readonly seen = new SeenLines();

  /** The collection and the filter of an owner's cart (a guest cart past its expiry is not there). */
  of(owner: CartOwner): { model: CartModel; filter: FilterQuery<{ items: CartItem[] }> } {
    if (typeof owner === 'string')
      return { model: this.userCarts as unknown as CartModel, filter: { user: new Types.ObjectId(owner) } };
    return {
      model: this.guestCarts as unknown as CartModel,
      filter: { guestId: owner.guestId, expiresAt: { $gt: new Date() } },
    };
  }

  /** The cart's line of a product (and variant), read now (undefined: no such line or no cart). */
  async line(
    owner: CartOwner,
    product: Types.ObjectId,
    variant?: Types.ObjectId,
  ): Promise<CartItem | undefined> {
    return (await this.lines(owner)).find((i) => isLine(i, product, variant));
  }

  /** The cart's lines, read now (none: no cart). */
  async lines(owner: CartOwner): Promise<CartItem[]> {
    const { model, filter } = this.of(owner);
    const cart = await model.findOne(filter).lean().exec();
    return cart?.items ?? [];
  }

  /** Pushes a guest cart's expiry GUEST_CART_TTL_DAYS ahead. */
  async touchGuestCart(guestId: string): Promise<void> {
    await this.guestCarts
      .updateOne({ guestId }, { $set: { expiresAt: new Date(Date.now() + GUEST_CART_TTL_MS) } })
      .exec();
  }
}
