import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { cartTotals, codAllowed, isPayOnDelivery, priceOrder, type ShippingMethod } from '@shop/shared';
import { Connection, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { Changes } from '../../common/changes';
import { DomainError, InvalidDataError } from '../../common/errors/domain-error';
import { ShopSignals } from '../../common/metrics/shop-signals';
import { modelDocument } from '../../common/model-document';
import { CartService } from '../cart/cart.service';
import type { Reservation } from '../catalog/catalog.types';
import { priceNowSantim } from '../catalog/sale-price';
import { variantAsProduct, variantPriceDoc } from '../catalog/variants';
import { StockService } from '../catalog/stock.service';
import { couponHolderOf, CouponsService } from '../coupons/coupons.service';
import { NotificationsService } from '../notifications/notifications.service';
import { cashOnDeliveryOf, checkoutTermsOf, SettingsService } from '../settings/settings.service';
import { AccountsService } from '../users/accounts.service';
import type { PlaceOrderDto } from './dto/order.dto';
import { GuestOrderTokens } from './guest-order-tokens';
import type { OrderViewer } from './order-access.guard';
import { OrderIdempotency, type OrderKey, type PlacedOrder } from './order-idempotency.service';
import { OrderNumbersService } from './order-numbers.service';
import { orderTransaction } from './order-transaction';
import { toOrderView, type OrderView } from './order.view';
import { Order } from './schemas/order.schema';

export const EMPTY_CART = 'Your cart is empty';
export const COD_UNAVAILABLE = 'Pay on delivery is not available for this order';

/** Pay on delivery refused (settings' cashOnDelivery): 422, and the transaction, if begun, undoes everything. */
const codUnavailable = () => new DomainError('UNPROCESSABLE', COD_UNAVAILABLE, undefined, 'COD_UNAVAILABLE');

/**
 * What the low-stock alert of a placed order reads of a reservation: the product, or for a variant
 * line the variant (its stock and threshold, named "Name — 30 ml").
 */
function reservedStock(r: Reservation) {
  if (!r.variant) return { product: r.product, quantity: r.quantity };
  return { product: variantAsProduct(r.product, r.variant), quantity: r.quantity };
}

/** A placed order and, for a guest's, the token that opens it. */
export interface PlacedOrderAnswer extends PlacedOrder {
  guestAccessToken?: string;
}

/** Who places the order: an account, or a guest from its cart with its contact. */
type Placer =
  | { user: AuthUser; guestCartId?: undefined }
  | { user?: undefined; guestCartId: string; guest: NonNullable<PlaceOrderDto['guest']> };

/**
 * Placing an order: the cart's lines, every line's stock reserved, the order and its messages, in
 * one transaction; with an Idempotency-Key, once per key (OrderIdempotency).
 */
@Injectable()
export class OrderPlacement {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly idempotency: OrderIdempotency,
    private readonly stock: StockService,
    private readonly cart: CartService,
    private readonly settings: SettingsService,
    private readonly notifications: NotificationsService,
    private readonly accounts: AccountsService,
    private readonly orderNumbers: OrderNumbersService,
    private readonly changes: Changes,
    private readonly signals: ShopSignals,
    private readonly tokens: GuestOrderTokens,
    private readonly coupons: CouponsService,
  ) {}

  /**
   * Places an order from the user's cart, or from a guest's cart (guest checkout: `input.guest`
   * required, ignored for an account). With an Idempotency-Key (a guest's scoped by its cart), a retry
   * (sequential or concurrent) answers the order the first request made, and a guest the same token.
   */
  async placeOrder(
    viewer: OrderViewer,
    input: PlaceOrderDto,
    idempotencyKey?: string,
  ): Promise<PlacedOrderAnswer> {
    if (viewer.user) {
      const user = viewer.user;
      const couponCode = idempotencyKey ? await this.cart.couponOf(user.id) : undefined;
      return this.idempotency.once({ userId: user.id }, idempotencyKey, { ...input, couponCode }, (key) =>
        this.createOrder({ user }, input, key),
      );
    }
    const guestCartId = viewer.guestCartId as string;
    const guest = input.guest;
    if (!guest)
      throw new InvalidDataError(
        'guest is required to order without an account',
        [
          {
            field: 'guest',
            message: 'guest (name, phone, optional email) is required to order without an account',
          },
        ],
        'REQUIRED',
      );
    const couponCode = idempotencyKey ? await this.cart.couponOf({ guestId: guestCartId }) : undefined;
    const placed = await this.idempotency.once(
      { guestCartId },
      idempotencyKey,
      { ...input, couponCode },
      (key) => this.createOrder({ guestCartId, guest }, input, key),
    );
    return { ...placed, guestAccessToken: this.tokens.make(placed.order._id) };
  }

  /**
   * One transaction: take the cart's lines, reserve every line (`stock >= quantity`, active), write
   * the order. All of it commits together or nothing does, even if the database dies midway, so stock
   * is only ever reserved by an order that exists. A short line aborts the whole transaction (409).
   */
  private async createOrder(placer: Placer, input: PlaceOrderDto, key?: OrderKey): Promise<OrderView> {
    const method = (input.shippingMethod ?? 'standard') as ShippingMethod;
    const { user } = placer;
    const userId = user ? new Types.ObjectId(user.id) : undefined;
    // Independent reads at once. The number is taken outside the transaction: every order
    // transaction would otherwise conflict on the counter.
    // The profile phone and language come with the token check (AuthUser.contact); the settings
    // are read once here for the prices and handed to the outbox.
    const [settings, contact, orderNumber] = await Promise.all([
      this.settings.get(),
      user ? (user.contact ?? this.profileContact(user.id)) : {},
      this.orderNumbers.next(),
    ]);
    const { rates, pricesIncludeTax } = checkoutTermsOf(settings);
    const cod = isPayOnDelivery(input.paymentMethod) ? cashOnDeliveryOf(settings) : undefined;
    // off, or not for this region: refused before anything is read or reserved
    if (cod && !codAllowed(cod, input.shippingAddress.state, 0)) throw codUnavailable();
    const guest = placer.user ? undefined : placer.guest;
    const phone = input.shippingAddress.phone ?? guest?.phone ?? contact.phone;
    // the messages' language: the account's choice, else the page's (docs/decisions/0077)
    const language =
      contact.language === 'en' || contact.language === 'am' ? contact.language : input.language;
    const customer = user
      ? { name: user.name, ...(user.email ? { email: user.email } : {}), ...(phone ? { phone } : {}) }
      : { name: guest!.name, ...(guest!.email ? { email: guest!.email } : {}), phone: guest!.phone };
    // whose per-customer coupon count the order takes: an account by id, a phone account or guest by phone
    const couponHolder = couponHolderOf({
      userId: user?.id,
      email: user?.email,
      phone: user ? (contact.phone ?? phone) : guest?.phone,
    });
    const created = await orderTransaction(this.connection, this.changes, async (session, touched) => {
      const taken = await this.cart.takeCart(user ? user.id : { guestId: placer.guestCartId! }, session);
      const lines = taken.lines;
      if (!lines.length) throw new InvalidDataError(EMPTY_CART, undefined, 'EMPTY_CART');
      for (const line of lines) touched.stock.add(String(line.product));
      const reservations = await this.stock.reserveStock(lines, session);
      // the price at this moment: a sale that ended since the cart was seen no longer applies (docs/decisions/0095)
      // a variant's price (with the product's sale) for a variant line (docs/decisions/0098)
      const priceOf = (r: (typeof reservations)[number]) =>
        priceNowSantim(r.variant ? variantPriceDoc(r.product, r.variant) : r.product);
      const priced = reservations.map((r) => ({ unitPrice: priceOf(r), quantity: r.quantity }));
      // the coupon's use, taken in this transaction (uses < limit, the customer's own count): a refusal
      // undoes the cart and the stock with it (docs/decisions/0096-coupon-codes.md)
      const redemption = taken.couponCode
        ? await this.coupons.redeem(taken.couponCode, cartTotals(priced).total, couponHolder, session)
        : undefined;
      const totals = priceOrder(priced, method, rates, pricesIncludeTax, redemption?.discount);
      // over the largest total: the whole transaction (cart, stock) is undone
      if (cod && !codAllowed(cod, input.shippingAddress.state, totals.totalAmount)) throw codUnavailable();
      const now = new Date();
      // The order as Mongoose would store it (common/model-document: the schema's defaults,
      // timestamps, version key, an _id per line), inserted through the model's collection: every
      // value is of its stored type already and was validated (the DTO, the cart, the reservations),
      // and creating a Mongoose document for it cost a sixth of an order's CPU.
      const placed = modelDocument(
        this.orders,
        {
          orderNumber,
          // a guest's order has no account
          ...(userId ? { user: userId } : {}),
          customer,
          orderItems: reservations.map((r) => ({
            product: r.product._id,
            name: r.product.name,
            nameAm: r.product.nameAm || undefined,
            image: r.variant?.images?.[0] ?? r.product.images?.[0],
            // the variant bought and its snapshot
            ...(r.variant
              ? { variant: r.variant._id, sku: r.variant.sku, variantOptions: { ...r.variant.options } }
              : {}),
            quantity: r.quantity,
            priceAtPurchaseSantim: priceOf(r),
          })),
          shippingAddress: { ...input.shippingAddress, ...(phone ? { phone } : {}) },
          shippingMethod: method,
          paymentMethod: input.paymentMethod,
          subtotalSantim: totals.subtotal,
          shippingCostSantim: totals.shippingCost,
          taxSantim: totals.tax,
          totalAmountSantim: totals.totalAmount,
          ...(pricesIncludeTax ? { pricesIncludeTax: true } : {}),
          ...(redemption
            ? {
                couponCode: redemption.couponCode,
                couponHolder: redemption.couponHolder,
                discountSantim: totals.discount,
              }
            : {}),
          ...(language ? { language } : {}),
          statusHistory: [{ status: 'pending', ...(userId ? { by: userId } : {}), at: now }],
          ...key,
        },
        now,
      );
      await this.orders.collection.insertOne(placed, { session });
      touched.orders.add(String(placed._id));
      await this.notifications.enqueue(
        session,
        { type: 'order.placed', order: placed, reserved: reservations.map(reservedStock) },
        { settings, customerLanguage: language ?? null },
      );
      return placed;
    });
    this.signals.orderPlaced(created.paymentMethod);
    return toOrderView(created);
  }

  /**
   * The delivery phone when the order request has none (the spec's clients send none): the account's
   * profile phone, already normalised to E.164 by the profile rules; none when it has none.
   */
  private async profileContact(userId: string): Promise<{ phone?: string; language?: string }> {
    const user = (await this.accounts.me(userId)) as { phone?: string; language?: string };
    return { phone: user.phone || undefined, language: user.language || undefined };
  }
}
