import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import {
  canTransition,
  customerMayCancel,
  DEFAULT_PAYMENT_METHOD,
  DELIVERY_COUNTRY,
  priceOrder,
  type OrderStatus,
  type ShippingMethod,
} from '@shop/shared';
import { ClientSession, Connection, Model, Types } from 'mongoose';
import { createHash } from 'node:crypto';
import type { AuthUser } from '../../common/auth/auth-user';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
} from '../../common/errors/domain-error';
import { isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { AuditService } from '../audit/audit.service';
import { NotificationsService } from '../notifications/notifications.service';
import { shortOfStock } from '../cart/cart.service';
import { Cart } from '../cart/schemas/cart.schema';
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
/** MongoDB's write-conflict code: a transaction lost the race for a document (retried by withTransaction). */
const WRITE_CONFLICT = 112;
export const BUSY_MESSAGE = 'The shop is busy with the same products; please try again';

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

/** Hidden beside a replayed order: the fingerprint of the request that made it. */
const FINGERPRINT = Symbol('idempotencyFingerprint');
type KeyedOrder = OrderView & { [FINGERPRINT]?: string };

/** What makes two order requests the same request: the address, payment and shipping choices. */
function requestFingerprint(input: PlaceOrderDto): string {
  const a = input.shippingAddress;
  const canonical = [
    a.street,
    a.city,
    a.state,
    a.zipCode,
    a.country ?? DELIVERY_COUNTRY,
    input.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
    input.shippingMethod ?? 'standard',
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

@Injectable()
export class OrdersService {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(OrderRequest.name) private readonly requests: Model<OrderRequest>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(Cart.name) private readonly carts: Model<Cart>,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
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
    const fingerprint = requestFingerprint(input);
    for (;;) {
      const earlier = await this.findByKey(userId, idempotencyKey);
      if (earlier) return this.replay(earlier, fingerprint);
      const claim = await this.claim(userId, idempotencyKey);
      if (claim) {
        try {
          // Checked again under the claim: the previous holder may have finished just before we claimed.
          const finished = await this.findByKey(userId, idempotencyKey);
          if (finished) return this.replay(finished, fingerprint);
          return { order: await this.createOrder(user, input, idempotencyKey, fingerprint), replayed: false };
        } catch (error) {
          if (error instanceof ReplayedOrder) return this.replay(error.order, fingerprint);
          throw error;
        } finally {
          await this.requests.deleteOne({ _id: claim }).exec();
        }
      }
      if (Date.now() > deadline) {
        throw new ConflictError(
          'An order with this Idempotency-Key is still being processed; please retry shortly',
        );
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
  async changeStatus(
    orderId: string,
    status: OrderStatus,
    actor: AuthUser,
    trackingNumber?: string,
  ): Promise<OrderView> {
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
   * someone else changed it meanwhile (the caller re-reads and re-checks the machine). A cancellation
   * gives the stock back in the same transaction: the status and the stock change together or not at all.
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
    const updated = await this.inTransaction(async (session) => {
      const changed = await this.orders
        .findOneAndUpdate(
          { _id: order._id, status: order.status, paymentStatus: order.paymentStatus },
          {
            $set: set,
            $push: { statusHistory: { status: to, by: new Types.ObjectId(actor.id), at: new Date() } },
          },
          { new: true, session },
        )
        .lean()
        .exec();
      // Only the transaction whose conditional update won gives stock back, so it comes back exactly once.
      if (changed && to === 'cancelled') {
        for (const item of order.orderItems) {
          await this.products
            .updateOne({ _id: item.product }, { $inc: { stock: item.quantity } }, { session })
            .exec();
        }
      }
      if (changed)
        await this.notifications.enqueue(session, { type: 'order.status', order: changed as LeanOrder });
      return changed;
    });
    if (!updated) return null;
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

  /**
   * One transaction: take the cart's lines, reserve every line (`stock >= quantity`, active), write
   * the order. All of it commits together or nothing does, even if the database dies midway, so stock
   * is only ever reserved by an order that exists. A short line aborts the whole transaction (409).
   */
  private async createOrder(
    user: AuthUser,
    input: PlaceOrderDto,
    idempotencyKey?: string,
    fingerprint?: string,
  ): Promise<OrderView> {
    const rates = await this.settings.shippingRates();
    const method = (input.shippingMethod ?? 'standard') as ShippingMethod;
    const userId = new Types.ObjectId(user.id);
    try {
      const created = await this.inTransaction(async (session) => {
        const lines = await this.takeCartLines(userId, session);
        if (!lines.length) throw new InvalidDataError(EMPTY_CART);
        const reservations = await this.reserveStock(lines, session);
        const totals = priceOrder(
          reservations.map((r) => ({ unitPrice: r.product.priceSantim, quantity: r.quantity })),
          method,
          rates,
        );
        const [doc] = await this.orders.create(
          [
            {
              user: userId,
              customer: { name: user.name, email: user.email },
              orderItems: reservations.map((r) => ({
                product: r.product._id,
                name: r.product.name,
                image: r.product.images?.[0],
                quantity: r.quantity,
                priceAtPurchaseSantim: r.product.priceSantim,
              })),
              shippingAddress: {
                ...input.shippingAddress,
                country: input.shippingAddress.country || DELIVERY_COUNTRY,
              },
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
              ...(idempotencyKey !== undefined
                ? { idempotencyKey, idempotencyFingerprint: fingerprint }
                : {}),
            },
          ],
          { session },
        );
        await this.notifications.enqueue(session, {
          type: 'order.placed',
          order: doc.toObject(),
          reserved: reservations,
        });
        return doc.toObject() as LeanOrder;
      });
      return toOrderView(created);
    } catch (error) {
      if (idempotencyKey !== undefined && isDuplicateKeyError(error)) {
        const earlier = await this.findByKey(userId, idempotencyKey);
        if (earlier) throw new ReplayedOrder(earlier);
      }
      throw error;
    }
  }

  /**
   * Empties the cart inside the transaction and answers the lines it held: the lines ordered are
   * exactly the lines removed, and a change to the cart before the commit retries the transaction.
   */
  private async takeCartLines(
    user: Types.ObjectId,
    session: ClientSession,
  ): Promise<{ product: Types.ObjectId; quantity: number }[]> {
    const cart = await this.carts
      .findOneAndUpdate(
        { user, 'items.0': { $exists: true } },
        { $set: { items: [] } },
        { new: false, session },
      )
      .lean()
      .exec();
    return (cart?.items ?? []).map((i) => ({ product: i.product, quantity: i.quantity }));
  }

  /**
   * Reserves every line with one conditional update each (`stock >= quantity`, active), so two
   * customers can never take the same last unit; a short line throws and the transaction undoes the rest.
   */
  private async reserveStock(
    lines: { product: Types.ObjectId; quantity: number }[],
    session: ClientSession,
  ): Promise<Reservation[]> {
    const reservations: Reservation[] = [];
    for (const line of lines) {
      const product = await this.products
        .findOneAndUpdate(
          { _id: line.product, active: true, stock: { $gte: line.quantity } },
          { $inc: { stock: -line.quantity } },
          { new: true, session },
        )
        .lean()
        .exec();
      if (!product) throw await this.shortLineError(line.product, line.quantity, session);
      reservations.push({ product: product as LeanProduct, quantity: line.quantity });
    }
    return reservations;
  }

  private async shortLineError(
    productId: Types.ObjectId,
    quantity: number,
    session: ClientSession,
  ): Promise<ConflictError> {
    const product = await this.products.findById(productId).session(session).lean().exec();
    if (!product || !product.active) {
      const name = product?.name ?? 'A product in your cart';
      return new ConflictError(`${name} is no longer available`, 'UNAVAILABLE', { product: name });
    }
    if (product.stock < quantity) return shortOfStock(product.name, product.stock);
    // Stock came back between the failed update and this read: still refuse; the customer retries.
    return new ConflictError(`Insufficient stock for ${product.name}`, 'INSUFFICIENT_STOCK', {
      product: product.name,
      available: product.stock,
      inCart: 0,
    });
  }

  /**
   * Runs `work` in one MongoDB transaction (Mongoose passes the session to nothing by itself: every
   * operation inside takes `{ session }`). A write conflict with another transaction is retried by
   * the driver from the start, after a short random pause so that many buyers of one product do not
   * retry in lockstep; a retry re-reads everything, so it ends in a commit or in the domain error
   * (say a 409 for the stock another buyer just took). Conflicts that outlast the driver's two-minute
   * retry window are a 409 asking to retry, never a 500.
   */
  private async inTransaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    let attempt = 0;
    let result: T | undefined;
    try {
      await this.connection.transaction(async (session) => {
        attempt += 1;
        if (attempt > 1) await sleep(Math.random() * Math.min(50, 2 * attempt));
        result = await work(session);
      });
    } catch (error) {
      if ((error as { code?: number } | undefined)?.code === WRITE_CONFLICT)
        throw new ConflictError(BUSY_MESSAGE);
      throw error;
    }
    return result as T;
  }

  private async visibleOrder(id: string, viewer: AuthUser): Promise<LeanOrder> {
    const order = (await this.orders
      .findById(parseObjectId(id, ORDER_NOT_FOUND))
      .lean()
      .exec()) as LeanOrder | null;
    if (!order || (viewer.role !== 'admin' && String(order.user) !== viewer.id))
      throw new NotFoundError(ORDER_NOT_FOUND);
    return order;
  }

  private async findByKey(user: Types.ObjectId, idempotencyKey: string): Promise<KeyedOrder | undefined> {
    const order = await this.orders.findOne({ user, idempotencyKey }).lean().exec();
    return order
      ? Object.assign(toOrderView(order as LeanOrder), { [FINGERPRINT]: order.idempotencyFingerprint })
      : undefined;
  }

  /** The earlier order of this key, unless the key now comes with a different request (422: a client bug, not a retry). */
  private replay(earlier: KeyedOrder, fingerprint: string): PlacedOrder {
    const stored = earlier[FINGERPRINT];
    if (stored && stored !== fingerprint) {
      throw new DomainError(
        'UNPROCESSABLE',
        'This Idempotency-Key was already used for a different order request',
      );
    }
    const order = { ...earlier };
    delete order[FINGERPRINT];
    return { order, replayed: true };
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
  constructor(readonly order: KeyedOrder) {
    super('Replayed order');
  }
}
