import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  canTransition, customerMayCancel, DEFAULT_PAYMENT_METHOD, priceOrder, type OrderStatus, type ShippingMethod,
} from '@shop/shared';
import { Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { ConflictError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { AuditService } from '../audit/audit.service';
import { onlyLeftMessage, outOfStockMessage, CartService } from '../cart/cart.service';
import { Product } from '../catalog/schemas/product.schema';
import { SettingsService } from '../settings/settings.service';
import type { PlaceOrderDto } from './dto/order.dto';
import { toOrderView, type OrderView } from './order.view';
import { Order } from './schemas/order.schema';
import { OrderRequest } from './schemas/order-request.schema';

export const ORDER_NOT_FOUND = 'Order not found';
export const EMPTY_CART = 'Your cart is empty';
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How long a retry waits for the first request with the same key, and when a claim counts as abandoned. */
const CLAIM_WAIT_MS = 15_000;
const CLAIM_STALE_MS = 60_000;
const CLAIM_POLL_MS = 25;

type LeanOrder = Order & { _id: Types.ObjectId };
type LeanProduct = Product & { _id: Types.ObjectId };
interface Reservation {
  product: LeanProduct;
  quantity: number;
}

export interface PlacedOrder {
  order: OrderView;
  /** True when an earlier request with the same Idempotency-Key made this order. */
  replayed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Injectable()
export class OrdersService {
  private readonly logger = new Logger(OrdersService.name);

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(OrderRequest.name) private readonly requests: Model<OrderRequest>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly cart: CartService,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Places an order from the user's cart. With an Idempotency-Key, a retry (sequential or concurrent)
   * answers the order the first request made and never makes a second one.
   */
  async placeOrder(user: AuthUser, input: PlaceOrderDto, idempotencyKey?: string): Promise<PlacedOrder> {
    if (idempotencyKey === undefined) return { order: await this.createOrder(user, input), replayed: false };
    if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      throw new InvalidDataError('Idempotency-Key must be 1 to 255 visible ASCII characters', [
        { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
      ]);
    }
    const userId = new Types.ObjectId(user.id);
    const deadline = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      const earlier = await this.findByKey(userId, idempotencyKey);
      if (earlier) return { order: earlier, replayed: true };
      const claim = await this.claim(userId, idempotencyKey);
      if (claim) {
        try {
          // Checked again under the claim: the previous holder may have finished just before we claimed.
          const finished = await this.findByKey(userId, idempotencyKey);
          if (finished) return { order: finished, replayed: true };
          return { order: await this.createOrder(user, input, idempotencyKey), replayed: false };
        } catch (error) {
          if (error instanceof ReplayedOrder) return { order: error.order, replayed: true };
          throw error;
        } finally {
          await this.requests.deleteOne({ _id: claim }).exec();
        }
      }
      if (Date.now() > deadline) {
        throw new ConflictError('An order with this Idempotency-Key is still being processed; please retry shortly');
      }
      await sleep(CLAIM_POLL_MS);
    }
  }

  /** The user's orders, newest first. */
  async myOrders(user: AuthUser): Promise<OrderView[]> {
    const docs = await this.orders
      .find({ user: new Types.ObjectId(user.id) })
      .sort({ createdAt: -1, _id: -1 })
      .lean()
      .exec();
    return docs.map((d) => toOrderView(d as LeanOrder));
  }

  /** One order, for its owner or an admin; to anyone else it does not exist. */
  async getOrder(id: string, viewer: AuthUser): Promise<OrderView> {
    return toOrderView(await this.visibleOrder(id, viewer));
  }

  /** The customer's cancellation: only while pending or processing; stock comes back exactly once. */
  async cancel(id: string, viewer: AuthUser): Promise<OrderView> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const order = await this.visibleOrder(id, viewer);
      const from = order.status as OrderStatus;
      if (!customerMayCancel(from)) throw new ConflictError(`Cannot cancel an order that is ${from}`);
      const changed = await this.applyTransition(order, 'cancelled', viewer);
      if (changed) return changed;
    }
    throw new ConflictError('The order changed while cancelling; please try again');
  }

  /**
   * An admin status change following the machine of DECISIONS.md: an invalid move is a 409, a
   * cancellation restores stock (and flags a paid order for refund), every change is in the history
   * and the audit log. Used by `PATCH /api/orders/{id}/status` and the admin API.
   */
  async changeStatus(orderId: string, status: OrderStatus, actor: AuthUser, trackingNumber?: string): Promise<OrderView> {
    const id = parseObjectId(orderId, ORDER_NOT_FOUND);
    for (let attempt = 0; attempt < 5; attempt++) {
      const order = (await this.orders.findById(id).lean().exec()) as LeanOrder | null;
      if (!order) throw new NotFoundError(ORDER_NOT_FOUND);
      const from = order.status as OrderStatus;
      if (from === status && trackingNumber !== undefined) {
        // Same status with a tracking number: only the tracking number changes, no new history entry.
        const updated = await this.orders
          .findOneAndUpdate({ _id: id, status: from }, { $set: { trackingNumber } }, { new: true })
          .lean()
          .exec();
        if (updated) return toOrderView(updated as LeanOrder);
        continue;
      }
      if (!canTransition(from, status)) {
        throw new ConflictError(`Cannot change order status from ${from} to ${status}`);
      }
      const changed = await this.applyTransition(order, status, actor, trackingNumber);
      if (changed) return changed;
    }
    throw new ConflictError('The order changed while updating its status; please try again');
  }

  /**
   * Moves the order from the status it was read with, in one conditional update; answers null if
   * someone else changed it meanwhile (the caller re-reads and re-checks the machine).
   */
  private async applyTransition(
    order: LeanOrder,
    to: OrderStatus,
    actor: AuthUser,
    trackingNumber?: string,
  ): Promise<OrderView | null> {
    const set: Record<string, unknown> = { status: to };
    if (to === 'cancelled' && order.paymentStatus === 'paid') set.paymentStatus = 'refund_pending';
    if (trackingNumber !== undefined) set.trackingNumber = trackingNumber;
    const updated = await this.orders
      .findOneAndUpdate(
        { _id: order._id, status: order.status, paymentStatus: order.paymentStatus },
        { $set: set, $push: { statusHistory: { status: to, by: new Types.ObjectId(actor.id), at: new Date() } } },
        { new: true },
      )
      .lean()
      .exec();
    if (!updated) return null;
    // Only the request whose conditional update won gets here, so stock comes back exactly once.
    if (to === 'cancelled') {
      await this.releaseStock(order.orderItems.map((i) => ({ productId: i.product, quantity: i.quantity })));
    }
    await this.audit.record(actor, {
      entity: 'order',
      entityId: String(order._id),
      action: 'order.status',
      from: order.status,
      to,
    });
    if (set.paymentStatus) {
      await this.audit.record(actor, {
        entity: 'order',
        entityId: String(order._id),
        action: 'order.paymentStatus',
        from: order.paymentStatus,
        to: set.paymentStatus,
      });
    }
    return toOrderView(updated as LeanOrder);
  }

  /** Reserve every line, price, write the order, empty the cart; on failure, undo the reservations. */
  private async createOrder(user: AuthUser, input: PlaceOrderDto, idempotencyKey?: string): Promise<OrderView> {
    const lines = await this.cart.lines(user.id);
    if (!lines.length) throw new InvalidDataError(EMPTY_CART);
    const rates = await this.settings.shippingRates();
    const reservations = await this.reserveStock(lines);
    const method = (input.shippingMethod ?? 'standard') as ShippingMethod;
    const totals = priceOrder(
      reservations.map((r) => ({ unitPrice: r.product.priceSantim, quantity: r.quantity })),
      method,
      rates,
    );
    const userId = new Types.ObjectId(user.id);
    let created;
    try {
      created = await this.orders.create({
        user: userId,
        customer: { name: user.name, email: user.email },
        orderItems: reservations.map((r) => ({
          product: r.product._id,
          name: r.product.name,
          image: r.product.images?.[0],
          quantity: r.quantity,
          priceAtPurchaseSantim: r.product.priceSantim,
        })),
        shippingAddress: { ...input.shippingAddress, country: input.shippingAddress.country || 'Ethiopia' },
        shippingMethod: method,
        paymentMethod: input.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
        subtotalSantim: totals.subtotal,
        shippingCostSantim: totals.shippingCost,
        taxSantim: totals.tax,
        totalAmountSantim: totals.totalAmount,
        currency: 'ETB',
        status: 'pending',
        paymentStatus: 'unpaid',
        statusHistory: [{ status: 'pending', by: userId, at: new Date() }],
        ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      });
    } catch (error) {
      await this.releaseStock(reservations.map((r) => ({ productId: r.product._id, quantity: r.quantity })));
      if (idempotencyKey !== undefined && isDuplicateKeyError(error)) {
        const earlier = await this.findByKey(userId, idempotencyKey);
        if (earlier) throw new ReplayedOrder(earlier);
      }
      throw error;
    }
    await this.cart.removeProducts(user.id, reservations.map((r) => r.product._id));
    return toOrderView(created.toObject() as LeanOrder);
  }

  /**
   * Reserves every line with one conditional update each (`stock >= quantity`, active), so two
   * customers can never take the same last unit; all or nothing: a short line releases the others.
   */
  private async reserveStock(lines: { product: Types.ObjectId; quantity: number }[]): Promise<Reservation[]> {
    const reservations: Reservation[] = [];
    try {
      for (const line of lines) {
        const product = await this.products
          .findOneAndUpdate(
            { _id: line.product, active: true, stock: { $gte: line.quantity } },
            { $inc: { stock: -line.quantity } },
            { new: true },
          )
          .lean()
          .exec();
        if (!product) throw await this.shortLineError(line.product, line.quantity);
        reservations.push({ product: product as LeanProduct, quantity: line.quantity });
      }
      return reservations;
    } catch (error) {
      await this.releaseStock(reservations.map((r) => ({ productId: r.product._id, quantity: r.quantity })));
      throw error;
    }
  }

  private async shortLineError(productId: Types.ObjectId, quantity: number): Promise<ConflictError> {
    const product = await this.products.findById(productId).lean().exec();
    if (!product || !product.active) {
      return new ConflictError(`${product?.name ?? 'A product in your cart'} is no longer available`);
    }
    if (product.stock <= 0) return new ConflictError(outOfStockMessage(product.name));
    if (product.stock < quantity) return new ConflictError(onlyLeftMessage(product.name, product.stock));
    // Stock came back between the failed update and this read: still refuse; the customer retries.
    return new ConflictError(`Insufficient stock for ${product.name}`);
  }

  /** Gives reserved or ordered units back (atomic $inc per line). */
  private async releaseStock(lines: { productId: Types.ObjectId; quantity: number }[]): Promise<void> {
    for (const line of lines) {
      try {
        await this.products.updateOne({ _id: line.productId }, { $inc: { stock: line.quantity } }).exec();
      } catch (error) {
        this.logger.error(`Could not give back ${line.quantity} of product ${String(line.productId)}`, error as Error);
      }
    }
  }

  private async visibleOrder(id: string, viewer: AuthUser): Promise<LeanOrder> {
    const order = (await this.orders
      .findById(parseObjectId(id, ORDER_NOT_FOUND))
      .lean()
      .exec()) as LeanOrder | null;
    if (!order || (viewer.role !== 'admin' && String(order.user) !== viewer.id)) throw new NotFoundError(ORDER_NOT_FOUND);
    return order;
  }

  private async findByKey(user: Types.ObjectId, idempotencyKey: string): Promise<OrderView | undefined> {
    const order = await this.orders.findOne({ user, idempotencyKey }).lean().exec();
    return order ? toOrderView(order as LeanOrder) : undefined;
  }

  /** Takes the key's claim; false if another request holds it (an abandoned claim is cleared first). */
  private async claim(user: Types.ObjectId, idempotencyKey: string): Promise<Types.ObjectId | null> {
    try {
      return (await this.requests.create({ user, idempotencyKey, createdAt: new Date() }))._id;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await this.requests
        .deleteOne({ user, idempotencyKey, createdAt: { $lt: new Date(Date.now() - CLAIM_STALE_MS) } })
        .exec();
      return null;
    }
  }
}

/** The unique index found an earlier order with the same key: answer it instead. */
class ReplayedOrder extends Error {
  constructor(readonly order: OrderView) {
    super('Replayed order');
  }
}
