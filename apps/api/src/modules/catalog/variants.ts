import { parseAmount, toBirr, type Santim } from '@shop/shared';
import { Types } from 'mongoose';
import { ConflictError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { salePriceFields, type ProductSale } from './sale-price';

/**
 * Product variants (docs/decisions/0098-product-variants.md): options such as a size or a shade,
 * and one variant per combination with its own SKU, price, compare-at price, stock and images. The
 * product keeps `stock` = the sum of its variants' and `priceSantim` = its default variant's, written
 * in the same update, so listings, facets and sorts work unchanged.
 */

export const OPTION_KINDS = ['size', 'shade', 'other'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

export interface ProductOption {
  name: string;
  nameAm?: string;
  kind: OptionKind;
  values: string[];
}

export interface ProductVariant {
  _id: Types.ObjectId;
  sku: string;
  options: Record<string, string>;
  priceSantim: Santim;
  originalPriceSantim?: Santim;
  stock: number;
  lowStockThreshold?: number;
  images?: string[];
  swatch?: string;
}

/** What a variant's price and view need of its product. */
export interface VariantsOwner {
  name?: string;
  lowStockThreshold?: number;
  sales?: readonly ProductSale[] | null;
  options?: ProductOption[] | null;
  variants?: ProductVariant[] | null;
}

export const VARIANT_NOT_FOUND = 'Variant not found';
const MAX_OPTIONS = 3;
const MAX_VALUES = 20;
const MAX_VARIANTS = 50;
const MAX_PRICE_SANTIM = 10_000_000 * 100;
const OPTION_NAME = /^[\p{L}\p{M}\p{N} ]{1,30}$/u;
const SWATCH = /^#[0-9a-fA-F]{6}$/;
const IMAGE_URL = /^(https?:\/\/[^\s"'<>]+|\/api\/(uploads|assets)\/[\w./-]+)$/i;
/** Fields of a variant as answered that a form may send back: never written (like READ_ONLY_PRODUCT_FIELDS). */
const READ_ONLY_VARIANT_FIELDS = new Set(['id', 'compareAtPrice', 'promotion', 'discount']);

/** The default variant: the first (in the staff's order) with stock, else the first. */
export function defaultVariantOf<V extends { stock: number }>(variants: readonly V[]): V | undefined {
  return variants.find((v) => v.stock > 0) ?? variants[0];
}

export function hasVariants(doc: { variants?: readonly unknown[] | null }): boolean {
  return Array.isArray(doc.variants) && doc.variants.length > 0;
}

/** A variant of the product by id (a string or ObjectId); undefined when it has none such. */
export function variantOf(
  doc: { variants?: readonly ProductVariant[] | null },
  id: Types.ObjectId | string | undefined | null,
): ProductVariant | undefined {
  if (id == null) return undefined;
  const key = String(id);
  return doc.variants?.find((v) => String(v._id) === key);
}

/** "30 ml", "Ruby / Matte": the variant's option values in the product's option order. */
export function variantLabel(doc: VariantsOwner, variant: Pick<ProductVariant, 'options'>): string {
  const names = doc.options?.map((o) => o.name) ?? Object.keys(variant.options ?? {});
  return names
    .map((n) => variant.options?.[n])
    .filter(Boolean)
    .join(' / ');
}

/** "Velvet Lipstick — Ruby": how refusals and notices name a variant line. */
export function variantName(doc: VariantsOwner & { name: string }, variant?: ProductVariant): string {
  if (!variant) return doc.name;
  const label = variantLabel(doc, variant);
  return label ? `${doc.name} — ${label}` : doc.name;
}

/**
 * A variant standing in for its product where stock is told (the low-stock alert, the order's reserved
 * lines): "Name — 30 ml" in both languages, the variant's SKU, price, stock and threshold.
 */
export function variantAsProduct<
  P extends VariantsOwner & { _id: unknown; name: string; nameAm?: string; active?: boolean },
>(product: P, variant: ProductVariant) {
  return {
    _id: product._id,
    name: variantName(product, variant),
    ...(product.nameAm
      ? { nameAm: `${product.nameAm} — ${Object.values(variant.options).join(' / ')}` }
      : {}),
    sku: variant.sku,
    priceSantim: variant.priceSantim,
    stock: variant.stock,
    lowStockThreshold: variant.lowStockThreshold ?? product.lowStockThreshold,
    active: product.active,
  };
}

/** The variant's regular price with the product's sales: what the sale rule reads. */
export function variantPriceDoc(doc: VariantsOwner, variant: ProductVariant) {
  return {
    priceSantim: variant.priceSantim,
    originalPriceSantim: variant.originalPriceSantim,
    sales: doc.sales,
  };
}

/** The variant as answered: ETB prices (a running sale applies as on the product), countInStock. */
export function toVariantView(doc: VariantsOwner, variant: ProductVariant): Record<string, unknown> {
  const fields = salePriceFields(variantPriceDoc(doc, variant));
  const originalPrice =
    fields.originalPrice ??
    (variant.originalPriceSantim != null ? toBirr(variant.originalPriceSantim) : undefined);
  return {
    _id: String(variant._id),
    sku: variant.sku,
    options: { ...variant.options },
    price: fields.price,
    ...(originalPrice !== undefined ? { originalPrice } : {}),
    ...(fields.compareAtPrice !== undefined ? { compareAtPrice: fields.compareAtPrice } : {}),
    ...(fields.promotion ? { promotion: fields.promotion } : {}),
    countInStock: variant.stock,
    lowStockThreshold: variant.lowStockThreshold ?? doc.lowStockThreshold ?? 5,
    images: variant.images ?? [],
    ...(variant.swatch ? { swatch: variant.swatch } : {}),
  };
}

// ---- The form ----

function invalid(field: string, message: string): InvalidDataError {
  return new InvalidDataError(
    'The options or variants are not valid',
    [{ field, message, code: 'INVALID_VARIANTS' }],
    'INVALID_VARIANTS',
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function text(value: unknown, field: string, max: number, required = true): string | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) throw invalid(field, `${field} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw invalid(field, `${field} must be text`);
  const trimmed = value.trim();
  if (!trimmed && required) throw invalid(field, `${field} is required`);
  if (trimmed.length > max) throw invalid(field, `${field} must be at most ${max} characters`);
  return trimmed || undefined;
}

function count(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 1_000_000)
    throw invalid(field, `${field} must be a whole number from 0 to 1000000`);
  return value;
}

function amount(value: unknown, field: string): Santim {
  const santim = parseAmount(value);
  if (santim === null || santim <= 0 || santim > MAX_PRICE_SANTIM)
    throw invalid(field, `${field} must be an amount in ETB above 0 with at most two decimals`);
  return santim;
}

/** The options of a form: 1..3, names unique, 1..20 unique values each. */
export function parseOptions(raw: unknown): ProductOption[] {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_OPTIONS)
    throw invalid('options', `options must be a list of 1 to ${MAX_OPTIONS} options`);
  const names = new Set<string>();
  return raw.map((item, i) => {
    const field = `options.${i}`;
    if (!isObject(item)) throw invalid(field, `${field} must be an object`);
    const name = text(item.name, `${field}.name`, 30)!;
    if (!OPTION_NAME.test(name))
      throw invalid(`${field}.name`, 'an option name is letters, digits and spaces');
    if (names.has(name.toLowerCase())) throw invalid(`${field}.name`, `option ${name} is named twice`);
    names.add(name.toLowerCase());
    const nameAm = text(item.nameAm, `${field}.nameAm`, 30, false);
    const kind = item.kind ?? 'other';
    if (!OPTION_KINDS.includes(kind as OptionKind))
      throw invalid(`${field}.kind`, `kind must be one of ${OPTION_KINDS.join(', ')}`);
    if (!Array.isArray(item.values) || item.values.length < 1 || item.values.length > MAX_VALUES)
      throw invalid(`${field}.values`, `values must be a list of 1 to ${MAX_VALUES} values`);
    const values = item.values.map((v, j) => text(v, `${field}.values.${j}`, 40)!);
    if (new Set(values).size !== values.length)
      throw invalid(`${field}.values`, `the values of option ${name} must differ`);
    return { name, ...(nameAm ? { nameAm } : {}), kind: kind as OptionKind, values };
  });
}

/**
 * The variants of a form, checked against their options and made ready to store: a variant sent
 * with the `_id` of one of the stored variants keeps it (its price as answered during a sale stands
 * for the stored regular price, as on the product); without `_id` it is new. `stock` or its mirror
 * `countInStock` (the one that changed wins, as on the product). Bad input: 400 INVALID_VARIANTS,
 * DUPLICATE_VARIANT, INVALID_COMPARE_AT_PRICE; a SKU twice in the form: 409 DUPLICATE_SKU.
 */
export function parseVariants(
  raw: unknown,
  options: ProductOption[],
  stored?: VariantsOwner,
): ProductVariant[] {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_VARIANTS)
    throw invalid('variants', `variants must be a list of 1 to ${MAX_VARIANTS} variants`);
  const skus = new Set<string>();
  const combos = new Set<string>();
  const ids = new Set<string>();
  return raw.map((item, i) => {
    const field = `variants.${i}`;
    if (!isObject(item)) throw invalid(field, `${field} must be an object`);
    const data = Object.fromEntries(Object.entries(item).filter(([k]) => !READ_ONLY_VARIANT_FIELDS.has(k)));
    let before: ProductVariant | undefined;
    if (data._id !== undefined && data._id !== null && data._id !== '') {
      before = stored ? variantOf(stored, String(data._id)) : undefined;
      if (!before) throw invalid(`${field}._id`, `variant ${String(data._id)} is not one of this product's`);
      if (ids.has(String(before._id))) throw invalid(`${field}._id`, 'a variant is sent twice');
      ids.add(String(before._id));
    }
    const sku = text(data.sku, `${field}.sku`, 64)!;
    if (skus.has(sku.toLowerCase()))
      throw new ConflictError(`The SKU ${sku} is given to two variants`, 'DUPLICATE_SKU', { sku });
    skus.add(sku.toLowerCase());
    if (!isObject(data.options))
      throw invalid(`${field}.options`, 'options must name a value of every option');
    const chosen: Record<string, string> = {};
    for (const option of options) {
      const value = data.options[option.name];
      if (typeof value !== 'string' || !option.values.includes(value))
        throw invalid(
          `${field}.options.${option.name}`,
          `${option.name} must be one of ${option.values.join(', ')}`,
        );
      chosen[option.name] = value;
    }
    if (Object.keys(data.options).length !== options.length)
      throw invalid(`${field}.options`, 'options name only the product options');
    const combo = JSON.stringify(options.map((o) => chosen[o.name]));
    if (combos.has(combo)) {
      const label = options.map((o) => chosen[o.name]).join(' / ');
      throw new InvalidDataError(
        `Two variants are ${label}`,
        [{ field: `${field}.options`, message: `another variant is ${label}`, code: 'DUPLICATE_VARIANT' }],
        'DUPLICATE_VARIANT',
        { variant: label },
      );
    }
    combos.add(combo);
    let priceSantim = amount(data.price, `${field}.price`);
    let originalPriceSantim =
      data.originalPrice === undefined || data.originalPrice === null
        ? undefined
        : amount(data.originalPrice, `${field}.originalPrice`);
    if (before && stored?.sales?.length) {
      // the answer during a sale, sent back unchanged: the stored regular and compare-at prices
      const answered = salePriceFields(variantPriceDoc(stored, before));
      if (answered.promotion && toBirr(priceSantim) === answered.price) {
        priceSantim = before.priceSantim;
        if (originalPriceSantim !== undefined && toBirr(originalPriceSantim) === answered.originalPrice)
          originalPriceSantim = before.originalPriceSantim;
      }
    }
    if (originalPriceSantim !== undefined && originalPriceSantim < priceSantim) {
      const params = { price: toBirr(priceSantim) };
      throw new InvalidDataError(
        'A compare-at price cannot be below the price',
        [
          {
            field: `${field}.originalPrice`,
            message: 'originalPrice must not be below price',
            code: 'INVALID_COMPARE_AT_PRICE',
          },
        ],
        'INVALID_COMPARE_AT_PRICE',
        params,
      );
    }
    // stock or its mirror countInStock: the one that changed wins
    let stockValue = data.stock ?? data.countInStock;
    if (data.stock !== undefined && data.countInStock !== undefined && data.stock !== data.countInStock)
      stockValue = before && data.stock !== before.stock ? data.stock : data.countInStock;
    if (stockValue === undefined) throw invalid(`${field}.stock`, 'stock is required');
    const stock = count(stockValue, `${field}.stock`);
    let lowStockThreshold =
      data.lowStockThreshold === undefined || data.lowStockThreshold === null
        ? undefined
        : count(data.lowStockThreshold, `${field}.lowStockThreshold`);
    // the product's threshold as answered for a variant without its own: still none of its own
    if (
      before &&
      before.lowStockThreshold === undefined &&
      lowStockThreshold === (stored?.lowStockThreshold ?? 5)
    )
      lowStockThreshold = undefined;
    let images: string[] | undefined;
    if (data.images !== undefined && data.images !== null) {
      if (!Array.isArray(data.images) || data.images.length > 10)
        throw invalid(`${field}.images`, 'images must be a list of at most 10 image paths');
      images = data.images.map((url, j) => {
        if (typeof url !== 'string' || url.length > 500 || !IMAGE_URL.test(url))
          throw invalid(`${field}.images.${j}`, 'images must be http(s) URLs or /api/uploads/... paths');
        return url;
      });
    }
    let swatch: string | undefined;
    if (data.swatch !== undefined && data.swatch !== null && data.swatch !== '') {
      if (typeof data.swatch !== 'string' || !SWATCH.test(data.swatch))
        throw invalid(`${field}.swatch`, 'swatch must be a colour #rrggbb');
      swatch = data.swatch.toLowerCase();
    }
    return {
      _id: before?._id ?? new Types.ObjectId(),
      sku,
      options: chosen,
      priceSantim,
      ...(originalPriceSantim !== undefined ? { originalPriceSantim } : {}),
      stock,
      ...(lowStockThreshold !== undefined ? { lowStockThreshold } : {}),
      ...(images?.length ? { images } : {}),
      ...(swatch ? { swatch } : {}),
    };
  });
}

/** The product fields its variants decide: stock = their sum, price (and compare-at) = the default's. */
export function productFieldsOf(variants: readonly ProductVariant[]): {
  stock: number;
  priceSantim: Santim;
  originalPriceSantim?: Santim;
} {
  const chosen = defaultVariantOf(variants)!;
  return {
    stock: variants.reduce((sum, v) => sum + v.stock, 0),
    priceSantim: chosen.priceSantim,
    ...(chosen.originalPriceSantim !== undefined && chosen.originalPriceSantim > chosen.priceSantim
      ? { originalPriceSantim: chosen.originalPriceSantim }
      : {}),
  };
}

/**
 * The variant of a cart request: the one named (404 VARIANT_NOT_FOUND when it is not this product's,
 * or the product has none), else the default variant of a product with variants, else none.
 */
export function chosenVariant(
  doc: { variants?: ProductVariant[] | null },
  variantId?: string | null,
): ProductVariant | undefined {
  if (variantId) {
    const found = Types.ObjectId.isValid(variantId) ? variantOf(doc, variantId) : undefined;
    if (!found) throw new NotFoundError(VARIANT_NOT_FOUND, 'VARIANT_NOT_FOUND');
    return found;
  }
  return hasVariants(doc) ? defaultVariantOf(doc.variants!) : undefined;
}
