import { Inject, Injectable } from '@nestjs/common';
import { cartTotals, priceOrder, toBirr } from '@shop/shared';
import type { Types } from 'mongoose';
import { absoluteImageUrls, withAbsoluteUrls } from '../../common/absolute-urls.interceptor';
import { DomainError, type ErrorCode, type ErrorParams } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config';
import { shopClock } from '../../common/clock';
import type { CatalogProduct } from '../catalog/catalog.types';
import { ProductsService } from '../catalog/products.service';
import { CouponsService, orderDiscountOf } from '../coupons/coupons.service';
import { checkoutTermsOf, SettingsService } from '../settings/settings.service';
import { toProductView } from '../catalog/product.view';
import { onlyLeftMessage } from '../catalog/stock-errors';
import { priceNowSantim, saleEndedSince } from '../catalog/sale-price';
import { toVariantView, variantName, variantPriceDoc, type ProductVariant } from '../catalog/variants';
import { CartStore, lineVariant, refusalOf, type CartOwner } from './cart-store';
import type { CartItem } from './schemas/cart.schema';

export interface CartNotice {
  productId: string;
  /** The variant of the line told about, when it has one. */
  variantId?: string;
  type: 'removed' | 'quantity_reduced' | 'quantity_capped' | 'repriced';
  message: string;
  /** NOTICE_UNAVAILABLE_REMOVED, NOTICE_OUT_OF_STOCK_REMOVED, NOTICE_QUANTITY_REDUCED or CART_MERGE_CAPPED (texts in libs/i18n). */
  code: ErrorCode;
  params: ErrorParams;
}

export interface CartView {
  success: true;
  products: {
    product: Record<string, unknown>;
    quantity: number;
    variantId?: string;
    variant?: Record<string, unknown>;
  }[];
  total: number;
  itemCount: number;
  notices?: CartNotice[];
  /** A guest cart's id (answered to guests only; send it back as `X-Cart-Id`). */
  cartId?: string;
  /** The coupon code applied (docs/decisions/0096-coupon-codes.md); `discount` its amount in ETB now. */
  coupon?: { code: string; kind?: string; value?: number };
  discount?: number;
  /** Why the coupon gives nothing now (say the subtotal fell under its minimum): a refusal's code and words. */
  couponProblem?: { code: ErrorCode; message: string; params?: ErrorParams };
}

/** The cart as it is answered: current product data, totals, and notices of the lines it had to fix. */
@Injectable()
export class CartViewService {
  constructor(
    private readonly store: CartStore,
    private readonly products: ProductsService,
    private readonly coupons: CouponsService,
    private readonly settings: SettingsService,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'publicUrl'>,
  ) {
    this.origin = config.publicUrl.replace(/\/+$/, '');
  }

  /** PUBLIC_API_URL: the product views' image URLs are made absolute as they are built. */
  private readonly origin: string;

  /** An empty cart as a guest without one sees it. */
  emptyView(): CartView {
    return { success: true, products: [], total: 0, itemCount: 0 };
  }

  /**
   * The cart with current product data; withdrawn, sold-out and over-stock lines are fixed first.
   * `current`: the cart as an update just left it (not read again); `known`: products read already
   * in this request (only the lines' products missing from it are read).
   */
  async view(
    owner: CartOwner,
    current?: { items: CartItem[]; couponCode?: string },
    known?: Map<string, CatalogProduct>,
  ): Promise<CartView> {
    const { model, filter } = this.store.of(owner);
    const cart = current ?? (await model.findOne(filter).lean().exec());
    const items = cart?.items ?? [];
    this.store.seen.note(owner, items);
    const { lines, notices, fixes } = await this.assess(items, known);
    for (const { item, stock } of fixes.reduced) {
      // Conditional, so a concurrent change of the line is never overwritten by a stale clamp.
      const match = item.variant
        ? { product: item.product, variant: item.variant, quantity: item.quantity }
        : { product: item.product, quantity: item.quantity };
      await model
        .updateOne({ ...filter, items: { $elemMatch: match } }, { $set: { 'items.$.quantity': stock } })
        .exec();
    }
    if (fixes.dropped.length)
      await model.updateOne(filter, { $pull: { items: { product: { $in: fixes.dropped } } } }).exec();
    for (const gone of fixes.droppedVariants)
      await model.updateOne(filter, { $pull: { items: gone } }).exec();
    await this.salesEnded(lines, notices, model, filter);
    const priced = lines.map((l) => ({ unitPrice: unitPriceOf(l), quantity: l.quantity }));
    const totals = cartTotals(priced);
    const coupon = cart?.couponCode ? await this.couponLine(cart.couponCode, priced, totals.total) : {};
    // image URLs absolute as the views are built (the AbsoluteUrls interceptor then leaves the answer be)
    return withAbsoluteUrls({
      success: true,
      products: lines.map((l) => ({
        product: toProductView(l.product, this.origin),
        quantity: l.quantity,
        ...(l.variant
          ? {
              variantId: String(l.variant._id),
              variant: absoluteImageUrls(toVariantView(l.product, l.variant), this.origin) as Record<
                string,
                unknown
              >,
            }
          : {}),
      })),
      total: toBirr(totals.total),
      itemCount: totals.itemCount,
      ...(notices.length ? { notices: absoluteImageUrls(notices, this.origin) as CartNotice[] } : {}),
      ...(typeof owner !== 'string' && cart ? { cartId: owner.guestId } : {}),
      ...coupon,
    });
  }

  /**
   * The cart's lines and item count exactly as `view` answers them (the same rules: `assess`), for a
   * page's header (docs/decisions/0105-shopper-summary.md): read only (the fixes `view` writes are
   * left to it), no product views, no prices beyond the count, no coupon. No cart: empty.
   */
  async summary(
    owner: CartOwner | undefined,
  ): Promise<{ itemCount: number; lines: { productId: string; variantId?: string; quantity: number }[] }> {
    if (!owner) return { itemCount: 0, lines: [] };
    const { model, filter } = this.store.of(owner);
    const cart = await model.findOne(filter, { items: 1 }).lean().exec();
    const { lines } = await this.assess(cart?.items ?? []);
    return {
      itemCount: cartTotals(lines.map((l) => ({ unitPrice: 0, quantity: l.quantity }))).itemCount,
      lines: lines.map((l) => ({
        productId: String(l.item.product),
        ...(l.variant ? { variantId: String(l.variant._id) } : {}),
        quantity: l.quantity,
      })),
    };
  }

  /**
   * What the stored lines are now, without changing them: the lines the cart answers (an over-stock
   * line at the stock), the notices, and the fixes to write (lines to drop, quantities to reduce).
   * A line is dropped or reduced only on the product as the database has it now (not as kept).
   */
  private async assess(items: CartItem[], known?: Map<string, CatalogProduct>) {
    const missing = items.map((i) => i.product).filter((id) => !known?.has(String(id)));
    const products = missing.length
      ? await this.products.recentProductsByIds(missing)
      : new Map<string, CatalogProduct>();
    if (known) for (const [id, product] of known) if (!products.has(id)) products.set(id, product);
    const doubtful = items
      .filter((i) => {
        const product = products.get(String(i.product));
        const variant = product ? lineVariant(product, i) : undefined;
        return variant === null || refusalOf(product, i.quantity, 0, variant) !== undefined;
      })
      .map((i) => i.product);
    if (doubtful.length)
      for (const [id, product] of await this.products.freshProductsByIds(doubtful)) products.set(id, product);
    const notices: CartNotice[] = [];
    const lines: Line[] = [];
    const fixes = {
      dropped: [] as Types.ObjectId[],
      droppedVariants: [] as { product: Types.ObjectId; variant: Types.ObjectId }[],
      reduced: [] as { item: CartItem; stock: number }[],
    };
    for (const item of items) {
      const product = products.get(String(item.product));
      const productId = String(item.product);
      const variant = product?.active ? lineVariant(product, item) : undefined;
      // a variant line names its variant ("Name — 30 ml") and says its id (docs/decisions/0098-product-variants.md)
      const ids = { productId, ...(item.variant ? { variantId: String(item.variant) } : {}) };
      const name = product ? variantName(product, variant ?? undefined) : undefined;
      const drop = () =>
        item.variant
          ? fixes.droppedVariants.push({ product: item.product, variant: item.variant })
          : fixes.dropped.push(item.product);
      const stock = variant ? variant.stock : product?.stock;
      if (!product || !product.active || variant === null) {
        drop();
        notices.push({
          ...ids,
          type: 'removed',
          message: `${name ?? 'A product'} is no longer available and was removed from your cart`,
          code: 'NOTICE_UNAVAILABLE_REMOVED',
          params: name ? { product: name } : {},
        });
      } else if (stock! <= 0) {
        drop();
        notices.push({
          ...ids,
          type: 'removed',
          message: `${name} is out of stock and was removed from your cart`,
          code: 'NOTICE_OUT_OF_STOCK_REMOVED',
          params: { product: name! },
        });
      } else if (item.quantity > stock!) {
        fixes.reduced.push({ item, stock: stock! });
        notices.push({
          ...ids,
          type: 'quantity_reduced',
          message: `${onlyLeftMessage(name!, stock!)}; quantity reduced to ${stock}`,
          code: 'NOTICE_QUANTITY_REDUCED',
          params: { product: name!, available: stock! },
        });
        lines.push({ product, variant, item, quantity: stock! });
      } else {
        lines.push({ product, variant, item, quantity: item.quantity });
      }
    }
    return { lines, notices, fixes };
  }

  /**
   * The cart's coupon and its discount now, by the one pricing rule (standard delivery: the cart has
   * no method yet); a coupon that gives nothing now says why (`couponProblem`) and stays applied.
   */
  private async couponLine(
    code: string,
    priced: { unitPrice: number; quantity: number }[],
    subtotal: number,
  ): Promise<Pick<CartView, 'coupon' | 'discount' | 'couponProblem'>> {
    try {
      const found = await this.coupons.check(code, subtotal);
      const { rates, pricesIncludeTax } = checkoutTermsOf(await this.settings.get());
      const totals = priceOrder(priced, 'standard', rates, pricesIncludeTax, orderDiscountOf(found));
      const value = found.kind === 'fixed' ? toBirr(found.value) : found.value;
      return { coupon: { code: found.code, kind: found.kind, value }, discount: toBirr(totals.discount) };
    } catch (error) {
      if (!(error instanceof DomainError) || !error.code) throw error;
      return {
        coupon: { code },
        discount: 0,
        couponProblem: {
          code: error.code,
          message: error.message,
          ...(error.params ? { params: error.params } : {}),
        },
      };
    }
  }

  /**
   * A line whose sale ended since it was added (or last told) is priced at the regular price now and
   * says so once (`repriced`, NOTICE_SALE_ENDED), as stock changes are told; the line remembers it.
   */
  private async salesEnded(
    lines: Line[],
    notices: CartNotice[],
    model: ReturnType<CartStore['of']>['model'],
    filter: ReturnType<CartStore['of']>['filter'],
  ): Promise<void> {
    const now = shopClock.nowMs();
    for (const { product, variant, item } of lines) {
      if (!product.sales?.length) continue;
      const seenAt = new Date(item.repricedAt ?? item.addedAt ?? 0).getTime();
      // a variant line: the variant's price with the product's sales (docs/decisions/0098)
      const priced = variant ? variantPriceDoc(product, variant) : product;
      if (!saleEndedSince(priced, seenAt, now)) continue;
      const price = toBirr(priceNowSantim(priced));
      const name = variantName(product, variant);
      notices.push({
        productId: String(product._id),
        ...(variant ? { variantId: String(variant._id) } : {}),
        type: 'repriced',
        message: `The sale on ${name} has ended; its price is now ${price} ETB`,
        code: 'NOTICE_SALE_ENDED',
        params: { product: name, price },
      });
      await model
        .updateOne(
          variant
            ? { ...filter, items: { $elemMatch: { product: product._id, variant: variant._id } } }
            : { ...filter, 'items.product': product._id },
          { $set: { 'items.$.repricedAt': new Date(now) } },
        )
        .exec();
    }
  }
}

/** A line of the answer: its product as read now, its variant (if any), the stored line, the quantity. */
interface Line {
  product: CatalogProduct;
  variant?: ProductVariant;
  item: CartItem;
  quantity: number;
}

/** What a customer pays for one unit of the line now: the variant's price with the product's sales. */
function unitPriceOf(line: Pick<Line, 'product' | 'variant'>): number {
  return priceNowSantim(line.variant ? variantPriceDoc(line.product, line.variant) : line.product);
}
