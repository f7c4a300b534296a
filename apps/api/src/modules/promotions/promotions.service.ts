import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { CATEGORY_SLUGS, toBirr, toSantim } from '@shop/shared';
import { Model, Types, type FilterQuery } from 'mongoose';
import { Clock } from '../../common/clock';
import { InvalidDataError, NotFoundError, type FieldError } from '../../common/errors/domain-error';
import { findPage, type ListPage, type ListQuery } from '../../common/list-query';
import { escapeRegex, parseObjectId } from '../../common/mongo';
import { ProductSalesService, type SaleRule } from '../catalog/product-sales.service';
import type { PromotionInputDto, PromotionUpdateDto } from './dto/promotion.dto';
import { Promotion, type PromotionKind } from './schemas/promotion.schema';

type PromotionRecord = Promotion & { _id: Types.ObjectId };

export interface PromotionView {
  _id: string;
  name: { en: string; am: string };
  kind: PromotionKind;
  value: number;
  productIds: string[];
  categories: string[];
  startsAt: Date;
  endsAt: Date;
  active: boolean;
  status: 'scheduled' | 'running' | 'ended' | 'paused';
}

export interface PromotionFilter {
  q?: string;
  active?: boolean;
}

const PROMOTION_NOT_FOUND = 'Sale not found';
const notFound = () => new NotFoundError(PROMOTION_NOT_FOUND, 'PROMOTION_NOT_FOUND');
const invalid = (field: string, message: string) =>
  new InvalidDataError(
    message,
    [{ field, message, code: 'INVALID_PROMOTION' } as FieldError],
    'INVALID_PROMOTION',
    {
      field,
    },
  );

/** How often each instance looks whether a sale started or ended (SALE_TICK_MS, default 1 s). */
const TICK_MS = Math.max(100, Number(process.env.SALE_TICK_MS) || 1000);
/** How long products keep an ended sale (a cart line added during it says it ended). */
const SALE_MEMORY_MS = 30 * 86_400_000;
/** Read the sales again at least this often, for those another instance created. */
const RELOAD_MS = 30_000;

/**
 * Scheduled sales (docs/decisions/0095). Staff's writes are validated whole before anything is
 * written; the products then carry the sales that concern them (ProductSalesService), written again
 * at every start and end, so cached answers never outlive a sale. The price itself is chosen at each
 * read by the clock (catalog/sale-price.ts).
 */
@Injectable()
export class PromotionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Promotions');
  private timer?: NodeJS.Timeout;
  private nextBoundary = 0;
  private lastLoad = 0;
  private syncing?: Promise<void>;

  constructor(
    @InjectModel(Promotion.name) private readonly promotions: Model<Promotion>,
    private readonly productSales: ProductSalesService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  view(doc: PromotionRecord): PromotionView {
    const now = this.clock.nowMs();
    const status = !doc.active
      ? 'paused'
      : doc.startsAt.getTime() > now
        ? 'scheduled'
        : doc.endsAt.getTime() <= now
          ? 'ended'
          : 'running';
    return {
      _id: String(doc._id),
      name: { en: doc.nameEn, am: doc.nameAm },
      kind: doc.kind,
      value: doc.kind === 'fixed' ? toBirr(doc.value) : doc.value,
      productIds: [...(doc.productIds ?? [])],
      categories: [...(doc.categories ?? [])],
      startsAt: doc.startsAt,
      endsAt: doc.endsAt,
      active: doc.active !== false,
      status,
    };
  }

  listForAdmin(query: ListQuery<PromotionFilter>): Promise<ListPage<PromotionView>> {
    const where: FilterQuery<Promotion> = {};
    if (query.filter.q) {
      const text = new RegExp(escapeRegex(query.filter.q), 'i');
      where.$or = [{ nameEn: text }, { nameAm: text }];
    }
    if (query.filter.active !== undefined) where.active = query.filter.active;
    return findPage(this.promotions, where, query, (docs) =>
      docs.map((d) => this.view(d as PromotionRecord)),
    );
  }

  async get(id: string): Promise<PromotionView> {
    const doc = await this.promotions
      .findById(parseObjectId(id, PROMOTION_NOT_FOUND, 'PROMOTION_NOT_FOUND'))
      .lean();
    if (!doc) throw notFound();
    return this.view(doc as PromotionRecord);
  }

  async create(input: PromotionInputDto): Promise<PromotionView> {
    const fields = await this.fieldsOf(input);
    const doc = await this.promotions.create(fields);
    await this.sync();
    return this.view(doc.toObject() as PromotionRecord);
  }

  /** The demo seed's sale: created unless a sale of that English name exists (idempotent). */
  async createOnce(input: PromotionInputDto): Promise<void> {
    if (await this.promotions.exists({ nameEn: input.name.en })) return;
    await this.create(input);
  }

  async update(id: string, input: PromotionUpdateDto): Promise<PromotionView> {
    const _id = parseObjectId(id, PROMOTION_NOT_FOUND, 'PROMOTION_NOT_FOUND');
    const before = (await this.promotions.findById(_id).lean()) as PromotionRecord | null;
    if (!before) throw notFound();
    const was = this.view(before);
    const merged = { ...was, ...input, name: { ...was.name, ...(input.name ?? {}) } } as PromotionInputDto;
    const fields = await this.fieldsOf(merged);
    const doc = await this.promotions.findByIdAndUpdate(_id, { $set: fields }, { new: true }).lean();
    if (!doc) throw notFound();
    await this.sync();
    return this.view(doc as PromotionRecord);
  }

  /** Deletes a sale (orders keep the prices they were placed at); answers it as it was. */
  async remove(id: string): Promise<PromotionView> {
    const _id = parseObjectId(id, PROMOTION_NOT_FOUND, 'PROMOTION_NOT_FOUND');
    const doc = await this.promotions.findByIdAndDelete(_id).lean();
    if (!doc) throw notFound();
    await this.sync();
    return this.view(doc as PromotionRecord);
  }

  /** Writes the running and coming sales onto the products now (also at each start and end: `tick`). */
  async sync(): Promise<void> {
    // one at a time per instance; a call during one waits for it, then runs again with what is stored now
    while (this.syncing) await this.syncing;
    this.syncing = this.syncOnce().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const now = this.clock.nowMs();
    const docs = (await this.promotions
      .find({ active: true, endsAt: { $gt: new Date(now - SALE_MEMORY_MS) } })
      .lean()
      .exec()) as PromotionRecord[];
    const rules: SaleRule[] = docs.map((d) => ({
      promotion: String(d._id),
      kind: d.kind,
      value: d.value,
      startsAt: d.startsAt,
      endsAt: d.endsAt,
      nameEn: d.nameEn,
      nameAm: d.nameAm,
      productIds: d.productIds ?? [],
      categories: d.categories ?? [],
    }));
    await this.productSales.apply(rules, now);
    const coming = docs.flatMap((d) => [d.startsAt.getTime(), d.endsAt.getTime()]).filter((at) => at > now);
    this.nextBoundary = coming.length ? Math.min(...coming) : Number.POSITIVE_INFINITY;
    this.lastLoad = now;
  }

  private async tick(): Promise<void> {
    const now = this.clock.nowMs();
    if (now < this.nextBoundary && now - this.lastLoad < RELOAD_MS) return;
    try {
      await this.sync();
    } catch (error) {
      this.logger.warn(`Sales not written to the products yet: ${(error as Error).message}`);
    }
  }

  /** The stored fields of a sale, or a refusal (nothing is written before every check passed). */
  private async fieldsOf(input: PromotionInputDto): Promise<Partial<Promotion>> {
    const kind = input.kind;
    const startsAt = new Date(input.startsAt);
    const endsAt = new Date(input.endsAt);
    if (!(endsAt.getTime() > startsAt.getTime())) throw invalid('endsAt', 'A sale ends after it starts');
    if (kind === 'percent' && !(input.value >= 1 && input.value <= 100))
      throw invalid('value', 'A percentage is 1 to 100');
    if (kind === 'fixed' && !(input.value > 0)) throw invalid('value', 'An amount off is more than 0 ETB');
    const productIds = [...new Set(input.productIds ?? [])];
    const categories = [...new Set(input.categories ?? [])];
    if (!productIds.length && !categories.length)
      throw invalid('productIds', 'A sale is for at least one product or category');
    const unknownCategory = categories.find((slug) => !(CATEGORY_SLUGS as string[]).includes(slug));
    if (unknownCategory) throw invalid('categories', `No category ${unknownCategory}`);
    const ids = productIds.map((id) => new Types.ObjectId(id));
    const found = await this.productSales.existing(ids);
    const missing = productIds.find((id) => !found.has(id));
    if (missing)
      throw new NotFoundError(`Product ${missing} not found`, 'PRODUCT_NOT_FOUND', { id: missing });
    const value = kind === 'fixed' ? toSantim(input.value) : input.value;
    if (kind === 'fixed') {
      const lowest = await this.productSales.lowestPrice(ids, categories);
      if (lowest !== undefined && value >= lowest)
        throw invalid(
          'value',
          `The amount off must be below every targeted price (the lowest is ${toBirr(lowest)} ETB)`,
        );
    }
    return {
      nameEn: input.name.en.trim(),
      nameAm: input.name.am.trim(),
      kind,
      value,
      productIds,
      categories,
      startsAt,
      endsAt,
      active: input.active !== false,
    };
  }
}
