import { HotCache } from '../../common/hot-cache';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import {
  CATEGORIES,
  CATEGORY_SLUGS,
  LOW_STOCK_THRESHOLD,
  SUB_CATEGORIES,
  toBirr,
  toSantim,
  type ProductSort,
} from '@shop/shared';
import { ClientSession, Connection, FilterQuery, Model, SortOrder, Types, type mongo } from 'mongoose';
import { withAbsoluteUrls } from '../../common/absolute-urls.interceptor';
import type { AuthUser } from '../../common/auth/auth-user';
import { ConflictError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { conflictOnDuplicate, escapeRegex, inTransaction, parseObjectId } from '../../common/mongo';
import {
  filterBoolean,
  filterEnum,
  filterText,
  listResource,
  type ReactAdminListQuery,
} from '../admin/list/react-admin';
import { APP_CONFIG, type AppConfig } from '../../config';
import { NotificationsService } from '../notifications/notifications.service';
import { AuditService } from '../audit/audit.service';
import type { ListProductsQuery } from './dto/list-products.query';
import type { ProductInputDto } from './dto/product-input.dto';
import { parseListQuery } from './list-query';
import { toProductForm } from './product-form';
import { PRODUCT_STAMP_FIELDS, ProductFragments, type StampedProduct } from './product-fragments';
import { RecentProducts } from './recent-products';
import { Product, toProductView } from './schemas/product.schema';
import { MAX_QUERY_WORDS, productSearchTerms, wordsOf } from './search-terms';
import { shortOfStock } from './stock-errors';

const DUPLICATE_SKU = 'A product with this SKU already exists';
const BACKFILL_BATCH = 500;

const SORTS: Record<ProductSort, Record<string, SortOrder>> = {
  featured: { isFeatured: -1, rating: -1, createdAt: -1, _id: 1 },
  price_asc: { priceSantim: 1, _id: 1 },
  // tie-breaks follow the index direction so that every sort is an index walk (schemas/product.schema.ts)
  price_desc: { priceSantim: -1, _id: -1 },
  reviews: { reviewCount: -1, rating: -1, _id: 1 },
  newest: { createdAt: -1, _id: -1 },
};

export const PRODUCT_NOT_FOUND = 'Product not found';

/** A filter as a string that tells filters apart (regular expressions included, as their source and flags). */
function filterKey(filter: FilterQuery<Product>): string {
  return JSON.stringify(filter, (_key, value: unknown) =>
    value instanceof RegExp ? { $re: value.source, $flags: value.flags } : value,
  );
}

/** A stored product as the catalogue hands it to other modules (read-only for them). */
export type CatalogProduct = Product & { _id: Types.ObjectId };

/** Fields the schema keeps out of reads (`select: false`), which reads through the collection leave out too. */
const HIDDEN_PRODUCT_FIELDS = { searchTerms: 0 } as const;

/** A projection as Mongoose would send it for the product schema: an inclusion stays, anything else hides the hidden fields. */
export function withHiddenFieldsOmitted(projection?: Record<string, 0 | 1>): Record<string, 0 | 1> {
  const inclusive = Object.entries(projection ?? {}).some(([field, v]) => v === 1 && field !== '_id');
  return inclusive ? projection! : { ...projection, ...HIDDEN_PRODUCT_FIELDS };
}
/** A quantity of one product, as carts and orders hold it. */
export interface StockLine {
  product: Types.ObjectId;
  quantity: number;
}
/** What an order keeps of a reserved product (its line, its price, the low-stock alert), as the reservation read it. */
const RESERVED_FIELDS = {
  name: 1,
  nameAm: 1,
  sku: 1,
  images: 1,
  priceSantim: 1,
  stock: 1,
  lowStockThreshold: 1,
  active: 1,
} as const;
export type ReservedProduct = Pick<CatalogProduct, '_id' | keyof typeof RESERVED_FIELDS>;

export interface Reservation {
  product: ReservedProduct;
  quantity: number;
}
/** A product's review figures, computed by the reviews module from its own collection. */
export interface RatingStats {
  average: number;
  count: number;
}

/**
 * One committed-together change of a product's price or stock: the product before and after, and
 * `cause`, a key naming the change itself (`update:<updatedAt ms>`, `cancel:<orderId>`), so that
 * messages about it are made once per change however often a request is retried.
 */
export interface ProductChange {
  before: CatalogProduct;
  after: CatalogProduct;
  cause: string;
}
/**
 * Called inside the transaction of every price or stock change (after low-stock alerts are written).
 * Other modules register one with `CatalogService.onProductChange` (the wishlist's notices) and write
 * through the given session, so their effects commit or roll back with the change.
 */
export type ProductChangeListener = (change: ProductChange, session: ClientSession) => Promise<void>;

/** MongoDB's write-conflict code: two transactions raced for one product (retried by the driver). */

/** The back office's stock states: out (none), low (1 to LOW_STOCK_THRESHOLD), in (more). */
export const STOCK_STATES = ['out', 'low', 'in'] as const;

@Injectable()
export class CatalogService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Catalogue');
  private readonly listeners: ProductChangeListener[] = [];
  /** PUBLIC_API_URL without its trailing slash: public product views carry absolute image URLs. */
  private readonly origin: string;
  /** Public views of products as the catalogue list sends them, checked against each page's query. */
  private readonly fragments: ProductFragments;
  /** Products by id as last read, for the cart (`recentProductsByIds`). */
  private readonly recent: RecentProducts<CatalogProduct>;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectConnection() private readonly connection: Connection,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    private readonly hot: HotCache,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'publicUrl'>,
  ) {
    this.origin = config.publicUrl.replace(/\/+$/, '');
    this.fragments = new ProductFragments(hot);
    this.recent = new RecentProducts<CatalogProduct>(hot);
  }

  /** Anonymous reads of the catalogue list are answered before Nest's pipeline (see listProductsJson). */
  onModuleInit(): void {
    this.hot.answerWith('/api/products', (raw) => {
      const query = parseListQuery(raw);
      return query ? this.listProductsJson(query) : Promise.resolve(undefined);
    });
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
        if (done) this.hot.bump(); // search results changed
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

  /** The storefront listing's filter (active products only), or null when the search has no word. */
  private listFilter(query: ListProductsQuery): FilterQuery<Product> | null {
    const filter: FilterQuery<Product> = { active: true };
    if (query.search?.trim()) {
      const words = [...new Set(wordsOf(query.search))].slice(0, MAX_QUERY_WORDS);
      // text without a single word (e.g. ".*") matches nothing rather than everything
      if (!words.length) return null;
      // every query word must start a word of the product: an anchored, case-sensitive prefix on
      // lower-cased terms is an index range scan, and the escaped text is never a pattern or operator
      filter.$and = words.map((word) => ({ searchTerms: { $regex: `^${escapeRegex(word)}` } }));
    }
    if (query.minPrice !== undefined || query.maxPrice !== undefined) {
      filter.priceSantim = {};
      if (query.minPrice !== undefined) filter.priceSantim.$gte = toSantim(query.minPrice);
      if (query.maxPrice !== undefined) filter.priceSantim.$lte = toSantim(query.maxPrice);
    }
    if (query.category) filter.category = query.category;
    if (query.subCategory) filter.subCategory = query.subCategory;
    if (query.brand) filter.brand = new RegExp(`^${escapeRegex(query.brand)}$`, 'i');
    if (query.minRating !== undefined) filter.rating = { $gte: query.minRating };
    if (query.inStock) filter.stock = { $gt: 0 };
    return filter;
  }

  /** Active products matching a listing filter: every page of a filter has the same count, kept until the next write (or TTL). */
  private countListed(filter: FilterQuery<Product>): Promise<number> {
    // the `count` command: one reply, no cursor (counted from the index where the filter is bounds)
    return this.hot.memo(`products.count:${filterKey(filter)}`, async () => {
      const reply = await this.database().command({
        count: this.products.collection.collectionName,
        query: filter,
      });
      return Number(reply.n);
    });
  }

  /** The native database (the catalogue list's reads send their commands directly). */
  private database(): mongo.Db {
    const db = this.connection.db;
    if (!db) throw new Error('Database not connected');
    return db;
  }

  /**
   * A find of at most `limit` products answered in one reply (`singleBatch`): the `find` command
   * as the driver's cursor would send it, without the cursor's bookkeeping (a catalogue page is at
   * most MAX_PAGE_SIZE documents).
   */
  private async findBatch<T>(find: {
    filter: FilterQuery<Product>;
    sort?: Record<string, SortOrder>;
    skip?: number;
    limit: number;
    projection: Record<string, 0 | 1>;
  }): Promise<T[]> {
    const reply = await this.database().command({
      find: this.products.collection.collectionName,
      filter: find.filter,
      ...(find.sort ? { sort: find.sort } : {}),
      ...(find.skip ? { skip: find.skip } : {}),
      limit: find.limit,
      batchSize: find.limit,
      singleBatch: true,
      projection: find.projection,
    });
    return (reply.cursor as { firstBatch: T[] }).firstBatch;
  }

  /** The storefront listing: active products only, filtered, sorted and paginated. */
  async listProducts(query: ListProductsQuery) {
    const filter = this.listFilter(query);
    if (!filter) return { products: [], totalPages: 0, totalProducts: 0, page: query.page ?? 1 };
    const page = query.page ?? 1;
    const limit = query.limit;
    const [docs, totalProducts] = await Promise.all([
      this.products
        .find(filter)
        .sort(SORTS[query.sort ?? 'featured'])
        .skip((page - 1) * limit)
        .limit(limit)
        .lean()
        .exec(),
      this.countListed(filter),
    ]);
    return withAbsoluteUrls({
      products: docs.map((doc) => toProductView(doc, this.origin)),
      totalPages: Math.ceil(totalProducts / limit),
      totalProducts,
      page,
    });
  }

  /**
   * The same listing as `listProducts`, as the JSON text Express would send for it (byte for byte),
   * for anonymous reads answered before Nest's pipeline (HotCache.answerWith). Every call queries the
   * database: the page's products in order, with only their ids and stamps, and the count (memoised
   * as in `listProducts`); each product's JSON comes from `ProductFragments` when its stamp is the
   * one read, else from its document, read in one more query.
   */
  async listProductsJson(query: ListProductsQuery): Promise<string> {
    const filter = this.listFilter(query);
    const page = query.page ?? 1;
    if (!filter) return JSON.stringify({ products: [], totalPages: 0, totalProducts: 0, page });
    const limit = query.limit;
    const epoch = this.hot.epoch;
    const [stamps, totalProducts] = await Promise.all([
      this.findBatch<StampedProduct>({
        filter,
        sort: SORTS[query.sort ?? 'featured'],
        skip: (page - 1) * limit,
        limit,
        projection: PRODUCT_STAMP_FIELDS,
      }),
      this.countListed(filter),
    ]);
    const now = Date.now();
    const parts: (string | undefined)[] = new Array<string | undefined>(stamps.length);
    let missing: Types.ObjectId[] | undefined;
    for (let i = 0; i < stamps.length; i++) {
      const json = this.fragments.get(stamps[i]._id.toHexString(), stamps[i], now);
      if (json === undefined) (missing ??= []).push(stamps[i]._id as Types.ObjectId);
      else parts[i] = json;
    }
    if (missing) {
      const docs = await this.findBatch<CatalogProduct>({
        filter: { _id: { $in: missing } },
        limit: missing.length,
        projection: HIDDEN_PRODUCT_FIELDS,
      });
      const byId = new Map(docs.map((doc) => [doc._id.toHexString(), doc]));
      for (let i = 0; i < stamps.length; i++) {
        if (parts[i] !== undefined) continue;
        const id = stamps[i]._id.toHexString();
        const doc = byId.get(id);
        if (!doc) continue; // deleted for good in between: as if read a moment later
        const json = JSON.stringify(toProductView(doc, this.origin));
        this.fragments.set(id, doc, json, epoch, now);
        parts[i] = json;
      }
    }
    let products = '';
    for (const part of parts) if (part !== undefined) products = products ? `${products},${part}` : part;
    return `{"products":[${products}],"totalPages":${Math.ceil(totalProducts / limit)},"totalProducts":${totalProducts},"page":${page}}`;
  }

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

  /** Categories with their English and Amharic names and active product counts. */
  async listCategories() {
    const counts = await this.products
      .aggregate<{ _id: string; count: number }>([
        { $match: { active: true } },
        { $group: { _id: '$category', count: { $sum: 1 } } },
      ])
      .exec();
    const byCategory = new Map(counts.map((c) => [c._id, c.count]));
    return CATEGORIES.map((category) => ({
      slug: category.slug,
      name: { ...category.name },
      subCategories: SUB_CATEGORIES.filter((s) => s.category === category.slug).map((s) => ({
        slug: s.slug,
        name: { ...s.name },
      })),
      productCount: byCategory.get(category.slug) ?? 0,
    }));
  }

  /** Maps the product form to the stored document: ETB to santim, countInStock and image aliases. */
  private toDocument(input: ProductInputDto): Partial<Product> {
    const stock = input.stock ?? input.countInStock;
    if (stock === undefined)
      throw new InvalidDataError('Validation failed', [{ field: 'stock', message: 'stock is required' }]);
    if (input.originalPrice !== undefined && input.originalPrice < input.price) {
      throw new InvalidDataError('Validation failed', [
        { field: 'originalPrice', message: 'originalPrice must not be below price' },
      ]);
    }
    const { price, originalPrice, image, images, countInStock: _alias, stock: _stock, ...rest } = input;
    return {
      ...rest,
      searchTerms: productSearchTerms(input),
      priceSantim: toSantim(price),
      ...(originalPrice !== undefined ? { originalPriceSantim: toSantim(originalPrice) } : {}),
      images: images ?? (image ? [image] : []),
      stock,
    };
  }

  /** Creates a product; every path (shop route, back office) is audited here. */
  async createProduct(input: ProductInputDto, actor?: AuthUser) {
    return this.hot.after(async () => {
      const doc = await conflictOnDuplicate(
        this.products.create(this.toDocument(input)),
        DUPLICATE_SKU,
        'DUPLICATE_SKU',
      );
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

  /** The back office list: withdrawn products included; filters q (name, brand, sku), category, active, isFeatured, lowStock, id. */
  listForAdmin(query: ReactAdminListQuery) {
    return listResource(this.products, query, {
      sortFields: {
        name: 'name',
        brand: 'brand',
        price: 'priceSantim',
        stock: 'stock',
        countInStock: 'stock',
        createdAt: 'createdAt',
        rating: 'rating',
        reviewCount: 'reviewCount',
        category: 'category',
        active: 'active',
        isFeatured: 'isFeatured',
        sku: 'sku',
      },
      filters: ['q', 'category', 'active', 'isFeatured', 'lowStock', 'stockState'],
      defaultSort: ['createdAt', 'DESC'],
      where: (filter) => {
        const where: FilterQuery<Product> = {};
        const q = filterText(filter, 'q');
        if (q) {
          const pattern = new RegExp(escapeRegex(q), 'i');
          where.$or = [{ name: pattern }, { nameAm: pattern }, { brand: pattern }, { sku: pattern }];
        }
        const categories = filterEnum(filter, 'category', CATEGORY_SLUGS);
        if (categories) where.category = { $in: categories };
        const active = filterBoolean(filter, 'active');
        if (active !== undefined) where.active = active;
        const featured = filterBoolean(filter, 'isFeatured');
        if (featured !== undefined) where.isFeatured = featured;
        if (filterBoolean(filter, 'lowStock')) where.stock = { $lte: LOW_STOCK_THRESHOLD };
        // out: none left; low: 1 to the low-stock threshold; in: more than that
        const [state] = filterEnum(filter, 'stockState', STOCK_STATES) ?? [];
        if (state === 'out') where.stock = 0;
        if (state === 'low') where.stock = { $gt: 0, $lte: LOW_STOCK_THRESHOLD };
        if (state === 'in') where.stock = { $gt: LOW_STOCK_THRESHOLD };
        return where;
      },
      toRecords: (docs) => docs.map((doc) => toProductView(doc)),
    });
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
    return this.hot.after(async () => {
      const productId = parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND');
      const update = this.toDocument(input);
      const unset = input.originalPrice === undefined ? { $unset: { originalPriceSantim: 1 } } : {};
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
        await this.productChanged(session, {
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

  /** Registers a listener told of every price or stock change inside its transaction; answers its removal. */
  onProductChange(listener: ProductChangeListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** The admin's low-stock alert (when the change crosses the threshold), then the listeners; all in `session`. */
  private async productChanged(session: ClientSession, change: ProductChange): Promise<void> {
    await this.notifications.enqueue(session, {
      type: 'stock.changed',
      before: change.before,
      after: change.after,
      cause: change.cause,
    });
    for (const listener of this.listeners) await listener(change, session);
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
    return this.hot.after(async () => {
      const productIds = ids.map((id) => parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND'));
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
    return this.hot.after(async () => {
      const doc = await this.products
        .findOneAndUpdate(
          { _id: parseObjectId(id, PRODUCT_NOT_FOUND, 'PRODUCT_NOT_FOUND'), active: true },
          { $set: { active: false } },
          { new: true },
        )
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
   * ago where it can (RecentProducts: at most HOT_CACHE_TTL_MS old, forgotten at any product write
   * here): for the cart's answers, never for a decision that must be exact (stock is reserved by the
   * order). Only the products not kept are read, in one query; their ids are added to `readNow`.
   */
  async recentProductsByIds(
    ids: readonly Types.ObjectId[],
    readNow?: Set<string>,
  ): Promise<Map<string, CatalogProduct>> {
    const now = Date.now();
    const found = new Map<string, CatalogProduct>();
    let missing: Types.ObjectId[] | undefined;
    for (const id of ids) {
      const key = id.toHexString();
      const kept = this.recent.get(key, now);
      if (kept) found.set(key, kept);
      else (missing ??= []).push(id);
    }
    if (missing) {
      for (const [key, product] of await this.freshProductsByIds(missing)) found.set(key, product);
      if (readNow) for (const id of missing) readNow.add(id.toHexString());
    }
    return found;
  }

  /** `productsByIds` by id, kept for `recentProductsByIds`. */
  async freshProductsByIds(ids: readonly Types.ObjectId[]): Promise<Map<string, CatalogProduct>> {
    const mark = this.recent.mark();
    const startedAt = Date.now();
    const products = await this.productsByIds(ids);
    this.recent.keep(products, mark, startedAt);
    return new Map(products.map((p) => [p._id.toHexString(), p]));
  }

  /** One product in any state, or null. */
  async productById(id: Types.ObjectId | string): Promise<CatalogProduct | null> {
    const [product] = await this.productsByIds([id]);
    return product ?? null;
  }

  /**
   * Reserves every line inside the caller's transaction with one conditional update each
   * (`active`, `stock >= quantity`), so two customers can never take the same last unit; a short
   * line throws (409, coded) and the caller's transaction undoes the rest.
   */
  async reserveStock(lines: readonly StockLine[], session: ClientSession): Promise<Reservation[]> {
    return this.hot.after(async () => {
      const reservations: Reservation[] = [];
      for (const line of lines) {
        // the model's collection: exact types, no casting; updatedAt as the schema's timestamps set it
        const product = await this.products.collection.findOneAndUpdate(
          { _id: line.product, active: true, stock: { $gte: line.quantity } },
          { $inc: { stock: -line.quantity }, $set: { updatedAt: new Date() } },
          {
            returnDocument: 'after',
            session,
            // only what the order keeps: a product's descriptions and lists are most of its bytes
            projection: RESERVED_FIELDS,
            includeResultMetadata: false,
          },
        );
        if (!product) throw await this.shortLineError(line.product, line.quantity, session);
        reservations.push({ product: product as ReservedProduct, quantity: line.quantity });
      }
      return reservations;
    });
  }

  /**
   * Gives reserved stock back (a cancelled order) inside the caller's transaction. `cause` names the
   * change (e.g. `cancel:<orderId>`): each product's change goes through the same path as a staff
   * edit, so a sold-out product coming back tells the customers who asked, in the same transaction.
   */
  async releaseStock(lines: readonly StockLine[], session: ClientSession, cause: string): Promise<void> {
    return this.hot.after(async () => {
      for (const line of lines) {
        const after = (await this.products
          .findOneAndUpdate({ _id: line.product }, { $inc: { stock: line.quantity } }, { new: true, session })
          .lean()
          .exec()) as CatalogProduct | null;
        if (!after) continue; // a product deleted for good: nothing to give back to
        const before = { ...after, stock: after.stock - line.quantity };
        await this.productChanged(session, { before, after, cause });
      }
    });
  }

  /**
   * Sets the product's rating (average rounded to one decimal, 0 without reviews) and reviewCount
   * from the figures the reviews module computed. `touch: false` leaves updatedAt alone (the seed).
   */
  async recomputeRating(
    productId: Types.ObjectId | string,
    stats: RatingStats | undefined,
    options: { touch?: boolean } = {},
  ): Promise<{ rating: number; reviewCount: number }> {
    return this.hot.after(async () => {
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
    });
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

  /** Products on sale (the dashboard). */
  countActive(): Promise<number> {
    return this.products.countDocuments({ active: true }).exec();
  }

  /** Products on sale at or below the low-stock threshold, fewest first. */
  lowStock(limit: number) {
    return this.products
      .find(
        { active: true, stock: { $lte: LOW_STOCK_THRESHOLD } },
        { name: 1, stock: 1, priceSantim: 1, images: 1 },
      )
      .sort({ stock: 1, name: 1 })
      .limit(limit)
      .lean()
      .exec();
  }
}
