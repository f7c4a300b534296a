import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { CATEGORIES, CATEGORY_SLUGS, SUB_CATEGORIES, toSantim, type ProductSort } from '@shop/shared';
import { Connection, FilterQuery, Model, SortOrder, Types, type mongo } from 'mongoose';
import { withAbsoluteUrls } from '../../common/absolute-urls.interceptor';
import { escapeRegex } from '../../common/mongo';
import { Changes } from '../../common/changes';
import { shopClock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CATALOGUE_READS, READ_EVERYTHING, type CatalogueReads, type ListedProduct } from './catalogue-reads';
import {
  FACET_BRANDS,
  HIDDEN_PRODUCT_FIELDS,
  type CatalogProduct,
  type FacetCount,
  type ListingFacets,
} from './catalog.types';
import type { ListFacet, ListProductsQuery } from './dto/list-products.query';
import { Product, toProductView } from './schemas/product.schema';
import { SearchIndex, type SearchResult } from './search-index';
import { factsOf, filterMatches, pageOf, type Matches } from './search-results';

const SORTS: Record<ProductSort, Record<string, SortOrder>> = {
  featured: { isFeatured: -1, rating: -1, createdAt: -1, _id: 1 },
  price_asc: { priceSantim: 1, _id: 1 },
  // tie-breaks follow the index direction so that every sort is an index walk (schemas/product.schema.ts)
  price_desc: { priceSantim: -1, _id: -1 },
  reviews: { reviewCount: -1, rating: -1, _id: 1 },
  newest: { createdAt: -1, _id: -1 },
};

/** Facet counts kept at most (one per distinct filter and facet). */
const MAX_FACET_ENTRIES = 2000;

/** Products per value of one field. */
type RawFacets = Map<string, number>;

/** A search without a word matches nothing. */
const NO_MATCHES: Matches = { docs: new Int32Array(0), scores: new Float64Array(0), facts: [] };

/** A filter as a string that tells filters apart (regular expressions included, as their source and flags). */
function filterKey(filter: FilterQuery<Product>): string {
  return JSON.stringify(filter, (_key, value: unknown) =>
    value instanceof RegExp ? { $re: value.source, $flags: value.flags } : value,
  );
}

/** A listing page as JSON text, from each product's JSON (in order; a product gone in between is left out). */
function pageJson(
  products: readonly (string | undefined)[],
  total: number,
  limit: number,
  page: number,
  facets?: ListingFacets,
) {
  let list = '';
  for (const part of products) if (part !== undefined) list = list ? `${list},${part}` : part;
  const counts = facets ? `,"facets":${JSON.stringify(facets)}` : '';
  return `{"products":[${list}],"totalPages":${Math.ceil(total / limit)},"totalProducts":${total},"page":${page}${counts}}`;
}

/** The query with empty brands dropped (a form that sent `brand=`): no brand left, no brand filter. */
function withBrands(query: ListProductsQuery): ListProductsQuery {
  if (!query.brand) return query;
  const brand = query.brand.filter((b) => b !== '');
  return { ...query, brand: brand.length ? brand : undefined };
}

/** Counts of brands by lower-cased name: the spelling shown is the first in code-point order. */
type BrandTally = Map<string, { name: string; count: number }>;

function tallyBrand(tally: BrandTally, name: string, count: number): void {
  const key = name.toLowerCase();
  if (!key) return;
  const kept = tally.get(key);
  if (!kept) tally.set(key, { name, count });
  else {
    kept.count += count;
    if (name < kept.name) kept.name = name;
  }
}

/**
 * The answer's counts (docs/decisions/0091-catalogue-facets.md): every category in the shop's order
 * (none left out, so the drawer keeps its shape), and the brands with products, most products first
 * (at most FACET_BRANDS), each brand asked for kept even at 0.
 */
function facetsOf(
  asked: readonly string[],
  categories: ReadonlyMap<string, number> | undefined,
  brands: BrandTally | undefined,
  chosenBrands: readonly string[] | undefined,
): ListingFacets {
  const facets: ListingFacets = {};
  if (categories && asked.includes('category'))
    facets.category = CATEGORY_SLUGS.map((value) => ({ value, count: categories.get(value) ?? 0 }));
  if (brands && asked.includes('brand')) {
    const all = [...brands.values()].sort(
      (a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    const shown: FacetCount[] = all.slice(0, FACET_BRANDS).map((b) => ({ value: b.name, count: b.count }));
    for (const chosen of chosenBrands ?? []) {
      const key = chosen.toLowerCase();
      if (shown.some((b) => b.value.toLowerCase() === key)) continue;
      const known = brands.get(key);
      shown.push({ value: known?.name ?? chosen, count: known?.count ?? 0 });
    }
    facets.brand = shown;
  }
  return facets;
}

/**
 * The public lists of the catalogue: the listing (filters, search, sorts, pages, counts) and the
 * categories with their counts. The listing is made once, as the JSON text sent, for both doors that
 * answer it (Nest's controller, and the cache module's reader before Express for anonymous reads).
 */
@Injectable()
export class ListingsService implements OnModuleDestroy {
  /** PUBLIC_API_URL without its trailing slash: public product views carry absolute image URLs. */
  private readonly origin: string;
  /** Facet counts of listing filters without a search, kept until a change (`facetCounts`). */
  private readonly facetCache = new Map<string, { value: RawFacets; expires: number }>();
  private facetGeneration = 0;
  private readonly unlisten: () => void = () => undefined;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'publicUrl'> & Partial<AppConfig>,
    private readonly search: SearchIndex,
    @Optional() @Inject(CATALOGUE_READS) private readonly reads: CatalogueReads = READ_EVERYTHING,
    @Optional() changes?: Changes,
  ) {
    this.origin = config.publicUrl.replace(/\/+$/, '');
    // what the hot cache forgets its listing counts at (cache/invalidation.ts), facet counts forget too
    const forget = (change: { kind: string }) => {
      if (change.kind === 'settings' || change.kind === 'account') return;
      this.facetGeneration++;
      this.facetCache.clear();
    };
    if (changes) this.unlisten = changes.listen({ begin: forget, changed: forget });
    reads.onChangedElsewhere?.(() => forget({ kind: 'product' }));
  }

  onModuleDestroy(): void {
    this.unlisten();
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
    if (query.brand) {
      const brands = query.brand.map((b) => new RegExp(`^${escapeRegex(b)}$`, 'i'));
      filter.brand = brands.length === 1 ? brands[0] : { $in: brands };
    }
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
  async listJson(asked: ListProductsQuery): Promise<string> {
    const query = withBrands(asked);
    if (query.search?.trim()) return this.searchJson(query);
    const filter = this.listFilter(query);
    const page = query.page ?? 1;
    const limit = query.limit;
    const [listed, total, facets] = await Promise.all([
      this.findBatch<ListedProduct>({
        filter,
        sort: SORTS[query.sort ?? 'featured'],
        skip: (page - 1) * limit,
        limit,
        projection: this.reads.listedFields,
      }),
      this.countListed(filter),
      query.facets?.length ? this.listedFacets(query) : undefined,
    ]);
    return pageJson(await this.pageJsonParts(listed), total, limit, page, facets);
  }

  /**
   * The facet counts of a listing without a search: categories counted over the other filters
   * (category and sub-category left out), brands over the other filters (brand left out). One
   * aggregation per distinct filter, kept until products, stock, reviews or orders change here or
   * elsewhere (the hot cache's table and shared version), at most HOT_CACHE_MAX_AGE_MS.
   */
  private async listedFacets(query: ListProductsQuery): Promise<ListingFacets> {
    const asked = query.facets ?? [];
    const wanted = (facet: ListFacet) => asked.includes(facet);
    const [categories, brands] = await Promise.all([
      wanted('category')
        ? this.facetCounts(
            this.listFilter({ ...query, category: undefined, subCategory: undefined }),
            '$category',
          )
        : undefined,
      wanted('brand')
        ? this.facetCounts(this.listFilter({ ...query, brand: undefined }), '$brand')
        : undefined,
    ]);
    const brandTally: BrandTally | undefined = brands && new Map();
    if (brands && brandTally) for (const [name, count] of brands) tallyBrand(brandTally, name, count);
    return facetsOf(asked, categories, brandTally, query.brand);
  }

  /** Active products of a filter grouped by one field's value (kept as `listedFacets` says). */
  private async facetCounts(filter: FilterQuery<Product>, field: '$category' | '$brand'): Promise<RawFacets> {
    const key = `${field}:${filterKey(filter)}`;
    const ttl = this.config.hotCacheTtlMs ?? 0;
    const started = Date.now();
    const kept = ttl > 0 ? this.facetCache.get(key) : undefined;
    if (kept && kept.expires > started) return kept.value;
    const generation = this.facetGeneration;
    const groups = await this.products
      .aggregate<{ _id: string | null; n: number }>([
        { $match: filter },
        { $group: { _id: field, n: { $sum: 1 } } },
      ])
      .exec();
    const value: RawFacets = new Map();
    for (const group of groups) if (typeof group._id === 'string') value.set(group._id, group.n);
    if (ttl > 0 && generation === this.facetGeneration) {
      if (this.facetCache.size >= MAX_FACET_ENTRIES)
        this.facetCache.delete(this.facetCache.keys().next().value as string);
      this.facetCache.set(key, { value, expires: started + (this.config.hotCacheMaxAgeMs ?? 60000) });
    }
    return value;
  }

  /** The facet counts of a search's matches (each facet over the matches of the other filters). */
  private hitFacets(found: Matches, query: ListProductsQuery): ListingFacets {
    const asked = query.facets ?? [];
    let categories: Map<string, number> | undefined;
    let brands: BrandTally | undefined;
    if (asked.includes('category')) {
      categories = new Map();
      for (const facts of factsOf(
        filterMatches(found, { ...query, category: undefined, subCategory: undefined }),
      )) {
        const category = facts.category;
        if (category) categories.set(category, (categories.get(category) ?? 0) + 1);
      }
    }
    if (asked.includes('brand')) {
      brands = new Map();
      for (const facts of factsOf(filterMatches(found, { ...query, brand: undefined })))
        tallyBrand(brands, facts.brand, 1);
    }
    return facetsOf(asked, categories, brands, query.brand);
  }

  /**
   * A listing with a search: the products matching it from the search index (most relevant first,
   * or in the sort asked for), filtered there from its facts, counted, and the page's products as the
   * index's cards list them (docs/decisions/0101-search-speed-2.md): read from the database by id only
   * when their card is not kept (active ones only: a product withdrawn a moment ago is left out).
   */
  private async searchJson(query: ListProductsQuery): Promise<string> {
    const page = query.page ?? 1;
    const limit = query.limit;
    await this.search.currentFor(query.search ?? '');
    // the matches' arrays are lent until the next search: read before anything is awaited
    const found: SearchResult | null = this.search.searchNow(query.search ?? '');
    const matching = found ? filterMatches(found, query) : undefined;
    const total = matching?.docs.length ?? 0;
    const facets = query.facets?.length ? this.hitFacets(found ?? NO_MATCHES, query) : undefined;
    const pageIds = matching ? pageOf(matching, page, limit, query.sort).map((facts) => facts.id) : [];
    if (!pageIds.length) return pageJson([], total, limit, page, facets);
    return pageJson(await this.searchPageParts(pageIds), total, limit, page, facets);
  }

  /**
   * The JSON of a search page's products, in order: their cards (search-cards.ts), and for those
   * without one, the products read from the database by id (whole documents, active ones only), whose
   * cards are then kept. With the hot cache off, every page reads ids and stamps as the listing does.
   */
  private async searchPageParts(pageIds: readonly string[]): Promise<(string | undefined)[]> {
    const cards = this.search.cards;
    if (!cards.enabled) {
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
      return this.pageJsonParts(listed);
    }
    const now = Date.now();
    const shopNow = shopClock.nowMs();
    const parts = pageIds.map((id) => cards.get(id, now, shopNow));
    if (!parts.includes(undefined)) return parts;
    const missing = pageIds.filter((_id, i) => parts[i] === undefined);
    const mark = cards.mark();
    const docs = await this.findBatch<CatalogProduct>({
      filter: { _id: { $in: missing.map((id) => new Types.ObjectId(id)) }, active: true },
      limit: missing.length,
      projection: HIDDEN_PRODUCT_FIELDS,
    });
    const read = new Map(docs.map((doc) => [doc._id.toHexString(), doc]));
    for (let i = 0; i < pageIds.length; i++) {
      if (parts[i] !== undefined) continue;
      const id = pageIds[i];
      const doc = read.get(id);
      if (!doc) {
        this.search.forget(id); // withdrawn or gone: the index hears of it at its next read anyway
        continue;
      }
      const json = JSON.stringify(toProductView(doc, this.origin));
      cards.keep(id, json, doc.sales, mark, now, shopNow);
      parts[i] = json;
    }
    return parts;
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
