import type { ClientSession, Types } from 'mongoose';
import type { Product } from './schemas/product.schema';
import type { ProductVariant } from './variants';

export const PRODUCT_NOT_FOUND = 'Product not found';

/** A stored product as the catalogue hands it to other modules (read-only for them). */
export type CatalogProduct = Product & { _id: Types.ObjectId };

/** Fields the schema keeps out of reads (`select: false`), which reads through the collection leave out too. */
export const HIDDEN_PRODUCT_FIELDS = { searchTerms: 0 } as const;

/** A projection as Mongoose would send it for the product schema: an inclusion stays, anything else hides the hidden fields. */
export function withHiddenFieldsOmitted(projection?: Record<string, 0 | 1>): Record<string, 0 | 1> {
  const inclusive = Object.entries(projection ?? {}).some(([field, v]) => v === 1 && field !== '_id');
  return inclusive ? projection! : { ...projection, ...HIDDEN_PRODUCT_FIELDS };
}

/** A value of a listing facet (a category slug, a brand's name) and its active products. */
export interface FacetCount {
  value: string;
  count: number;
}

/** The counts a listing adds when asked (`facets=category,brand`; docs/decisions/0091-catalogue-facets.md). */
export interface ListingFacets {
  category?: FacetCount[];
  brand?: FacetCount[];
}

/** Brands a listing's counts name at most (most products first; the brands asked for are always named). */
export const FACET_BRANDS = 50;

/** A quantity of one product (and variant: docs/decisions/0098-product-variants.md), as carts and orders hold it. */
export interface StockLine {
  product: Types.ObjectId;
  variant?: Types.ObjectId;
  quantity: number;
}

/** What an order keeps of a reserved product (its line, its price, the low-stock alert), as the reservation read it. */
export const RESERVED_FIELDS = {
  name: 1,
  nameAm: 1,
  sku: 1,
  images: 1,
  priceSantim: 1,
  sales: 1,
  stock: 1,
  lowStockThreshold: 1,
  active: 1,
  options: 1,
  variants: 1,
} as const;
export type ReservedProduct = Pick<CatalogProduct, '_id' | keyof typeof RESERVED_FIELDS>;

export interface Reservation {
  product: ReservedProduct;
  /** The variant reserved, as the reservation left it (its stock after). */
  variant?: ProductVariant;
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
 * Other modules register one with `StockService.onProductChange` (the wishlist's notices) and write
 * through the given session, so their effects commit or roll back with the change.
 */
export type ProductChangeListener = (change: ProductChange, session: ClientSession) => Promise<void>;

/** The back office's stock states: out (none), low (1 to LOW_STOCK_THRESHOLD), in (more). */
export const STOCK_STATES = ['out', 'low', 'in'] as const;

/** The back office's product list filter, as the admin module parsed it. */
export interface AdminProductFilter {
  /** Text in the name, Amharic name, brand or SKU. */
  q?: string;
  categories?: string[];
  active?: boolean;
  isFeatured?: boolean;
  /** At or below the low-stock threshold. */
  lowStock?: boolean;
  stockState?: (typeof STOCK_STATES)[number];
}
