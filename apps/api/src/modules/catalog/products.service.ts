import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { LOW_STOCK_THRESHOLD, SUB_CATEGORIES, toBirr, toSantim } from '@shop/shared';
import { ClientSession, Connection, FilterQuery, Model, Types } from 'mongoose';
import { withAbsoluteUrls } from '../../common/absolute-urls.interceptor';
import type { AuthUser } from '../../common/auth/auth-user';
import { Changes } from '../../common/changes';
import { ConflictError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { findPage, type ListPage, type ListQuery } from '../../common/list-query';
import { conflictOnDuplicate, escapeRegex, inTransaction, parseObjectId } from '../../common/mongo';
import { APP_CONFIG, type AppConfig } from '../../config';
import { AuditService } from '../audit/audit.service';
import { CATALOGUE_READS, READ_EVERYTHING, type CatalogueReads } from './catalogue-reads';
import {
  PRODUCT_NOT_FOUND,
  withHiddenFieldsOmitted,
  type AdminProductFilter,
  type CatalogProduct,
  type RatingStats,
} from './catalog.types';
import type { ProductInputDto } from './dto/product-input.dto';
import { toProductForm } from './product-form';
import { salePriceFields } from './sale-price';
import { Product, toProductView } from './schemas/product.schema';
import { productSearchTerms } from './search-terms';
import { StockService } from './stock.service';
import { hasVariants, parseOptions, parseVariants, productFieldsOf, type VariantsOwner } from './variants';

const DUPLICATE_SKU = 'A product with this SKU already exists';

/**
 * What the form does to a product's variants: none (a product without them, as before), keep (an
 * edit that leaves `variants` out, as the specification's clients do), clear (`variants: null` or
 * []), or set (options and variants, with the product's stock and price they decide).
 */
type VariantsWrite =
  | { mode: 'none' | 'keep' | 'clear' }
  | {
      mode: 'set';
      fields: Pick<Product, 'options' | 'variants' | 'stock' | 'priceSantim'> & {
        originalPriceSantim?: number;
      };
    };

/** The stored product an edit reads first: its sale prices and variants. */
type StoredForEdit = VariantsOwner & {
  priceSantim: number;
  originalPriceSantim?: number;
  sales?: Product['sales'];
};
const BACKFILL_BATCH = 500;

/**
 * Products: reading them (one, by ids, as read moments ago for the cart's answers) and editing them
 * (create, update, withdraw, ratings), each edit audited and published as a `product` change.
 */
@Injectable()
export class ProductsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Catalogue');
  /** PUBLIC_API_URL without its trailing slash: public product views carry absolute image URLs. */
  private readonly origin: string;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectConnection() private readonly connection: Connection,
    private readonly audit: AuditService,
    private readonly stock: StockService,
    private readonly changes: Changes,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'publicUrl'>,
    @Optional() @Inject(CATALOGUE_READS) private readonly reads: CatalogueReads = READ_EVERYTHING,
  ) {
    this.origin = config.publicUrl.replace(/\/+$/, '');
  }

  /** Products written before search terms existed (or by raw imports) get them once, at start. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.backfillSearchTerms();
    } catch (error) {
      this.logger.warn(`Search terms backfill skipped: ${(error as Error).message}`);
    }
  }

  async backfillSearchTerms(): Promise<number> {
    let done = 0;
    for (;;) {
      const batch = await this.products
        .find(
          { searchTerms: { $exists: false } },
          { name: 1, nameAm: 1, brand: 1, description: 1, descriptionAm: 1, ingredients: 1 },
        )
        .limit(BACKFILL_BATCH)
        .lean();
      if (!batch.length) {
        if (done) this.changes.publish({ kind: 'product' }); // search results changed
        return done;
      }
      await this.products.bulkWrite(
        batch.map((p) => ({
          updateOne: { filter: { _id: p._id }, update: { $set: { searchTerms: productSearchTerms(p) } } },
        })),
      );
      done += batch.length;
    }
  }

  // ---- Reads ----

  /** One product by id; unknown, malformed and inactive ids are all "not found" to the public. */
  async getProduct(id: string) {
    return withAbsoluteUrls(toProductView(await this.activeProduct(id), this.origin));
  }

  /** The raw active product (for the cart and the wishlist); 404 "Product not found" otherwise. */
  async activeProduct(id: string) {
    const doc = await this.products
      .findOne({ _id: parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND'), active: true })
      .lean()
      .exec();
    if (!doc) throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    return doc;
  }

  /** One product in any state (the back office), 404 otherwise. */
  async anyProduct(id: string) {
    const doc = await this.products
      .findById(parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND'))
      .lean()
      .exec();
    if (!doc) throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    return toProductView(doc);
  }

  /** Products by id in any state (withdrawn ones included), for the cart, wishlist, reviews and back office. */
  async productsByIds(
    ids: readonly (Types.ObjectId | string)[],
    projection?: Record<string, 0 | 1>,
  ): Promise<CatalogProduct[]> {
    const valid = ids
      .filter((id) => Types.ObjectId.isValid(String(id)))
      .map((id) => new Types.ObjectId(String(id)));
    if (!valid.length) return [];
    // the model's collection (no casting needed: ids are ObjectIds), hiding what the schema hides
    return this.products.collection
      .find<CatalogProduct>({ _id: { $in: valid } }, { projection: withHiddenFieldsOmitted(projection) })
      .toArray();
  }

  /**
   * The same as `productsByIds` (every field), answered from what this instance read of them moments
   * ago where it can (`CatalogueReads.recentByIds`: at most HOT_CACHE_TTL_MS old, forgotten at any
   * change of products here): for the cart's answers, never for a decision that must be exact (stock
   * is reserved by the order). Only the products not known are read, in one query; their ids are
   * added to `readNow`.
   */
  recentProductsByIds(
    ids: readonly Types.ObjectId[],
    readNow?: Set<string>,
  ): Promise<Map<string, CatalogProduct>> {
    return this.reads.recentByIds(ids, (missing) => this.productsByIds(missing), readNow);
  }

  /** `productsByIds` by id, read now (and known from then on to `recentProductsByIds`). */
  freshProductsByIds(ids: readonly Types.ObjectId[]): Promise<Map<string, CatalogProduct>> {
    return this.reads.freshByIds(ids, (all) => this.productsByIds(all));
  }

  /** One product in any state, or null. */
  async productById(id: Types.ObjectId | string): Promise<CatalogProduct | null> {
    const [product] = await this.productsByIds([id]);
    return product ?? null;
  }

  /** The back office list: withdrawn products included. */
  listForAdmin(query: ListQuery<AdminProductFilter>): Promise<ListPage<Record<string, unknown>>> {
    const { filter } = query;
    const where: FilterQuery<Product> = {};
    if (filter.q) {
      const pattern = new RegExp(escapeRegex(filter.q), 'i');
      where.$or = [{ name: pattern }, { nameAm: pattern }, { brand: pattern }, { sku: pattern }];
    }
    if (filter.categories) where.category = { $in: filter.categories };
    if (filter.active !== undefined) where.active = filter.active;
    if (filter.isFeatured !== undefined) where.isFeatured = filter.isFeatured;
    if (filter.lowStock) where.stock = { $lte: LOW_STOCK_THRESHOLD };
    // out: none left; low: 1 to the low-stock threshold; in: more than that
    if (filter.stockState === 'out') where.stock = 0;
    if (filter.stockState === 'low') where.stock = { $gt: 0, $lte: LOW_STOCK_THRESHOLD };
    if (filter.stockState === 'in') where.stock = { $gt: LOW_STOCK_THRESHOLD };
    return findPage(this.products, where, query, (docs) => docs.map((doc) => toProductView(doc)));
  }

  // ---- Edits ----

  /** Maps the product form to the stored document: ETB to santim, countInStock and image aliases. */
  /**
   * During a sale a product's answer says `price` = the sale price and `originalPrice` = the compare-at
   * price; a form filled from that answer and sent back unchanged (the back office's edit, a client of
   * the specification's PUT) must not make the sale price the regular one. A `price` equal to the running
   * sale's price stands for the stored regular price, an `originalPrice` equal to the answered one for
   * the stored compare-at price (docs/decisions/0095-sales-and-pricing-rule.md).
   */
  private withoutSalePrices(stored: StoredForEdit | null, input: ProductInputDto): ProductInputDto {
    if (!stored?.sales?.length || input.price === undefined) return input;
    const answered = salePriceFields(stored);
    if (!answered.promotion || input.price !== answered.price) return input;
    const form = { ...input, price: toBirr(stored.priceSantim) };
    if (input.originalPrice !== undefined && input.originalPrice === answered.originalPrice)
      form.originalPrice = stored.originalPriceSantim ? toBirr(stored.originalPriceSantim) : undefined;
    return form;
  }

  /** The variants of the form (docs/decisions/0098-product-variants.md), checked against the stored ones. */
  private variantsWrite(input: ProductInputDto, stored?: StoredForEdit | null): VariantsWrite {
    if (input.variants === undefined) {
      if (input.options != null && input.options.length)
        parseVariants(undefined, parseOptions(input.options)); // options without variants: refused
      return { mode: stored && hasVariants(stored) ? 'keep' : 'none' };
    }
    if (input.variants === null || input.variants.length === 0) {
      if (input.options != null && input.options.length) parseVariants(input.variants, []);
      return { mode: stored && hasVariants(stored) ? 'clear' : 'none' };
    }
    const options = parseOptions(input.options);
    const variants = parseVariants(input.variants, options, stored ?? undefined);
    return { mode: 'set', fields: { options, variants, ...productFieldsOf(variants) } };
  }

  /**
   * SKUs are unique across every product's `sku` and every variant's (409 DUPLICATE_SKU): the
   * product's own SKU index covers the first; the variants' are checked here, as the embedded engine
   * keeps no unique multikey index (decision 0098).
   */
  private async checkSkus(input: ProductInputDto, write: VariantsWrite, productId?: Types.ObjectId) {
    const variantSkus = write.mode === 'set' ? write.fields.variants!.map((v) => v.sku) : [];
    const sku = input.sku?.trim() || undefined;
    if (sku && variantSkus.includes(sku))
      throw new ConflictError(`The SKU ${sku} is the product's and a variant's`, 'DUPLICATE_SKU', { sku });
    const skus = sku ? [sku, ...variantSkus] : variantSkus;
    if (!skus.length) return;
    const where: FilterQuery<Product> = {
      $or: [
        { 'variants.sku': { $in: skus } },
        ...(variantSkus.length ? [{ sku: { $in: variantSkus } }] : []),
      ],
      ...(productId ? { _id: { $ne: productId } } : {}),
    };
    const taken = await this.products.findOne(where, { sku: 1, 'variants.sku': 1 }).lean().exec();
    if (!taken) return;
    const theirs = new Set([taken.sku, ...(taken.variants ?? []).map((v) => v.sku)]);
    const clash = skus.find((s) => theirs.has(s)) ?? skus[0];
    throw new ConflictError(DUPLICATE_SKU, 'DUPLICATE_SKU', { sku: clash });
  }

  private toDocument(input: ProductInputDto, write: VariantsWrite = { mode: 'none' }): Partial<Product> {
    if (write.mode === 'set' || write.mode === 'keep') return this.variantProductDocument(input, write);
    const stock = input.stock ?? input.countInStock;
    if (input.price === undefined)
      throw new InvalidDataError(
        'Validation failed',
        [{ field: 'price', message: 'price is required' }],
        'VALIDATION_FAILED',
      );
    if (stock === undefined)
      throw new InvalidDataError(
        'Validation failed',
        [{ field: 'stock', message: 'stock is required' }],
        'VALIDATION_FAILED',
      );
    // the compare-at price is what the discount badge compares with: only above the price (docs/decisions/0082)
    if (input.originalPrice !== undefined && input.originalPrice <= input.price) {
      const params = { price: input.price };
      throw new InvalidDataError(
        'The compare-at price (originalPrice) must be higher than the price',
        [
          {
            field: 'originalPrice',
            message: 'originalPrice must be higher than price',
            code: 'COMPARE_AT_NOT_ABOVE_PRICE',
            params,
          },
        ],
        'COMPARE_AT_NOT_ABOVE_PRICE',
        params,
      );
    }
    this.checkSubCategory(input);
    const {
      price,
      originalPrice,
      image,
      images,
      countInStock: _alias,
      stock: _stock,
      options: _options,
      variants: _variants,
      ...fields
    } = input;
    // a sub-category or size sent as null (or an empty size) is cleared by updateProduct's $unset
    const { subCategory: sub, size, ...rest } = fields;
    return {
      ...rest,
      ...(sub != null ? { subCategory: sub } : {}),
      ...(size != null && size !== '' ? { size } : {}),
      searchTerms: productSearchTerms(input),
      priceSantim: toSantim(price),
      ...(originalPrice !== undefined ? { originalPriceSantim: toSantim(originalPrice) } : {}),
      images: images ?? (image ? [image] : []),
      stock,
    };
  }

  /**
   * A product with variants: its form fields but the price, compare-at price and stock, which its
   * variants decide (set) or keep (an edit that leaves them out).
   */
  private variantProductDocument(input: ProductInputDto, write: VariantsWrite): Partial<Product> {
    this.checkSubCategory(input);
    const {
      price: _price,
      originalPrice: _original,
      image,
      images,
      countInStock: _alias,
      stock: _stock,
      options: _options,
      variants: _variants,
      subCategory: sub,
      size,
      ...rest
    } = input;
    return {
      ...(rest as Partial<Product>),
      ...(sub != null ? { subCategory: sub } : {}),
      ...(size != null && size !== '' ? { size } : {}),
      searchTerms: productSearchTerms(input),
      images: images ?? (image ? [image] : []),
      ...(write.mode === 'set' ? write.fields : {}),
    };
  }

  private checkSubCategory(input: ProductInputDto): void {
    const subCategory = SUB_CATEGORIES.find((c) => c.slug === input.subCategory);
    if (subCategory && input.category && subCategory.category !== input.category) {
      const params = { subCategory: subCategory.slug, category: input.category };
      throw new InvalidDataError(
        'The sub-category belongs to another category',
        [
          {
            field: 'subCategory',
            message: `subCategory ${subCategory.slug} belongs to ${subCategory.category}`,
            code: 'SUB_CATEGORY_NOT_IN_CATEGORY',
            params,
          },
        ],
        'SUB_CATEGORY_NOT_IN_CATEGORY',
        params,
      );
    }
  }

  /** Creates a product; every path (shop route, back office) is audited here. */
  async createProduct(input: ProductInputDto, actor?: AuthUser) {
    const write = this.variantsWrite(input);
    const document = this.toDocument(input, write);
    await this.checkSkus(input, write);
    return this.changes.around({ kind: 'product' }, async () => {
      const doc = await conflictOnDuplicate(this.products.create(document), DUPLICATE_SKU, 'DUPLICATE_SKU');
      const created = toProductView(doc.toObject());
      await this.audit.record(actor, {
        entity: 'product',
        entityId: String(doc._id),
        action: 'product.create',
        to: { price: created.price, stock: created.stock },
      });
      return created;
    });
  }

  /**
   * Updates from a whole product record (react-admin sends every field back): read-only fields are
   * dropped and, when `stock` and its mirror `countInStock` disagree, the one that changed wins.
   */
  async updateProductRecord(id: string, record: object, actor: AuthUser) {
    const stored = await this.products
      .findById(parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND'), { stock: 1 })
      .lean();
    if (!stored) throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    return this.updateProduct(id, await toProductForm(record, stored.stock), actor);
  }

  /**
   * Replaces the product's form fields (PUT semantics); a product with an _id is updated. The change,
   * its low-stock alert and its wishlist notices are written in one transaction.
   */
  async updateProduct(id: string, input: ProductInputDto, actor?: AuthUser) {
    const productId = parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    const storedForEdit = (await this.products
      .findById(productId, {
        name: 1,
        priceSantim: 1,
        originalPriceSantim: 1,
        sales: 1,
        lowStockThreshold: 1,
        options: 1,
        variants: 1,
      })
      .lean()
      .exec()) as StoredForEdit | null;
    if (!storedForEdit) throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    input = this.withoutSalePrices(storedForEdit, input);
    const write = this.variantsWrite(input, storedForEdit);
    const update = this.toDocument(input, write);
    await this.checkSkus(input, write, productId);
    return this.changes.around({ kind: 'product', ids: [id] }, async () => {
      // PUT replaces the spec's form: a compare-at price left out is cleared. The sub-category and size,
      // which a client of the spec's form does not know, are cleared only when sent as null (or an empty
      // size), and kept when left out (docs/decisions/0082-product-fields-amharic-phones.md). Variants
      // left out are kept; null or [] clears them (docs/decisions/0098-product-variants.md)
      const variantsCompareAt = write.mode === 'set' && write.fields.originalPriceSantim !== undefined;
      const cleared = {
        ...((input.originalPrice === undefined && write.mode !== 'keep' && write.mode !== 'set') ||
        (write.mode === 'set' && !variantsCompareAt)
          ? { originalPriceSantim: 1 }
          : {}),
        ...(write.mode === 'clear' ? { options: 1, variants: 1 } : {}),
        ...(input.subCategory === null ? { subCategory: 1 } : {}),
        ...(input.size === null || input.size === '' ? { size: 1 } : {}),
      };
      const unset = Object.keys(cleared).length ? { $unset: cleared } : {};
      const { before, after } = await this.inTransaction(async (session) => {
        const stored = (await conflictOnDuplicate(
          this.products
            .findByIdAndUpdate(
              productId,
              { $set: update, ...unset },
              { new: false, runValidators: true, session },
            )
            .lean()
            .exec(),
          DUPLICATE_SKU,
          'DUPLICATE_SKU',
        )) as CatalogProduct | null;
        if (!stored) throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
        const doc = (await this.products
          .findById(productId)
          .session(session)
          .lean()
          .exec()) as CatalogProduct;
        await this.stock.productChanged(session, {
          before: stored,
          after: doc,
          cause: `update:${doc.updatedAt?.getTime()}`,
        });
        return { before: stored, after: doc };
      });
      await this.auditPriceAndStock(actor, before, after);
      return toProductView(after);
    });
  }

  /** Runs `work` in one transaction; a write conflict that outlasts the driver's retries is a 409, never a 500. */
  private inTransaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    return inTransaction(this.connection, work, 'The shop is busy with the same products; please try again');
  }

  /** The audit trail of price (in ETB, as the API shows it) and stock changes made by staff. */
  private async auditPriceAndStock(
    actor: AuthUser | undefined,
    before: Product & { _id: unknown },
    after: Product,
  ) {
    const entityId = String(before._id);
    if (before.priceSantim !== after.priceSantim) {
      await this.audit.record(actor, {
        entity: 'product',
        entityId,
        action: 'product.price',
        from: toBirr(before.priceSantim),
        to: toBirr(after.priceSantim),
      });
    }
    if (before.stock !== after.stock) {
      await this.audit.record(actor, {
        entity: 'product',
        entityId,
        action: 'product.stock',
        from: before.stock,
        to: after.stock,
      });
    }
  }

  /**
   * Puts products on sale or withdraws them, in one write; answers the ids that changed (the ones
   * already in that state are left alone). Unknown ids change nothing.
   */
  async setActive(ids: string[], active: boolean, actor?: AuthUser): Promise<string[]> {
    const productIds = ids.map((id) => parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND'));
    return this.changes.around({ kind: 'product', ids }, async () => {
      const changing = await this.products
        .find({ _id: { $in: productIds }, active: { $ne: active } }, { _id: 1 })
        .lean()
        .exec();
      if (!changing.length) return [];
      const changed = changing.map((d) => d._id);
      await this.products.updateMany({ _id: { $in: changed } }, { $set: { active } }).exec();
      for (const id of changed)
        await this.audit.record(actor, {
          entity: 'product',
          entityId: String(id),
          action: 'product.active',
          from: !active,
          to: active,
        });
      return changed.map(String);
    });
  }

  /**
   * Deleting withdraws the product from sale (active: false); orders and reviews keep referring to
   * it. Audited on every path. Answers the withdrawn product.
   */
  async deleteProduct(id: string, actor?: AuthUser) {
    const productId = parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
    return this.changes.around({ kind: 'product', ids: [id] }, async () => {
      const doc = await this.products
        .findOneAndUpdate({ _id: productId, active: true }, { $set: { active: false } }, { new: true })
        .lean();
      if (!doc) throw new NotFoundError(PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
      await this.audit.record(actor, {
        entity: 'product',
        entityId: String(doc._id),
        action: 'product.delete',
        from: true,
        to: false,
      });
      return toProductView(doc);
    });
  }

  /**
   * Sets the product's rating (average rounded to one decimal, 0 without reviews) and reviewCount
   * from the figures the reviews module computed. `touch: false` leaves updatedAt alone (the seed).
   * Part of a review change: the reviews module publishes it around the whole write.
   */
  async recomputeRating(
    productId: Types.ObjectId | string,
    stats: RatingStats | undefined,
    options: { touch?: boolean } = {},
  ): Promise<{ rating: number; reviewCount: number }> {
    const rating = stats?.count ? Math.round(stats.average * 10) / 10 : 0;
    const reviewCount = stats?.count ?? 0;
    await this.products
      .updateOne(
        { _id: new Types.ObjectId(String(productId)) },
        { $set: { rating, reviewCount } },
        { timestamps: options.touch ?? true },
      )
      .exec();
    return { rating, reviewCount };
  }
}
