import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { normaliseEthiopianPhone, toBirr, toSantim, type OrderDiscount } from '@shop/shared';
import { Model, Types, type ClientSession, type FilterQuery } from 'mongoose';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
} from '../../common/errors/domain-error';
import type { ListPage, ListQuery } from '../../common/list-query';
import { findPage } from '../../common/list-query';
import { escapeRegex, isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import type { CouponInputDto, CouponUpdateDto } from './dto/coupon.dto';
import { Coupon, CouponUse, type CouponKind } from './schemas/coupon.schema';

export type CouponRecord = Coupon & { _id: Types.ObjectId };

/** A coupon as answered (amounts in ETB). */
export interface CouponView {
  _id: string;
  code: string;
  kind: CouponKind;
  value: number;
  minSubtotal: number;
  startsAt?: Date;
  endsAt?: Date;
  usageLimit?: number;
  perCustomerLimit?: number;
  active: boolean;
  uses: number;
}

export interface CouponFilter {
  q?: string;
  active?: boolean;
}

/** What an order keeps of a redeemed coupon: the code, and whose per-customer use it took. */
export interface Redemption {
  couponCode: string;
  couponHolder: string;
  discount: OrderDiscount;
}

export const COUPON_NOT_FOUND = 'This code is not valid';

export const normaliseCode = (code: string) => code.trim().toUpperCase();

export function toCouponView(doc: CouponRecord): CouponView {
  return {
    _id: String(doc._id),
    code: doc.code,
    kind: doc.kind,
    value: doc.kind === 'fixed' ? toBirr(doc.value) : doc.value,
    minSubtotal: toBirr(doc.minSubtotalSantim ?? 0),
    ...(doc.startsAt ? { startsAt: doc.startsAt } : {}),
    ...(doc.endsAt ? { endsAt: doc.endsAt } : {}),
    ...(doc.usageLimit ? { usageLimit: doc.usageLimit } : {}),
    ...(doc.perCustomerLimit ? { perCustomerLimit: doc.perCustomerLimit } : {}),
    active: doc.active !== false,
    uses: doc.uses ?? 0,
  };
}

/** The pricing rule's discount (libs/shared priceOrder) of a coupon. */
export function orderDiscountOf(coupon: Pick<Coupon, 'kind' | 'value'>): OrderDiscount {
  if (coupon.kind === 'percent') return { kind: 'percent', percent: coupon.value };
  if (coupon.kind === 'fixed') return { kind: 'fixed', amount: coupon.value };
  return { kind: 'freeShipping' };
}

/**
 * Whose per-customer count an order takes: an account with an email by its id; a phone account and
 * a guest by the normalised phone (so one phone is one customer however it orders).
 */
export function couponHolderOf(customer: { userId?: string; email?: string; phone?: string }): string {
  if (customer.userId && customer.email) return `user:${customer.userId}`;
  const phone = customer.phone ? (normaliseEthiopianPhone(customer.phone) ?? customer.phone) : undefined;
  if (phone) return `phone:${phone}`;
  return `user:${customer.userId ?? 'unknown'}`;
}

const notFound = () => new NotFoundError(COUPON_NOT_FOUND, 'COUPON_NOT_FOUND');
const exhausted = (code: string) =>
  new ConflictError(`The code ${code} has been used up`, 'COUPON_EXHAUSTED', { code });

/**
 * Coupon codes: staff manage them; carts carry one; an order redeems it inside its own transaction
 * (a conditional `uses < usageLimit` increment and a per-customer counter under a unique index), and
 * a cancelled order gives the use back in the cancellation's transaction.
 */
@Injectable()
export class CouponsService {
  constructor(
    @InjectModel(Coupon.name) private readonly coupons: Model<Coupon>,
    @InjectModel(CouponUse.name) private readonly couponUses: Model<CouponUse>,
  ) {}

  listForAdmin(query: ListQuery<CouponFilter>): Promise<ListPage<CouponView>> {
    const where: FilterQuery<Coupon> = {};
    if (query.filter.q) where.code = new RegExp(escapeRegex(query.filter.q), 'i');
    if (query.filter.active !== undefined) where.active = query.filter.active;
    return findPage(this.coupons, where, query, (docs) => docs.map((d) => toCouponView(d as CouponRecord)));
  }

  async get(id: string): Promise<CouponView> {
    const doc = await this.coupons.findById(parseObjectId(id, COUPON_NOT_FOUND, 'COUPON_NOT_FOUND')).lean();
    if (!doc) throw notFound();
    return toCouponView(doc as CouponRecord);
  }

  async create(input: CouponInputDto): Promise<CouponView> {
    const fields = this.fieldsOf(input);
    try {
      const doc = await this.coupons.create({ ...fields, uses: 0 });
      return toCouponView(doc.toObject() as CouponRecord);
    } catch (error) {
      throw this.duplicate(error, fields.code as string);
    }
  }

  async update(id: string, input: CouponUpdateDto): Promise<CouponView> {
    const _id = parseObjectId(id, COUPON_NOT_FOUND, 'COUPON_NOT_FOUND');
    const before = (await this.coupons.findById(_id).lean()) as CouponRecord | null;
    if (!before) throw notFound();
    const merged = { ...toCouponView(before), ...input } as CouponInputDto;
    const fields = this.fieldsOf(merged);
    const unset: Record<string, 1> = {};
    for (const key of ['startsAt', 'endsAt', 'usageLimit', 'perCustomerLimit'] as const)
      if (fields[key] === undefined) unset[key] = 1;
    try {
      const doc = await this.coupons
        .findByIdAndUpdate(
          _id,
          { $set: fields, ...(Object.keys(unset).length ? { $unset: unset } : {}) },
          { new: true },
        )
        .lean();
      if (!doc) throw notFound();
      return toCouponView(doc as CouponRecord);
    } catch (error) {
      throw this.duplicate(error, fields.code as string);
    }
  }

  /** Deactivates (a code that orders carry is kept for them); answers the coupon. */
  async deactivate(id: string): Promise<CouponView> {
    const _id = parseObjectId(id, COUPON_NOT_FOUND, 'COUPON_NOT_FOUND');
    const doc = await this.coupons.findByIdAndUpdate(_id, { $set: { active: false } }, { new: true }).lean();
    if (!doc) throw notFound();
    return toCouponView(doc as CouponRecord);
  }

  /**
   * Checks a code for a cart of this subtotal (santim) now, without taking a use: unknown or off
   * (404), not started or ended (422), under its minimum (422), used up (409), or used up by this
   * customer (409, when the customer is known). Answers the coupon.
   */
  async check(
    code: string,
    subtotal: number,
    holder?: string,
    session?: ClientSession,
  ): Promise<CouponRecord> {
    const coupon = (await this.coupons
      .findOne({ code: normaliseCode(code) }, undefined, { session })
      .lean()) as CouponRecord | null;
    if (!coupon || coupon.active === false) throw notFound();
    const now = Date.now();
    if (
      (coupon.startsAt && coupon.startsAt.getTime() > now) ||
      (coupon.endsAt && coupon.endsAt.getTime() <= now)
    )
      throw new DomainError(
        'UNPROCESSABLE',
        `The code ${coupon.code} is not valid now`,
        undefined,
        'COUPON_EXPIRED',
        {
          code: coupon.code,
        },
      );
    if (subtotal < (coupon.minSubtotalSantim ?? 0)) {
      const minimum = toBirr(coupon.minSubtotalSantim);
      throw new DomainError(
        'UNPROCESSABLE',
        `The code ${coupon.code} needs a subtotal of at least ${minimum} ETB`,
        undefined,
        'COUPON_MIN_SUBTOTAL',
        { code: coupon.code, minimum },
      );
    }
    if (coupon.usageLimit && coupon.uses >= coupon.usageLimit) throw exhausted(coupon.code);
    if (holder && coupon.perCustomerLimit) {
      const use = await this.couponUses
        .findOne({ coupon: coupon._id, holder }, undefined, { session })
        .lean();
      if (use && use.uses >= coupon.perCustomerLimit) throw this.alreadyUsed(coupon.code);
    }
    return coupon;
  }

  /**
   * Takes one use of the code for an order, inside the order's transaction: checked as `check`, then
   * `uses` grows only while under the limit and the customer's counter only while under theirs (a
   * unique index per coupon and customer). A refusal aborts the whole order: nothing is written.
   */
  async redeem(code: string, subtotal: number, holder: string, session: ClientSession): Promise<Redemption> {
    const coupon = await this.check(code, subtotal, holder, session);
    const taken = await this.coupons.updateOne(
      { _id: coupon._id, active: true, ...(coupon.usageLimit ? { uses: { $lt: coupon.usageLimit } } : {}) },
      { $inc: { uses: 1 } },
      { session },
    );
    if (!taken.modifiedCount) throw exhausted(coupon.code);
    try {
      const mine = await this.couponUses.findOneAndUpdate(
        {
          coupon: coupon._id,
          holder,
          ...(coupon.perCustomerLimit ? { uses: { $lt: coupon.perCustomerLimit } } : {}),
        },
        { $inc: { uses: 1 } },
        { upsert: true, new: true, session },
      );
      if (!mine) throw this.alreadyUsed(coupon.code);
    } catch (error) {
      if (isDuplicateKeyError(error)) throw this.alreadyUsed(coupon.code);
      throw error;
    }
    return { couponCode: coupon.code, couponHolder: holder, discount: orderDiscountOf(coupon) };
  }

  /** Gives a cancelled order's use back, inside the cancellation's transaction (which runs once). */
  async release(
    order: { couponCode?: string; couponHolder?: string },
    session: ClientSession,
  ): Promise<void> {
    if (!order.couponCode) return;
    const coupon = await this.coupons.findOneAndUpdate(
      { code: order.couponCode, uses: { $gt: 0 } },
      { $inc: { uses: -1 } },
      { session, new: true, projection: { _id: 1 } },
    );
    if (coupon && order.couponHolder)
      await this.couponUses.updateOne(
        { coupon: coupon._id, holder: order.couponHolder, uses: { $gt: 0 } },
        { $inc: { uses: -1 } },
        { session },
      );
  }

  private alreadyUsed(code: string): ConflictError {
    return new ConflictError(`You have already used the code ${code}`, 'COUPON_ALREADY_USED', { code });
  }

  private duplicate(error: unknown, code: string): unknown {
    if (isDuplicateKeyError(error))
      return new ConflictError(`The code ${code} exists already`, 'COUPON_CODE_TAKEN', { code });
    return error;
  }

  /** The stored fields of a coupon input, checked together (400 with codes). */
  private fieldsOf(input: CouponInputDto): Partial<Coupon> & Record<string, unknown> {
    const value = input.kind === 'freeShipping' ? 0 : (input.value ?? 0);
    const invalid = (field: string, message: string) =>
      new InvalidDataError(message, [{ field, message, code: 'INVALID_COUPON' }], 'INVALID_COUPON');
    if (input.kind === 'percent' && (value <= 0 || value > 100 || !Number.isInteger(value)))
      throw invalid('value', 'A percentage must be a whole number from 1 to 100');
    if (input.kind === 'fixed' && value <= 0) throw invalid('value', 'A fixed discount must be above 0 ETB');
    const startsAt = input.startsAt ? new Date(input.startsAt) : undefined;
    const endsAt = input.endsAt ? new Date(input.endsAt) : undefined;
    if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime())
      throw invalid('endsAt', 'The end must be after the start');
    return {
      code: normaliseCode(input.code),
      kind: input.kind,
      value: input.kind === 'fixed' ? toSantim(value) : value,
      minSubtotalSantim: toSantim(input.minSubtotal ?? 0),
      startsAt,
      endsAt,
      usageLimit: input.usageLimit ?? undefined,
      perCustomerLimit: input.perCustomerLimit ?? undefined,
      active: input.active ?? true,
    };
  }
}
