import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CATEGORY_SLUGS, CURRENCIES, SUB_CATEGORY_SLUGS, discountPercent, toBirr } from '@shop/shared';
import { absoluteImageUrl, absoluteImageUrls } from '../../../common/absolute-urls.interceptor';
import { Schema as MongooseSchema } from 'mongoose';
import { salePriceFields, type ProductSale } from '../sale-price';
import {
  OPTION_KINDS,
  defaultVariantOf,
  toVariantView,
  type ProductOption,
  type ProductVariant,
} from '../variants';

/** A stored product never holds null where a value or nothing is meant (e.g. a null category). */
const NOT_NULL = { validator: (value: unknown) => value !== null, message: '{PATH} must not be null' };

/** A product for sale. Money is stored in integer santim and exposed in ETB by toJSON. */
@Schema({ timestamps: true, collection: 'products' })
export class Product {
  @Prop({ required: true, trim: true, maxlength: 200 })
  name!: string;

  /** Stock-keeping unit; unique when present. */
  @Prop({ trim: true, maxlength: 64 })
  sku?: string;

  @Prop({ trim: true, maxlength: 200 })
  nameAm?: string;

  @Prop({ trim: true, maxlength: 100, default: '', validate: NOT_NULL })
  brand!: string;

  @Prop({ default: '', maxlength: 5000 })
  description!: string;

  @Prop({ maxlength: 5000 })
  descriptionAm?: string;

  @Prop({ maxlength: 20000 })
  richDescription?: string;

  @Prop({ type: [String], default: [] })
  ingredients!: string[];

  @Prop({ type: [String], default: [] })
  keyIngredients!: string[];

  @Prop({ type: [String], default: [] })
  benefits!: string[];

  /** Amharic ingredients and benefits (the storefront shows them in Amharic, falling back to English). */
  @Prop({ type: [String], default: undefined })
  ingredientsAm?: string[];

  @Prop({ type: [String], default: undefined })
  benefitsAm?: string[];

  @Prop({ required: true, min: 0 })
  priceSantim!: number;

  @Prop({ min: 0 })
  originalPriceSantim?: number;

  @Prop({ enum: CURRENCIES, default: 'ETB', validate: NOT_NULL })
  currency!: string;

  @Prop({ type: [String], default: [] })
  images!: string[];

  @Prop({ required: true, min: 0, default: 0 })
  stock!: number;

  @Prop({ min: 0, default: 5 })
  lowStockThreshold!: number;

  @Prop({ min: 0 })
  restockThreshold?: number;

  @Prop()
  lastRestockDate?: Date;

  @Prop()
  promotionId?: string;

  /** Scheduled sales for this product (docs/decisions/0095), written by the promotions module only. */
  @Prop({
    type: [
      {
        _id: false,
        promotion: String,
        kind: String,
        value: Number,
        startsAt: Date,
        endsAt: Date,
        nameEn: String,
        nameAm: String,
      },
    ],
    default: undefined,
  })
  sales?: ProductSale[];

  /** Options such as a size or a shade (docs/decisions/0098-product-variants.md); none without variants. */
  @Prop({
    type: [
      {
        _id: false,
        name: { type: String, required: true },
        nameAm: String,
        kind: { type: String, enum: OPTION_KINDS, required: true },
        values: { type: [String], required: true },
      },
    ],
    default: undefined,
  })
  options?: ProductOption[];

  /**
   * One variant per combination of option values, in the staff's order; the product's `stock` is
   * their sum and its `priceSantim` the default variant's, written in the same update.
   */
  @Prop({
    type: [
      new MongooseSchema(
        {
          sku: { type: String, required: true, trim: true, maxlength: 64 },
          options: { type: MongooseSchema.Types.Mixed, required: true },
          priceSantim: { type: Number, required: true, min: 1 },
          originalPriceSantim: { type: Number, min: 0 },
          stock: { type: Number, required: true, min: 0 },
          lowStockThreshold: { type: Number, min: 0 },
          images: { type: [String], default: undefined },
          swatch: String,
        },
        { _id: true, minimize: false },
      ),
    ],
    default: undefined,
  })
  variants?: ProductVariant[];

  /** The promotion running now (its id, '' for none): moved at each sale boundary, so caches see a new stamp. */
  @Prop()
  saleNow?: string;

  @Prop({ enum: CATEGORY_SLUGS, validate: NOT_NULL })
  category?: string;

  @Prop({ enum: SUB_CATEGORY_SLUGS })
  subCategory?: string;

  @Prop({ trim: true })
  size?: string;

  @Prop({ type: [String], default: [] })
  skinTypes!: string[];

  @Prop({ default: true })
  active!: boolean;

  @Prop({ default: false })
  isFeatured!: boolean;

  @Prop({ min: 0, max: 5, default: 0 })
  rating!: number;

  @Prop({ min: 0, default: 0 })
  reviewCount!: number;

  /** Lower-cased distinct words of the searchable fields (see search-terms.ts); never sent to clients. */
  @Prop({ type: [String], default: undefined, select: false })
  searchTerms?: string[];

  createdAt!: Date;
  updatedAt!: Date;
}

export const ProductSchema = SchemaFactory.createForClass(Product);

// Each listing sort has an index whose keys are exactly `active` (+ category) and the sort, tie-break
// included, so a page of the catalogue is read in order from the index instead of sorting 100,000 documents.
ProductSchema.index({ active: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 }); // featured (default)
ProductSchema.index({ active: 1, category: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 });
ProductSchema.index({ active: 1, priceSantim: 1, _id: 1 }); // price_asc, price_desc (reversed), price range
ProductSchema.index({ active: 1, category: 1, priceSantim: 1, _id: 1 });
ProductSchema.index({ active: 1, reviewCount: -1, rating: -1, _id: 1 }); // reviews
ProductSchema.index({ active: 1, category: 1, reviewCount: -1, rating: -1, _id: 1 });
ProductSchema.index({ active: 1, createdAt: -1, _id: -1 }); // newest
ProductSchema.index({ active: 1, category: 1, createdAt: -1, _id: -1 });
ProductSchema.index({ active: 1, rating: -1 }); // minRating
ProductSchema.index({ brand: 1 });
// the products a sale targets by category, and those carrying a sale (product-sales.service.ts)
ProductSchema.index({ category: 1 });
ProductSchema.index({ 'sales.promotion': 1 }, { sparse: true });
ProductSchema.index({ saleNow: 1 }, { sparse: true });
ProductSchema.index({ sku: 1 }, { unique: true, sparse: true });
// Variant SKUs: looked up by the SKU check of every product write (unique across product and variant
// SKUs, checked by ProductsService: the embedded engine keeps no multikey unique index, decision 0098)
ProductSchema.index({ 'variants.sku': 1 });
/** The low-stock list's variants (stock.service.ts). */
ProductSchema.index({ 'variants.stock': 1 });
ProductSchema.index({ stock: 1 });
/** Search: one index range scan per query word over the words of name, brand, description and ingredients. */
ProductSchema.index({ searchTerms: 1 });
/** The search index of each API instance reads the products changed since its last read (search-index.ts). */
ProductSchema.index({ updatedAt: 1 });

/** Stored fields never sent: prices in santim are sent in ETB, the search index and the version key. */
const NOT_IN_VIEW = new Set(['priceSantim', 'originalPriceSantim', '__v', 'searchTerms', 'sales', 'saleNow']);

/**
 * The product as the API answers it: ETB prices, `countInStock` mirrored, discount percent. Fields
 * keep the stored document's order (the answer's bytes are what clients and ETags see). With
 * `origin` (PUBLIC_API_URL, for the public catalogue), the API's own image paths in it are made
 * absolute exactly as the AbsoluteUrls interceptor would, in the same pass: the caller then marks
 * the answer `withAbsoluteUrls` so that the interceptor does not walk it again.
 */
export function toProductView(doc: Product & { _id: unknown }, origin?: string): Record<string, unknown> {
  const source = doc as unknown as Record<string, unknown>;
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (NOT_IN_VIEW.has(key)) continue;
    const value = source[key];
    if (key === '_id') view._id = String(value);
    else if (key === 'variants') {
      const variants = (value as ProductVariant[] | undefined) ?? [];
      if (!variants.length) continue;
      const views = variants.map((variant) => toVariantView(doc, variant));
      view.variants = origin === undefined ? views : withAbsoluteImageUrls(views, origin);
    } else if (key === 'options' && !(value as unknown[] | undefined)?.length) continue;
    else if (origin === undefined) view[key] = value;
    else view[key] = withAbsoluteImageUrls(value, origin);
  }
  if (!('_id' in view)) view._id = String(doc._id);
  // price: what the customer pays now (a running sale's price, docs/decisions/0095)
  const fields = salePriceFields(doc);
  const price = fields.price;
  view.price = price;
  const originalPrice =
    fields.originalPrice ?? (doc.originalPriceSantim != null ? toBirr(doc.originalPriceSantim) : undefined);
  if (originalPrice !== undefined) view.originalPrice = originalPrice;
  view.discount = discountPercent(price, originalPrice);
  view.countInStock = doc.stock;
  if (fields.compareAtPrice !== undefined) view.compareAtPrice = fields.compareAtPrice;
  if (fields.promotion) view.promotion = fields.promotion;
  if (doc.variants?.length) view.defaultVariantId = String(defaultVariantOf(doc.variants)!._id);
  return view;
}

/** One field with absolute image URLs: strings and arrays of strings (the usual case) directly, the rest walked. */
function withAbsoluteImageUrls(value: unknown, origin: string): unknown {
  if (typeof value === 'string') return absoluteImageUrl(value, origin);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return value.map((item: string) => absoluteImageUrl(item, origin));
  return absoluteImageUrls(value, origin);
}
