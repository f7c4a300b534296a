import { HotCache } from '../../common/hot-cache';
import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import {
  canTransition,
  canTransitionPayment,
  customerMayCancel,
  DEFAULT_PAYMENT_METHOD,
  DELIVERY_COUNTRY,
  priceOrder,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  SHIPPING_METHODS,
  type OrderStatus,
  type PaymentStatus,
  type ShippingMethod,
  parseOrderNumber,
} from '@shop/shared';
import { ClientSession, Connection, FilterQuery, Model, Types, type mongo } from 'mongoose';
import { createHash } from 'node:crypto';
import type { AuthUser } from '../../common/auth/auth-user';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
} from '../../common/errors/domain-error';
import {
  definedFields,
  escapeRegex,
  inTransaction,
  isDuplicateKeyError,
  parseObjectId,
} from '../../common/mongo';
import {
  filterEnum,
  filterIds,
  filterText,
  listResource,
  type FilterValue,
  type ReactAdminListQuery,
} from '../admin/list/react-admin';
import { AuditService } from '../audit/audit.service';
import { CartService } from '../cart/cart.service';
import { CatalogService } from '../catalog/catalog.service';
import { NotificationsService } from '../notifications/notifications.service';
import { AccountsService } from '../users/accounts.service';
import { OrderNumbersService } from './order-numbers.service';
import { checkoutTermsOf, SettingsService } from '../settings/settings.service';
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
/** How often an instance deletes claims past CLAIM_STALE_MS (sooner than the TTL index's hour; a backstop, as RateCounters' sweep). */
const CLAIM_SWEEP_EVERY_MS = 10 * 60 * 1000;
/** MongoDB's write-conflict code: a transaction lost the race for a document (retried by withTransaction). */
/** At most this many orders match an id fragment, so a one-character search cannot list the whole shop. */
const MAX_ID_MATCHES = 1000;
export const BUSY_MESSAGE = 'The shop is busy with the same products; please try again';

type LeanOrder = Order & { _id: Types.ObjectId };
/** A stored order as the orders module hands it to other modules (read-only for them). */
export type OrderRecord = LeanOrder;

/** Payment states from which the machine (PAYMENT_TRANSITIONS) allows a move to `to`. */
const paymentSources = (to: PaymentStatus): PaymentStatus[] =>
  PAYMENT_STATUSES.filter((from) => canTransitionPayment(from, to));
/** An order can take a payment while its payment status may still become paid (unpaid, failed). */
export const PAYABLE_PAYMENT_STATUSES: readonly PaymentStatus[] = paymentSources('paid');

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
    a.zipCode ?? '',
    a.country ?? DELIVERY_COUNTRY,
    a.phone ?? '',
    a.landmark ?? '',
    input.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
    input.shippingMethod ?? 'standard',
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** The shop's days are Addis Ababa days (UTC+3, no daylight saving). */
const SHOP_UTC_OFFSET = '+03:00';

/**
 * A day filter (`YYYY-MM-DD`, as react-admin's DateInput sends it) as the first or last instant of
 * that day in Addis Ababa; anything else is a 400.
 */
export function filterDay(
  filter: Record<string, FilterValue>,
  key: string,
  edge: 'start' | 'end',
): Date | undefined {
  const value = filter[key];
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const date = day
    ? new Date(`${text}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}${SHOP_UTC_OFFSET}`)
    : undefined;
  // 2026-02-30 parses to a day in March: refuse days that do not exist
  const real =
    date &&
    !Number.isNaN(date.getTime()) &&
    new Date(date.getTime() + 3 * 3600_000).toISOString().slice(0, 10) === text;
  if (!real)
    throw new InvalidDataError('Invalid filter parameter', [
      { field: 'filter', message: `filter ${key} must be a day as YYYY-MM-DD` },
    ]);
  return date;
}

@Injectable()
export class OrdersService implements OnModuleInit, OnModuleDestroy {
  private claimSweep?: NodeJS.Timeout;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(OrderRequest.name) private readonly requests: Model<OrderRequest>,
    private readonly catalog: CatalogService,
    private readonly cart: CartService,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    private readonly users: AccountsService,
    private readonly orderNumbers: OrderNumbersService,
    private readonly hot: HotCache,
  ) {}

  onModuleInit(): void {
    this.claimSweep = setInterval(() => void this.sweepClaims().catch(() => undefined), CLAIM_SWEEP_EVERY_MS);
    this.claimSweep.unref();
  }

  onModuleDestroy(): void {
    if (this.claimSweep) clearInterval(this.claimSweep);
  }

  /**
   * Deletes Idempotency-Key claims older than CLAIM_STALE_MS: a placed order keeps its claim (its key
   * is then held by the order itself), and a claim that old counts as abandoned anyway.
   */
  async sweepClaims(now = Date.now()): Promise<number> {
    const res = await this.requests.deleteMany({ createdAt: { $lt: new Date(now - CLAIM_STALE_MS) } }).exec();
    return res.deletedCount;
  }

  /**
   * Places an order from the user's cart. With an Idempotency-Key, a retry (sequential or concurrent)
   * answers the order the first request made and never makes a second one.
   */
  async placeOrder(user: AuthUser, input: PlaceOrderDto, idempotencyKey?: string): Promise<PlacedOrder> {
    if (idempotencyKey === undefined) return { order: await this.createOrder(user, input), replayed: false };
    if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      throw new InvalidDataError(
        'Idempotency-Key must be 1 to 255 visible ASCII characters',
        [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
        'IDEMPOTENCY_KEY_INVALID',
      );
    }
    const userId = new Types.ObjectId(user.id);
    const deadline = Date.now() + CLAIM_WAIT_MS;
    const fingerprint = requestFingerprint(input);
    for (;;) {
      // The claim first: a new key (the usual case) then costs one read, made under the claim.
      const claim = await this.claim(userId, idempotencyKey);
      if (claim) {
        try {
          // An earlier request with this key may have finished already: its order then holds the key,
          // which createOrder finds when the cart is empty or the order's unique key refuses a second
          // one (its transaction then undoes everything), without a read of its own on the usual path.
          return { order: await this.createOrder(user, input, idempotencyKey, fingerprint), replayed: false };
        } catch (error) {
          if (error instanceof ReplayedOrder) return this.replay(error.order, fingerprint);
          // No order holds the key: free it at once, so that the customer may retry with it. (The
          // claim of an order that exists is left to the TTL index and sweepClaims: a retry meets
          // it and answers the order, as it would meet the order itself.)
          await this.requests.deleteOne({ _id: claim }).exec();
          throw error;
        }
      }
      // another request holds the claim: its order may be there already
      const earlier = await this.findByKey(userId, idempotencyKey);
      if (earlier) return this.replay(earlier, fingerprint);
      if (Date.now() > deadline) {
        throw new ConflictError(
          'An order with this Idempotency-Key is still being processed; please retry shortly',
          'IDEMPOTENCY_KEY_IN_PROGRESS',
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

  /** The back office list: filters status, paymentStatus, user, id, and q over the order id and number and the customer's email or name. */
  listForAdmin(query: ReactAdminListQuery) {
    return listResource(this.orders, query, {
      sortFields: {
        createdAt: 'createdAt',
        status: 'status',
        paymentStatus: 'paymentStatus',
        totalAmount: 'totalAmountSantim',
        'customer.email': 'customer.email',
        'customer.name': 'customer.name',
        orderNumber: 'orderNumber',
      },
      filters: ['q', 'status', 'paymentStatus', 'shippingMethod', 'createdFrom', 'createdTo', 'user'],
      defaultSort: ['createdAt', 'DESC'],
      where: async (filter) => {
        const where: FilterQuery<Order> = {};
        const statuses = filterEnum(filter, 'status', ORDER_STATUSES);
        if (statuses) where.status = { $in: statuses };
        const payments = filterEnum(filter, 'paymentStatus', PAYMENT_STATUSES);
        if (payments) where.paymentStatus = { $in: payments };
        const methods = filterEnum(filter, 'shippingMethod', SHIPPING_METHODS);
        if (methods) where.shippingMethod = { $in: methods };
        const from = filterDay(filter, 'createdFrom', 'start');
        const to = filterDay(filter, 'createdTo', 'end');
        if (from || to) where.createdAt = { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) };
        const users = filterIds(filter, 'user');
        if (users) where.user = { $in: users.flatMap((id) => [new Types.ObjectId(id), id]) };
        const q = filterText(filter, 'q');
        if (q) where.$or = await this.textMatch(q);
        return where;
      },
      toRecords: (docs) => docs.map((d) => toOrderView(d as LeanOrder)),
    });
  }

  /** One order of any customer (the back office). */
  async anyOrder(id: string): Promise<OrderView> {
    const doc = await this.orders
      .findById(parseObjectId(id, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND'))
      .lean()
      .exec();
    if (!doc) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    return toOrderView(doc as LeanOrder);
  }

  /**
   * The admin table shows the last 6 characters of an order id, so q matches any part of the id,
   * the order number, and the customer's email and name (always as literal text).
   */
  private async textMatch(q: string): Promise<FilterQuery<Order>[]> {
    const pattern = new RegExp(escapeRegex(q), 'i');
    const or: FilterQuery<Order>[] = [{ 'customer.email': pattern }, { 'customer.name': pattern }];
    // The order number the customer quotes ("AN-10042", "#an-10042" or just "10042"), exactly.
    const orderNumber = parseOrderNumber(q);
    if (orderNumber) or.push({ orderNumber });
    const hex = q.toLowerCase().replace(/^#/, '');
    if (/^[a-f0-9]{24}$/.test(hex)) {
      or.push({ _id: new Types.ObjectId(hex) });
    } else if (/^[a-f0-9]{1,23}$/.test(hex)) {
      // ids are compared as text by walking the _id index only (no order bodies are read)
      const matches: Types.ObjectId[] = [];
      const cursor = this.orders.find({}, { _id: 1 }).sort({ _id: -1 }).lean().cursor();
      for await (const doc of cursor) {
        if (String(doc._id).includes(hex)) matches.push(doc._id as Types.ObjectId);
        if (matches.length >= MAX_ID_MATCHES) break;
      }
      await cursor.close();
      if (matches.length) or.push({ _id: { $in: matches } });
    }
    return or;
  }

  /** The customer's cancellation: only while pending or processing; stock comes back exactly once. */
  async cancel(id: string, viewer: AuthUser): Promise<OrderView> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const order = await this.visibleOrder(id, viewer);
      const from = order.status as OrderStatus;
      if (!customerMayCancel(from))
        throw new ConflictError(`Cannot cancel an order that is ${from}`, 'CANNOT_CANCEL', { status: from });
      const changed = await this.applyTransition(order, 'cancelled', viewer);
      if (changed) return changed;
    }
    throw new ConflictError('The order changed while cancelling; please try again', 'ORDER_CHANGED');
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
    const id = parseObjectId(orderId, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
    for (let attempt = 0; attempt < 5; attempt++) {
      const order = (await this.orders.findById(id).lean().exec()) as LeanOrder | null;
      if (!order) throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
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
        throw new ConflictError(
          `Cannot change order status from ${from} to ${status}`,
          'INVALID_STATUS_TRANSITION',
          { from, to: status },
        );
      }
      const changed = await this.applyTransition(order, status, actor, trackingNumber);
      if (changed) return changed;
    }
    throw new ConflictError('The order changed while updating its status; please try again', 'ORDER_CHANGED');
  }

  /** Whether the customer has a delivered order with this product (a verified review). */
  async hasDelivered(user: Types.ObjectId, product: Types.ObjectId): Promise<boolean> {
    // the Order schema declares its references with `Types.ObjectId`, which @nestjs/mongoose turns into Mixed,
    // so an id written as a string stays a string: match both forms
    return !!(await this.orders.exists({
      user: { $in: [user, String(user)] },
      status: 'delivered',
      'orderItems.product': { $in: [product, String(product)] },
    }));
  }

  // ---- Payment status: only this module writes it, every move checked against PAYMENT_TRANSITIONS ----

  /** The order a payment is about (any owner), or null. */
  async orderForPayment(orderId: Types.ObjectId | string): Promise<OrderRecord | null> {
    if (!Types.ObjectId.isValid(String(orderId))) return null;
    return (await this.orders
      .findById(new Types.ObjectId(String(orderId)))
      .lean()
      .exec()) as OrderRecord | null;
  }

  /**
   * Makes `txRef` the order's current payment attempt, conditional on the order still being payable
   * (not cancelled, payment status unpaid or failed); false when a cancel or a payment won meanwhile.
   */
  async claimPayment(orderId: Types.ObjectId, txRef: string): Promise<boolean> {
    const claimed = await this.orders
      .updateOne(
        { _id: orderId, status: { $ne: 'cancelled' }, paymentStatus: { $in: PAYABLE_PAYMENT_STATUSES } },
        { $set: { paymentReference: txRef } },
      )
      .exec();
    return claimed.matchedCount > 0;
  }

  /**
   * unpaid → failed, only for the order's current attempt `txRef` (one conditional update); the order
   * stays payable with a new transaction. The change, its audit entry and the customer's message are
   * written together: in `session` (the payment settlement's transaction) or a transaction of their own.
   * Answers whether it changed.
   */
  async markPaymentFailed(
    orderId: Types.ObjectId,
    txRef: string,
    source?: string,
    session?: ClientSession,
  ): Promise<boolean> {
    return this.inSession(session, async (s) => {
      const failed = (await this.orders
        .findOneAndUpdate(
          { _id: orderId, paymentReference: txRef, paymentStatus: { $in: paymentSources('failed') } },
          { $set: { paymentStatus: 'failed' } },
          { new: true, session: s },
        )
        .lean()
        .exec()) as LeanOrder | null;
      if (!failed) return false;
      await this.notifications.enqueue(s, { type: 'payment.failed', order: failed, txRef });
      await this.auditPayment(orderId, 'unpaid', 'failed', source, s);
      return true;
    });
  }

  /**
   * unpaid | failed → paid for an order that is not cancelled, in one conditional update (a repeat
   * changes nothing), with its audit entry and the customer's message in the same transaction
   * (`session`, or one of its own). Answers whether this call made it paid.
   */
  async markPaid(
    orderId: Types.ObjectId,
    txRef: string,
    paidAt: Date,
    source?: string,
    session?: ClientSession,
  ): Promise<boolean> {
    return this.inSession(session, async (s) => {
      const before = await this.orders
        .findOneAndUpdate(
          { _id: orderId, status: { $ne: 'cancelled' }, paymentStatus: { $in: PAYABLE_PAYMENT_STATUSES } },
          { $set: { paymentStatus: 'paid', paidAt, paymentReference: txRef } },
          { new: false, session: s },
        )
        .lean()
        .exec();
      if (!before) return false;
      const paid = { ...before, paymentStatus: 'paid', paidAt, paymentReference: txRef } as LeanOrder;
      await this.notifications.enqueue(s, { type: 'payment.paid', order: paid });
      await this.auditPayment(orderId, before.paymentStatus, 'paid', source, s);
      return true;
    });
  }

  /**
   * Money arrived for an order cancelled meanwhile: it counts as paid and is due back at once
   * (paid → refund_pending), never lost and never "paid". Answers whether this call flagged it.
   */
  async flagRefund(
    orderId: Types.ObjectId,
    txRef: string,
    source?: string,
    session?: ClientSession,
  ): Promise<boolean> {
    return this.inSession(session, async (s) => {
      const before = await this.orders
        .findOneAndUpdate(
          { _id: orderId, status: 'cancelled', paymentStatus: { $in: PAYABLE_PAYMENT_STATUSES } },
          { $set: { paymentStatus: 'refund_pending', paymentReference: txRef } },
          { new: false, session: s },
        )
        .lean()
        .exec();
      if (!before) return false;
      await this.auditPayment(orderId, before.paymentStatus, 'refund_pending', source, s);
      return true;
    });
  }

  /** Runs `work` in the caller's transaction when given one, else in a transaction of its own. */
  private inSession<T>(
    session: ClientSession | undefined,
    work: (s: ClientSession) => Promise<T>,
  ): Promise<T> {
    return session ? work(session) : this.inTransaction(work);
  }

  /** `source`: what settled the payment (webhook, verify, reverify, test), shown as the actor in the audit log. */
  private auditPayment(
    orderId: Types.ObjectId,
    from: string,
    to: PaymentStatus,
    source?: string,
    session?: ClientSession,
  ) {
    return this.audit.record(
      undefined,
      { entity: 'order', entityId: String(orderId), action: 'order.paymentStatus', from, to, source },
      session,
    );
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
    if (to === 'cancelled' && canTransitionPayment(order.paymentStatus as PaymentStatus, 'refund_pending'))
      set.paymentStatus = 'refund_pending';
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
      if (changed && to === 'cancelled')
        await this.catalog.releaseStock(order.orderItems, session, `cancel:${String(order._id)}`);
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
    try {
      const created = await this.inTransaction(async (session) => {
        const lines = await this.cart.takeLines(user.id, session);
        if (!lines.length) throw new InvalidDataError(EMPTY_CART, undefined, 'EMPTY_CART');
        const reservations = await this.catalog.reserveStock(lines, session);
        const totals = priceOrder(
          reservations.map((r) => ({ unitPrice: r.product.priceSantim, quantity: r.quantity })),
          method,
          rates,
          pricesIncludeTax,
        );
        const now = new Date();
        // The order as Mongoose would store it (the schema's defaults, timestamps, version key, an _id
        // per line; undefined fields left out), inserted through the model's collection: every value
        // is of its stored type already and was validated (the DTO, the cart, the reservations), and
        // creating a Mongoose document for it cost a sixth of an order's CPU. The API tests check that
        // a placed order is exactly what Mongoose would have made of it (orders.e2e-spec.ts).
        const placed = definedFields({
          _id: new Types.ObjectId(),
          orderNumber,
          user: userId,
          customer: { name: user.name, email: user.email },
          orderItems: reservations.map((r) =>
            definedFields({
              product: r.product._id,
              name: r.product.name,
              nameAm: r.product.nameAm || undefined,
              image: r.product.images?.[0],
              quantity: r.quantity,
              priceAtPurchaseSantim: r.product.priceSantim,
              _id: new Types.ObjectId(),
            }),
          ),
          shippingAddress: definedFields({
            ...input.shippingAddress,
            ...(phone ? { phone } : {}),
            country: input.shippingAddress.country || DELIVERY_COUNTRY,
          }),
          shippingMethod: method,
          paymentMethod: input.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
          subtotalSantim: totals.subtotal,
          shippingCostSantim: totals.shippingCost,
          taxSantim: totals.tax,
          totalAmountSantim: totals.totalAmount,
          ...(pricesIncludeTax ? { pricesIncludeTax: true } : {}),
          currency: 'ETB',
          status: 'pending',
          paymentStatus: 'unpaid',
          statusHistory: [{ status: 'pending', by: userId, at: now }],
          ...(idempotencyKey !== undefined ? { idempotencyKey, idempotencyFingerprint: fingerprint } : {}),
          createdAt: now,
          updatedAt: now,
          __v: 0,
        }) as unknown as LeanOrder;
        await this.orders.collection.insertOne(placed as unknown as mongo.OptionalId<mongo.Document>, {
          session,
        });
        await this.notifications.enqueue(
          session,
          { type: 'order.placed', order: placed, reserved: reservations },
          { settings, customerLanguage: contact.language ?? null },
        );
        return placed;
      });
      return toOrderView(created);
    } catch (error) {
      // A retry of an order already placed: its cart is empty now, or (when the customer filled it
      // again) the unique key refused the second order and the transaction undid everything.
      const placedAlready =
        isDuplicateKeyError(error) || (error instanceof DomainError && error.code === 'EMPTY_CART');
      if (idempotencyKey !== undefined && placedAlready) {
        const earlier = await this.findByKey(userId, idempotencyKey);
        if (earlier) throw new ReplayedOrder(earlier);
      }
      throw error;
    }
  }

  /**
   * The delivery phone when the order request has none (SPEC section 7 clients send none): the
   * account's profile phone, already normalised to E.164 by the profile rules; none when it has none.
   */
  private async profileContact(userId: string): Promise<{ phone?: string; language?: string }> {
    const user = (await this.users.me(userId)) as { phone?: string; language?: string };
    return { phone: user.phone || undefined, language: user.language || undefined };
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
    try {
      return await inTransaction(this.connection, work, BUSY_MESSAGE);
    } finally {
      // stock changed inside the transaction: public reads are fresh once it has committed
      this.hot.bump();
    }
  }

  private async visibleOrder(id: string, viewer: AuthUser): Promise<LeanOrder> {
    const order = (await this.orders
      .findById(parseObjectId(id, ORDER_NOT_FOUND, 'ORDER_NOT_FOUND'))
      .lean()
      .exec()) as LeanOrder | null;
    if (!order || (viewer.role !== 'admin' && String(order.user) !== viewer.id))
      throw new NotFoundError(ORDER_NOT_FOUND, 'ORDER_NOT_FOUND');
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
        undefined,
        'IDEMPOTENCY_KEY_REUSED',
      );
    }
    const order = { ...earlier };
    delete order[FINGERPRINT];
    return { order, replayed: true };
  }

  /** Takes the key's claim; false if another request holds it (an abandoned claim is cleared first). */
  private async claim(user: Types.ObjectId, idempotencyKey: string): Promise<Types.ObjectId | null> {
    try {
      // the model's collection: three fields of exact types, nothing to cast or validate
      return (await this.requests.collection.insertOne({ user, idempotencyKey, createdAt: new Date() }))
        .insertedId as Types.ObjectId;
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
