import { Injectable } from '@nestjs/common';
import { DEFAULT_ADD_QUANTITY, toSantim } from '@shop/shared';
import { ClientSession, Types, type mongo } from 'mongoose';
import { ConflictError, NotFoundError } from '../../common/errors/domain-error';
import { modelDocument, modelSubdocument } from '../../common/model-document';
import { isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { PRODUCT_NOT_FOUND, type CatalogProduct, type StockLine } from '../catalog/catalog.types';
import { ProductsService } from '../catalog/products.service';
import { CouponsService } from '../coupons/coupons.service';
import { chosenVariant, defaultVariantOf, hasVariants, VARIANT_NOT_FOUND } from '../catalog/variants';
import {
  CartStore,
  GUEST_CART_TTL_MS,
  PRODUCT_NOT_IN_CART,
  isLine,
  lineKey,
  refusalOf,
  type CartOwner,
} from './cart-store';
import { CartViewService, type CartView } from './cart-view.service';
import type { CartItem } from './schemas/cart.schema';

export { onlyLeftMessage, outOfStockMessage, shortOfStock } from '../catalog/stock-errors';
export { PRODUCT_NOT_IN_CART, type CartOwner } from './cart-store';
export type { CartNotice, CartView } from './cart-view.service';

/**
 * A cart's lines: adding, setting, removing, clearing, and handing them to order placement. One cart
 * document per user (unique index), changed only with atomic conditional updates, so two tabs adding
 * at once can never push a line past the stock or create two carts.
 */
@Injectable()
export class CartService {
  constructor(
    private readonly store: CartStore,
    private readonly views: CartViewService,
    private readonly products: ProductsService,
    private readonly coupons: CouponsService,
  ) {}

  /** The cart's item count and lines as `GET /cart` answers them, read only (CartViewService.summary). */
  summary(owner: CartOwner | undefined) {
    return this.views.summary(owner);
  }

  /** A guest without a cart updating a line: the line is not there (a malformed id is still 404 Product not found). */
  notInCart(productId: string): NotFoundError {
    this.checkProductId(productId);
    return new NotFoundError(PRODUCT_NOT_IN_CART, 'PRODUCT_NOT_IN_CART');
  }

  checkProductId(productId: string): void {
    parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
  }

  /**
   * Adds units of an active product; the line never exceeds the stock (409 naming the product).
   * No read of the cart: the product comes from what this instance read of it moments ago where it
   * can (ProductsService.recentProductsByIds), and one conditional update grows the line (`quantity <=
   * stock - added`) and answers the cart it left, from which the answer is built (the other lines'
   * products as kept too), or pushes a line that is not there yet (creating a user's first cart with
   * the same upsert; a guest cart's expiry moves in the same update): the one the lines this instance
   * last saw in the cart point to is tried first, the other when it matches nothing. When neither
   * matches, the line is read and the add decided again: the conditions, not the reads, are what make
   * two tabs adding at once safe. A refusal (unavailable, sold out, over the stock) is only ever given
   * on the product read again from the database.
   */
  async add(
    owner: CartOwner,
    productId: string,
    quantity = DEFAULT_ADD_QUANTITY,
    variantId?: string,
  ): Promise<CartView> {
    const { model, filter: where } = this.store.of(owner);
    const filter = where as Record<string, unknown>;
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const key = id.toHexString();
    const readNow = new Set<string>();
    let products = await this.products.recentProductsByIds([id], readNow);
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
      // the variant named, else a product with variants' default one (docs/decisions/0098-product-variants.md)
      let variant;
      try {
        variant = product && product.active ? chosenVariant(product, variantId) : undefined;
      } catch (error) {
        if (fresh) throw error;
        products = await this.products.freshProductsByIds([id]);
        fresh = true;
        attempt--;
        continue;
      }
      const refusal = refusalOf(product, quantity, line?.quantity ?? 0, variant);
      if (refusal && !fresh) {
        products = await this.products.freshProductsByIds([id]);
        fresh = true;
        attempt--;
        continue;
      }
      if (refusal || !product) throw refusal;
      const stock = variant ? variant.stock : product.stock;
      const vid = variant?._id;
      // the line of the product (and variant): a line without a variant matches `variant: null`
      const match = vid ? { product: id, variant: vid } : { product: id };
      // the line grows only if the result stays within the stock (one atomic conditional update)
      const grow = () =>
        model.collection.findOneAndUpdate(
          { ...filter, items: { $elemMatch: { ...match, quantity: { $lte: stock - quantity } } } },
          { $inc: { 'items.$.quantity': quantity }, $set },
          { returnDocument: 'after', includeResultMetadata: false },
        );
      // a user's cart is created here if it does not exist yet (upsert; the unique index on `user`
      // turns a concurrent creation, or a cart that has the line by now, into a duplicate key); the
      // line, and a new cart, as the model would store them (common/model-document)
      const push = () =>
        model.collection
          .findOneAndUpdate(
            vid
              ? { ...filter, $nor: [{ items: { $elemMatch: match } }] }
              : { ...filter, 'items.product': { $ne: id } },
            {
              $push: {
                items: modelSubdocument(
                  model,
                  'items',
                  vid ? { product: id, variant: vid, quantity } : { product: id, quantity },
                  now,
                ),
              },
              $set,
              ...(guest ? {} : { $setOnInsert: this.newCartFields(now) }),
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
          ? this.store.seen.lacks(owner, lineKey({ product: id, variant: vid }))
            ? [push, grow]
            : [grow, push]
          : line
            ? [grow]
            : [push];
      const updated = (await first()) ?? (second ? await second() : null);
      if (updated) return this.views.view(owner, updated as unknown as { items: CartItem[] }, products);
      // The line is over the stock kept, or another request changed it (or the cart): look, and decide again.
      line = (await this.store.line(owner, id, vid)) ?? null;
      if (attempt >= 1) await new Promise((resolve) => setTimeout(resolve, attempt * 5));
    }
    throw new ConflictError('The cart changed while adding; please try again', 'CART_CHANGED');
  }

  /**
   * What a user's cart created by an add's upsert holds besides what the update itself sets (the
   * owner from the filter, the line pushed, `updatedAt`) and its `_id` (the database's, as on any
   * upsert): the rest of the document the model would store (its creation time, version key).
   */
  private newCartFields(now: Date): Record<string, unknown> {
    const fields: Record<string, unknown> = { ...modelDocument(this.store.userCarts, {}, now) };
    for (const setByTheUpdate of ['_id', 'user', 'items', 'updatedAt']) delete fields[setByTheUpdate];
    return fields;
  }

  /**
   * Which line of the product a request without `variantId` means: the product's line without a
   * variant, else its only line, else its default variant's (docs/decisions/0098-product-variants.md).
   */
  private async lineVariantId(
    owner: CartOwner,
    product: { _id: Types.ObjectId; variants?: CatalogProduct['variants'] },
    variantId?: string,
  ): Promise<Types.ObjectId | undefined> {
    if (variantId) return chosenVariant(product, variantId)!._id;
    if (!hasVariants(product)) return undefined;
    const lines = (await this.store.lines(owner)).filter((i) => i.product.equals(product._id));
    if (lines.some((i) => !i.variant)) return undefined;
    if (lines.length === 1) return lines[0].variant;
    return defaultVariantOf(product.variants!)!._id;
  }

  /** Sets a line's quantity, between 1 and the stock (the variant's for a variant line). */
  async update(owner: CartOwner, productId: string, quantity: number, variantId?: string): Promise<CartView> {
    const { model, filter } = this.store.of(owner);
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const product = await this.products.productById(id);
    if (!product || !product.active) {
      await model.updateOne(filter, { $pull: { items: { product: id } } }).exec();
      throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    }
    const vid = await this.lineVariantId(owner, product, variantId);
    const variant = vid ? product.variants!.find((v) => v._id.equals(vid)) : undefined;
    if (vid && !variant) throw new NotFoundError(VARIANT_NOT_FOUND, 'VARIANT_NOT_FOUND');
    const refusal = refusalOf(product, quantity, 0, variant);
    if (refusal) throw refusal;
    const res = await model
      .updateOne(
        vid
          ? { ...filter, items: { $elemMatch: { product: id, variant: vid } } }
          : { ...filter, 'items.product': id },
        { $set: { 'items.$.quantity': quantity } },
      )
      .exec();
    if (!res.matchedCount) throw new NotFoundError(PRODUCT_NOT_IN_CART, 'PRODUCT_NOT_IN_CART');
    if (typeof owner !== 'string') await this.store.touchGuestCart(owner.guestId);
    return this.views.view(owner);
  }

  /**
   * Removes a line; removing one that is not there is not an error (DELETE is idempotent). Without
   * `variantId`: the product's line without a variant, else its only line, else its default variant's.
   */
  async remove(owner: CartOwner, productId: string, variantId?: string): Promise<CartView> {
    const { model, filter } = this.store.of(owner);
    const id = parseObjectId(productId, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    if (variantId) {
      const vid = parseObjectId(variantId, VARIANT_NOT_FOUND, 'VARIANT_NOT_FOUND');
      await model.updateOne(filter, { $pull: { items: { product: id, variant: vid } } }).exec();
      return this.views.view(owner);
    }
    // the product's line without a variant (null matches a line that has none): one update, as before variants
    const plain = await model
      .updateOne(
        { ...filter, items: { $elemMatch: { product: id, variant: null } } },
        { $pull: { items: { product: id, variant: null } } },
      )
      .exec();
    if (plain.matchedCount) return this.views.view(owner);
    const lines = (await this.store.lines(owner)).filter((i) => i.product.equals(id));
    let gone = lines.length === 1 ? lines[0] : undefined;
    if (!gone && lines.length) {
      const product = await this.products.productById(id);
      const chosen = product && hasVariants(product) ? defaultVariantOf(product.variants!) : undefined;
      gone = lines.find((i) => isLine(i, id, chosen?._id));
    }
    if (gone?.variant)
      await model.updateOne(filter, { $pull: { items: { product: id, variant: gone.variant } } }).exec();
    return this.views.view(owner);
  }

  async clear(owner: CartOwner): Promise<CartView> {
    const { model, filter } = this.store.of(owner);
    await model.updateOne(filter, { $set: { items: [] } }).exec();
    return this.views.view(owner);
  }

  /**
   * Empties the cart inside the caller's transaction and answers the lines it held: the lines ordered
   * are exactly the lines removed, and a change to the cart before the commit retries the transaction.
   */
  async takeLines(owner: CartOwner, session: ClientSession): Promise<StockLine[]> {
    return (await this.takeCart(owner, session)).lines;
  }

  /**
   * takeLines, and the coupon code the cart carries (it stays on the emptied cart, so that a retry
   * of the order under its Idempotency-Key fingerprints the same code: docs/decisions/0096-coupon-codes.md).
   */
  async takeCart(
    owner: CartOwner,
    session: ClientSession,
  ): Promise<{ lines: StockLine[]; couponCode?: string }> {
    // a user's cart, or a guest's live cart (guest checkout)
    const { model, filter } = this.store.of(owner);
    const cart = await model.collection.findOneAndUpdate(
      { ...(filter as Record<string, unknown>), 'items.0': { $exists: true } },
      { $set: { items: [], updatedAt: new Date() } },
      {
        returnDocument: 'before',
        session,
        projection: { items: 1, couponCode: 1 },
        includeResultMetadata: false,
      },
    );
    this.store.seen.note(owner, []);
    const lines = ((cart?.items ?? []) as CartItem[]).map((i) => ({
      product: i.product,
      ...(i.variant ? { variant: i.variant } : {}),
      quantity: i.quantity,
    }));
    return { lines, ...(cart?.couponCode ? { couponCode: cart.couponCode as string } : {}) };
  }

  /** The coupon code a cart carries (none: no cart or no code). */
  async couponOf(owner: CartOwner): Promise<string | undefined> {
    const { model, filter } = this.store.of(owner);
    const cart = (await model.findOne(filter, { couponCode: 1 }).lean().exec()) as {
      couponCode?: string;
    } | null;
    return cart?.couponCode || undefined;
  }

  /**
   * Applies a coupon code to the cart: checked (CouponsService.check) against the cart's subtotal
   * now and, when the customer is known, their own uses; the code is stored upper-case.
   */
  async applyCoupon(owner: CartOwner, code: string, holder?: string): Promise<CartView> {
    const current = await this.views.view(owner);
    const coupon = await this.coupons.check(code, toSantim(current.total), holder);
    const { model, filter } = this.store.of(owner);
    // a user's cart is made if it has none yet (a guest's exists: the controller made it)
    await model
      .updateOne(filter, { $set: { couponCode: coupon.code } }, { upsert: typeof owner === 'string' })
      .exec();
    return this.views.view(owner);
  }

  /** Takes the coupon code off the cart (idempotent). */
  async removeCoupon(owner: CartOwner): Promise<CartView> {
    const { model, filter } = this.store.of(owner);
    await model.updateOne(filter, { $unset: { couponCode: 1 } }).exec();
    return this.views.view(owner);
  }
}
