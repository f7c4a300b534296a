import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DEFAULT_PAYMENT_METHOD, DELIVERY_COUNTRY } from '@shop/shared';
import { Model, Types } from 'mongoose';
import { createHash } from 'node:crypto';
import { ConflictError, DomainError, InvalidDataError } from '../../common/errors/domain-error';
import { modelDocument } from '../../common/model-document';
import { isDuplicateKeyError } from '../../common/mongo';
import type { PlaceOrderDto } from './dto/order.dto';
import { toOrderView, type OrderRecord, type OrderView } from './order.view';
import { OrderRequest } from './schemas/order-request.schema';
import { Order } from './schemas/order.schema';

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How long a retry waits for the first request with the same key. */
const CLAIM_WAIT_MS = 15_000;
/**
 * A claim's lease: its holder renews it every CLAIM_RENEW_MS while it places the order, so a claim
 * whose lease ran out belongs to a holder that died (a killed process, a lost machine) and a retry
 * takes it over. Taking over a live but stalled holder's claim costs no second order: the order's
 * unique key refuses it and the retry answers the first request's order.
 */
const CLAIM_LEASE_MS = 5_000;
const CLAIM_RENEW_MS = 1_500;
/** A claim this old is swept (a placed order's key is held by the order itself by then). */
const CLAIM_STALE_MS = 60_000;
const CLAIM_POLL_MS = 25;
/** How often an instance deletes claims past CLAIM_STALE_MS (sooner than the TTL index's hour; a backstop, as RateCounters' sweep). */
const CLAIM_SWEEP_EVERY_MS = 10 * 60 * 1000;

export interface PlacedOrder {
  order: OrderView;
  /** True when an earlier request with the same Idempotency-Key made this order. */
  replayed: boolean;
}

/** What an order placed under an Idempotency-Key stores of it: the key and its request's fingerprint. */
export interface OrderKey {
  idempotencyKey: string;
  idempotencyFingerprint: string;
}

/** An earlier order of the key, with the fingerprint of the request that made it. */
interface KeyedOrder {
  order: OrderView;
  fingerprint?: string;
}

/** Where a key is held: the account (or none, for a guest) and the key as stored. */
interface KeyScope {
  user?: Types.ObjectId;
  idempotencyKey: string;
}

function scopeOf(owner: KeyOwner, idempotencyKey: string): KeyScope {
  if ('userId' in owner) return { user: new Types.ObjectId(owner.userId), idempotencyKey };
  return { idempotencyKey: `guest:${owner.guestCartId}:${idempotencyKey}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whose Idempotency-Keys: an account's (keys unique per user), or a guest cart's (the key is stored
 * as `guest:<cart id>:<key>` with no user, so a guest's keys are scoped by its cart).
 */
export type KeyOwner = { userId: string } | { guestCartId: string };

/** What makes two order requests the same request: the address, payment and shipping choices (and who a guest is). */
function requestFingerprint(input: PlaceOrderDto & { couponCode?: string }, guest: boolean): string {
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
    // a guest's contact is part of its request (accounts' fingerprints stay as they were)
    ...(guest ? [input.guest?.name ?? '', input.guest?.phone ?? '', input.guest?.email ?? ''] : []),
    // the cart's coupon code (docs/decisions/0096-coupon-codes.md); none keeps older fingerprints
    ...(input.couponCode ? [`coupon:${input.couponCode}`] : []),
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * Idempotency-Key: a retry of an order request (sequential or concurrent) answers the order the first
 * request made and never makes a second one. A request claims its key (a unique short-lived document,
 * with a lease of a few seconds it renews while it works, so a dead holder's claim is soon taken over)
 * while it places the order; the order then holds the key itself (a unique index per user), so a
 * claim swept away later changes nothing. Claims are swept by a timer of each instance.
 */
@Injectable()
export class OrderIdempotency implements OnModuleInit, OnModuleDestroy {
  private claimSweep?: NodeJS.Timeout;

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(OrderRequest.name) private readonly requests: Model<OrderRequest>,
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
   * Places an order once per key: `place` makes it (storing the key it is given on the order);
   * without a key it simply runs. When `place` fails because the key's order exists already (the cart
   * is empty now, or the order's unique key refused a second order and its transaction undid
   * everything), that order is answered instead.
   */
  async once(
    /** A user id stands for `{ userId }`. */
    owner: KeyOwner | string,
    idempotencyKey: string | undefined,
    /** With the cart's coupon code, part of the request's fingerprint. */
    input: PlaceOrderDto & { couponCode?: string },
    place: (key?: OrderKey) => Promise<OrderView>,
  ): Promise<PlacedOrder> {
    if (idempotencyKey === undefined) return { order: await place(), replayed: false };
    if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      throw new InvalidDataError(
        'Idempotency-Key must be 1 to 255 visible ASCII characters',
        [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
        'IDEMPOTENCY_KEY_INVALID',
      );
    }
    const keyOwner = typeof owner === 'string' ? { userId: owner } : owner;
    const scope = scopeOf(keyOwner, idempotencyKey);
    const deadline = Date.now() + CLAIM_WAIT_MS;
    const idempotencyFingerprint = requestFingerprint(input, 'guestCartId' in keyOwner);
    for (;;) {
      // The claim first: a new key (the usual case) then costs one read, made under the claim.
      const claim = await this.claim(scope);
      if (claim) {
        const renewal = this.renewWhileHeld(claim);
        try {
          // An earlier request with this key may have finished already: `place` then fails (see
          // above), without a read of its own on the usual path.
          return {
            order: await place({ idempotencyKey: scope.idempotencyKey, idempotencyFingerprint }),
            replayed: false,
          };
        } catch (error) {
          const placedAlready =
            isDuplicateKeyError(error) || (error instanceof DomainError && error.code === 'EMPTY_CART');
          const earlier = placedAlready ? await this.findByKey(scope) : undefined;
          if (earlier) return this.replay(earlier, idempotencyFingerprint);
          // No order holds the key: free it at once, so that the customer may retry with it. (The
          // claim of an order that exists is left to the TTL index and sweepClaims: a retry meets
          // it and answers the order, as it would meet the order itself.)
          await this.requests.deleteOne({ _id: claim }).exec();
          throw error;
        } finally {
          clearInterval(renewal);
        }
      }
      // another request holds the claim: its order may be there already
      const earlier = await this.findByKey(scope);
      if (earlier) return this.replay(earlier, idempotencyFingerprint);
      if (Date.now() > deadline) {
        throw new ConflictError(
          'An order with this Idempotency-Key is still being processed; please retry shortly',
          'IDEMPOTENCY_KEY_IN_PROGRESS',
        );
      }
      await sleep(CLAIM_POLL_MS);
    }
  }

  private async findByKey(scope: KeyScope): Promise<KeyedOrder | undefined> {
    const order = (await this.orders
      .findOne({ user: scope.user ?? { $exists: false }, idempotencyKey: scope.idempotencyKey })
      .lean()
      .exec()) as OrderRecord | null;
    return order ? { order: toOrderView(order), fingerprint: order.idempotencyFingerprint } : undefined;
  }

  /** The earlier order of this key, unless the key now comes with a different request (422: a client bug, not a retry). */
  private replay(earlier: KeyedOrder, fingerprint: string): PlacedOrder {
    if (earlier.fingerprint && earlier.fingerprint !== fingerprint) {
      throw new DomainError(
        'UNPROCESSABLE',
        'This Idempotency-Key was already used for a different order request',
        undefined,
        'IDEMPOTENCY_KEY_REUSED',
      );
    }
    return { order: earlier.order, replayed: true };
  }

  /**
   * Takes the key's claim; null if another request holds it. A claim whose lease ran out (its holder
   * died) is deleted, so the next attempt takes the key; a claim written before leases existed has
   * none and counts from its creation.
   */
  private async claim(scope: KeyScope): Promise<Types.ObjectId | null> {
    const now = Date.now();
    const { user, idempotencyKey } = scope;
    try {
      // the model's collection, with the document the model would store: nothing to cast or validate
      const claim = modelDocument(this.requests, {
        ...(user ? { user } : {}),
        idempotencyKey,
        heldUntil: new Date(now + CLAIM_LEASE_MS),
      });
      await this.requests.collection.insertOne(claim);
      return claim._id;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await this.requests
        .deleteOne({
          user: user ?? { $exists: false },
          idempotencyKey,
          $or: [
            { heldUntil: { $lt: new Date(now) } },
            { heldUntil: { $exists: false }, createdAt: { $lt: new Date(now - CLAIM_LEASE_MS) } },
          ],
        })
        .exec();
      return null;
    }
  }

  /** Renews the claim's lease while its holder places the order (a failed renewal waits for the next). */
  private renewWhileHeld(claim: Types.ObjectId): NodeJS.Timeout {
    const timer = setInterval(() => {
      void this.requests
        .updateOne({ _id: claim }, { $set: { heldUntil: new Date(Date.now() + CLAIM_LEASE_MS) } })
        .exec()
        .catch(() => undefined);
    }, CLAIM_RENEW_MS);
    timer.unref();
    return timer;
  }
}
