import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CATEGORY_SLUGS, CURRENCIES, SUB_CATEGORY_SLUGS, discountPercent, toBirr } from '@shop/shared';
import { HydratedDocument } from 'mongoose';

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

export type ProductDocument = HydratedDocument<Product>;
export const ProductSchema = SchemaFactory.createForClass(Product);

// Each listing sort has an index whose keys are exactly `active` (+ category) and the sort, tie-break
// included, so a page of the catalogue is read in order from the index instead of sorting 100,000 documents.
ProductSchema.index({ active: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 }); // featured (default)
ProductSchema.index({ active: 1, category: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 });
ProductSchema.index({ active: 1, priceSantim: 1, _id: 1 }); // price_asc, price_desc (reversed), price range
ProductSchema.index({ active: 1, category: 1, priceSantim: 1, _id: 1 });
ProductSchema.index({ active: 1, reviewCount: -1, rating: -1, _id: 1 }); // reviews
ProductSchema.index({ active: 1, createdAt: -1, _id: -1 }); // newest
ProductSchema.index({ active: 1, rating: -1 }); // minRating
ProductSchema.index({ brand: 1 });
ProductSchema.index({ sku: 1 }, { unique: true, sparse: true });
ProductSchema.index({ stock: 1 });
/** Search: one index range scan per query word over the words of name, brand, description and ingredients. */
ProductSchema.index({ searchTerms: 1 });

/** The product as the API answers it: ETB prices, `countInStock` mirrored, discount percent. */
export function toProductView(doc: Product & { _id: unknown }): Record<string, unknown> {
  const { priceSantim, originalPriceSantim, ...rest } = doc as Product & { _id: unknown; __v?: number };
  delete (rest as { __v?: number }).__v;
  delete (rest as { searchTerms?: string[] }).searchTerms;
  const price = toBirr(priceSantim);
  const originalPrice = originalPriceSantim != null ? toBirr(originalPriceSantim) : undefined;
  return {
    ...rest,
    _id: String(doc._id),
    price,
    ...(originalPrice !== undefined ? { originalPrice } : {}),
    discount: discountPercent(price, originalPrice),
    countInStock: doc.stock,
  };
}
