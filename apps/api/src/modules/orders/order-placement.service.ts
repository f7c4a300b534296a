import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { priceOrder, type ShippingMethod } from '@shop/shared';
import { Connection, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { Changes } from '../../common/changes';
import { InvalidDataError } from '../../common/errors/domain-error';
import { modelDocument } from '../../common/model-document';
import { CartService } from '../cart/cart.service';
import { StockService } from '../catalog/stock.service';
import { NotificationsService } from '../notifications/notifications.service';
import { checkoutTermsOf, SettingsService } from '../settings/settings.service';
import { AccountsService } from '../users/accounts.service';
import type { PlaceOrderDto } from './dto/order.dto';
import { OrderIdempotency, type OrderKey, type PlacedOrder } from './order-idempotency.service';
import { OrderNumbersService } from './order-numbers.service';
import { orderTransaction } from './order-transaction';
import { toOrderView, type OrderView } from './order.view';
import { Order } from './schemas/order.schema';

export const EMPTY_CART = 'Your cart is empty';

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
  ) {}

  /**
   * Places an order from the user's cart. With an Idempotency-Key, a retry (sequential or concurrent)
   * answers the order the first request made and never makes a second one.
   */
  placeOrder(user: AuthUser, input: PlaceOrderDto, idempotencyKey?: string): Promise<PlacedOrder> {
    return this.idempotency.once(user.id, idempotencyKey, input, (key) => this.createOrder(user, input, key));
  }

  /**
   * One transaction: take the cart's lines, reserve every line (`stock >= quantity`, active), write
   * the order. All of it commits together or nothing does, even if the database dies midway, so stock
   * is only ever reserved by an order that exists. A short line aborts the whole transaction (409).
   */
  private async createOrder(user: AuthUser, input: PlaceOrderDto, key?: OrderKey): Promise<OrderView> {
    const method = (input.shippingMethod ?? 'standard') as ShippingMethod;
    const userId = new Types.ObjectId(user.id);
    // Independent reads at once. The number is taken outside the transaction: every order
    // transaction would otherwise conflict on the counter.
    // The profile phone and language come with the token check (AuthUser.contact); the settings
    // are read once here for the prices and handed to the outbox.
    const [settings, contact, orderNumber] = await Promise.all([
      this.settings.get(),
      user.contact ?? this.profileContact(user.id),
      this.orderNumbers.next(),
    ]);
    const { rates, pricesIncludeTax } = checkoutTermsOf(settings);
    const phone = input.shippingAddress.phone ?? contact.phone;
    const created = await orderTransaction(this.connection, this.changes, async (session, touched) => {
      const lines = await this.cart.takeLines(user.id, session);
      if (!lines.length) throw new InvalidDataError(EMPTY_CART, undefined, 'EMPTY_CART');
      for (const line of lines) touched.stock.add(String(line.product));
      const reservations = await this.stock.reserveStock(lines, session);
      const totals = priceOrder(
        reservations.map((r) => ({ unitPrice: r.product.priceSantim, quantity: r.quantity })),
        method,
        rates,
        pricesIncludeTax,
      );
      const now = new Date();
      // The order as Mongoose would store it (common/model-document: the schema's defaults,
      // timestamps, version key, an _id per line), inserted through the model's collection: every
      // value is of its stored type already and was validated (the DTO, the cart, the reservations),
      // and creating a Mongoose document for it cost a sixth of an order's CPU.
      const placed = modelDocument(
        this.orders,
        {
          orderNumber,
          user: userId,
          customer: { name: user.name, email: user.email },
          orderItems: reservations.map((r) => ({
            product: r.product._id,
            name: r.product.name,
            nameAm: r.product.nameAm || undefined,
            image: r.product.images?.[0],
            quantity: r.quantity,
            priceAtPurchaseSantim: r.product.priceSantim,
          })),
          shippingAddress: { ...input.shippingAddress, ...(phone ? { phone } : {}) },
          shippingMethod: method,
          paymentMethod: input.paymentMethod,
          subtotalSantim: totals.subtotal,
          shippingCostSantim: totals.shippingCost,
          taxSantim: totals.tax,
          totalAmountSantim: totals.totalAmount,
          ...(pricesIncludeTax ? { pricesIncludeTax: true } : {}),
          statusHistory: [{ status: 'pending', by: userId, at: now }],
          ...key,
        },
        now,
      );
      await this.orders.collection.insertOne(placed, { session });
      touched.orders.add(String(placed._id));
      await this.notifications.enqueue(
        session,
        { type: 'order.placed', order: placed, reserved: reservations },
        { settings, customerLanguage: contact.language ?? null },
      );
      return placed;
    });
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
