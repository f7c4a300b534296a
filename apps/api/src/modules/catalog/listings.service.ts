import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { CATEGORIES, SUB_CATEGORIES, toSantim, type ProductSort } from '@shop/shared';
import { Connection, FilterQuery, Model, SortOrder, Types, type mongo } from 'mongoose';
import { withAbsoluteUrls } from '../../common/absolute-urls.interceptor';
import { escapeRegex } from '../../common/mongo';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CATALOGUE_READS, READ_EVERYTHING, type CatalogueReads, type ListedProduct } from './catalogue-reads';
import { HIDDEN_PRODUCT_FIELDS, type CatalogProduct } from './catalog.types';
import type { ListProductsQuery } from './dto/list-products.query';
import { Product, toProductView } from './schemas/product.schema';
import { SearchIndex } from './search-index';
import { filterHits, firstInOrder, hitOrder } from './search-results';

const SORTS: Record<ProductSort, Record<string, SortOrder>> = {
  featured: { isFeatured: -1, rating: -1, createdAt: -1, _id: 1 },
  price_asc: { priceSantim: 1, _id: 1 },
  // tie-breaks follow the index direction so that every sort is an index walk (schemas/product.schema.ts)
  price_desc: { priceSantim: -1, _id: -1 },
  reviews: { reviewCount: -1, rating: -1, _id: 1 },
  newest: { createdAt: -1, _id: -1 },
};

/** A filter as a string that tells filters apart (regular expressions included, as their source and flags). */
function filterKey(filter: FilterQuery<Product>): string {
  return JSON.stringify(filter, (_key, value: unknown) =>
    value instanceof RegExp ? { $re: value.source, $flags: value.flags } : value,
  );
}

/** A listing page as JSON text, from each product's JSON (in order; a product gone in between is left out). */
function pageJson(products: readonly (string | undefined)[], total: number, limit: number, page: number) {
  let list = '';
  for (const part of products) if (part !== undefined) list = list ? `${list},${part}` : part;
  return `{"products":[${list}],"totalPages":${Math.ceil(total / limit)},"totalProducts":${total},"page":${page}}`;
}

/**
 * The public lists of the catalogue: the listing (filters, search, sorts, pages, counts) and the
 * categories with their counts. The listing is made once, as the JSON text sent, for both doors that
 * answer it (Nest's controller, and the cache module's reader before Express for anonymous reads).
 */
@Injectable()
export class ListingsService {
  /** PUBLIC_API_URL without its trailing slash: public product views carry absolute image URLs. */
  private readonly origin: string;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'publicUrl'>,
    private readonly search: SearchIndex,
    @Optional() @Inject(CATALOGUE_READS) private readonly reads: CatalogueReads = READ_EVERYTHING,
  ) {
    this.origin = config.publicUrl.replace(/\/+$/, '');
  }

  /** The storefront listing's filter (active products only; a search is answered by the search index). */
  private listFilter(query: ListProductsQuery): FilterQuery<Product> {
    const filter: FilterQuery<Product> = { active: true };
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

  /** Active products matching a listing filter (every page of a filter has the same count). */
  private countListed(filter: FilterQuery<Product>): Promise<number> {
    // the `count` command: one reply, no cursor (counted from the index where the filter is bounds)
    return this.reads.count(`products.count:${filterKey(filter)}`, async () => {
      const reply = await this.database().command({
        count: this.products.collection.collectionName,
        query: filter,
      });
      return Number(reply.n);
    });
  }

  /** The native database (the listing's reads send their commands directly). */
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
    projection: Readonly<Record<string, 0 | 1>>;
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

  /**
   * The storefront listing (active products only, filtered, sorted and paginated) as the JSON text
   * Express sends for it. Every call queries the database for the page's products in order and the
   * count; each product's JSON is read through `CatalogueReads.listedJson` (whole documents only for
   * the products whose JSON is not known for what the page query read of them).
   */
  async listJson(query: ListProductsQuery): Promise<string> {
    if (query.search?.trim()) return this.searchJson(query);
    const filter = this.listFilter(query);
    const page = query.page ?? 1;
    const limit = query.limit;
    const [listed, total] = await Promise.all([
      this.findBatch<ListedProduct>({
        filter,
        sort: SORTS[query.sort ?? 'featured'],
        skip: (page - 1) * limit,
        limit,
        projection: this.reads.listedFields,
      }),
      this.countListed(filter),
    ]);
    return pageJson(await this.pageJsonParts(listed), total, limit, page);
  }

  /**
   * A listing with a search: the products matching it from the search index (most relevant first,
   * or in the sort asked for), filtered there from its facts, counted, and the page's products read
   * from the database by id (active ones only: a product withdrawn a moment ago is left out).
   */
  private async searchJson(query: ListProductsQuery): Promise<string> {
    const page = query.page ?? 1;
    const limit = query.limit;
    const found = await this.search.search(query.search ?? '');
    const matching = found ? filterHits(found.hits, query) : [];
    const pageIds = firstInOrder(matching, page * limit, hitOrder(query.sort))
      .slice((page - 1) * limit)
      .map((hit) => hit.facts.id);
    if (!pageIds.length) return pageJson([], matching.length, limit, page);
    const read = await this.findBatch<ListedProduct>({
      filter: { _id: { $in: pageIds.map((id) => new Types.ObjectId(id)) }, active: true },
      limit: pageIds.length,
      projection: this.reads.listedFields,
    });
    const byId = new Map(read.map((doc) => [doc._id.toHexString(), doc]));
    const listed: ListedProduct[] = [];
    for (const id of pageIds) {
      const doc = byId.get(id);
      if (doc) listed.push(doc);
      else this.search.forget(id); // withdrawn or gone: the index hears of it at its next read anyway
    }
    return pageJson(await this.pageJsonParts(listed), matching.length, limit, page);
  }

  /** Each listed product's public JSON (`CatalogueReads.listedJson`), whole documents read where needed. */
  private pageJsonParts(listed: readonly ListedProduct[]): Promise<(string | undefined)[]> {
    return this.reads.listedJson(
      listed,
      (ids) =>
        this.findBatch<CatalogProduct>({
          filter: { _id: { $in: ids } },
          limit: ids.length,
          projection: HIDDEN_PRODUCT_FIELDS,
        }),
      (doc) => JSON.stringify(toProductView(doc, this.origin)),
    );
  }

  /** The storefront listing as an answer for Nest (`listJson`, its image URLs already absolute). */
  async listProducts(query: ListProductsQuery): Promise<object> {
    return withAbsoluteUrls(JSON.parse(await this.listJson(query)) as object);
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

  /** Products on sale (the dashboard). */
  countActive(): Promise<number> {
    return this.products.countDocuments({ active: true }).exec();
  }
}
