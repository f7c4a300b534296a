import { discountPercent, SUB_CATEGORIES } from '@shop/shared';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The compare-at price's refusal as the API answers it (COMPARE_AT_NOT_ABOVE_PRICE, docs/decisions/0082):
 * a compare-at price, when given, must be higher than the price. Undefined when there is nothing to say.
 */
export function compareAtError(
  compareAt: unknown,
  price: unknown,
): { message: string; args: { price: number } } | undefined {
  if (blank(compareAt) || blank(price)) return undefined;
  const c = Number(compareAt);
  const p = Number(price);
  if (!Number.isFinite(c) || !Number.isFinite(p) || c > p) return undefined;
  return { message: 'shop.errors.COMPARE_AT_NOT_ABOVE_PRICE', args: { price: p } };
}

/** The discount the storefront's badge shows for a price and a compare-at price (0: no badge). */
export function discountShown(price: unknown, compareAt: unknown): number {
  if (blank(price) || blank(compareAt) || compareAtError(compareAt, price)) return 0;
  return discountPercent(Number(price), Number(compareAt));
}

/** The sub-categories of a category, named in the page's language (all of them without a category). */
export function subCategoryChoices(category: unknown, lang: string): { id: string; name: string }[] {
  return SUB_CATEGORIES.filter((s) => !category || s.category === category).map((s) => ({
    id: s.slug,
    name: lang === 'am' ? s.name.am : s.name.en,
  }));
}

/** SUB_CATEGORY_NOT_IN_CATEGORY before the API says it: a sub-category of another category. */
export function subCategoryError(subCategory: unknown, category: unknown): string | undefined {
  if (blank(subCategory) || blank(category)) return undefined;
  const sub = SUB_CATEGORIES.find((s) => s.slug === subCategory);
  return sub && sub.category !== category ? 'shop.errors.SUB_CATEGORY_NOT_IN_CATEGORY' : undefined;
}

// ---- Variants (issue 30.3, docs/product.md "Variants") ----

export type OptionKind = 'size' | 'shade' | 'other';
export const OPTION_KINDS: readonly OptionKind[] = ['size', 'shade', 'other'];
/** The API's limits (docs/product.md): 1..3 options, 1..20 values each, 1..50 variants. */
export const MAX_OPTIONS = 3;
export const MAX_VALUES = 20;
export const MAX_VARIANTS = 50;

/** An option as the API answers and takes it. */
export interface ApiOption {
  name: string;
  nameAm?: string;
  kind: OptionKind;
  values: string[];
}

/** A variant as the API answers it (prices in ETB; read-only fields such as compareAtPrice/promotion ignored). */
export interface ApiVariant {
  _id?: string;
  sku: string;
  options: Record<string, string>;
  price: number;
  originalPrice?: number | null;
  countInStock?: number;
  stock?: number;
  lowStockThreshold?: number | null;
  images?: string[];
  swatch?: string | null;
}

/** An option in the form: the values as a list (edited as text, see splitValues). */
export interface OptionForm {
  name: string;
  nameAm: string;
  kind: OptionKind;
  values: string[];
}

/**
 * A variant row in the form: its chosen values aligned with the form's options (index k is the value of
 * option k), so renaming an option keeps every row's choice. Empty number inputs are null.
 */
export interface VariantForm {
  _id?: string;
  sku: string;
  values: string[];
  price: number | null;
  originalPrice: number | null;
  stock: number | null;
  lowStockThreshold: number | null;
  images: string[];
  swatch: string;
}

const num = (v: unknown): number | null => (blank(v) || !Number.isFinite(Number(v)) ? null : Number(v));

/** An option's values typed as text: separated by commas (Latin or Ethiopic ፣) or lines, trimmed, blanks dropped. */
export function splitValues(text: string): string[] {
  return text
    .split(/[,፣\n]/)
    .map((v) => v.trim())
    .filter(Boolean);
}

export const joinValues = (values: readonly string[] | undefined): string => (values ?? []).join(', ');

/** A new, empty variant row for these options. */
export const emptyVariant = (optionCount: number): VariantForm => ({
  sku: '',
  values: Array.from({ length: optionCount }, () => ''),
  price: null,
  originalPrice: null,
  stock: 0,
  lowStockThreshold: null,
  images: [],
  swatch: '',
});

/**
 * The form's values from a product record as the API answers it: `options` and `variants` in the form's
 * shape (empty lists for a product without variants); every other field unchanged.
 */
export function productToForm<T extends Record<string, unknown>>(
  record: T,
): Omit<T, 'options' | 'variants'> & { options: OptionForm[]; variants: VariantForm[] } {
  const apiOptions = (Array.isArray(record.options) ? record.options : []) as ApiOption[];
  const apiVariants = (Array.isArray(record.variants) ? record.variants : []) as ApiVariant[];
  const options: OptionForm[] = apiOptions.map((o) => ({
    name: o.name,
    nameAm: o.nameAm ?? '',
    kind: o.kind,
    values: [...(o.values ?? [])],
  }));
  const variants: VariantForm[] = apiVariants.map((v) => ({
    ...(v._id ? { _id: String(v._id) } : {}),
    sku: v.sku ?? '',
    values: options.map((o) => v.options?.[o.name] ?? ''),
    price: num(v.price),
    originalPrice: num(v.originalPrice),
    stock: num(v.countInStock ?? v.stock),
    lowStockThreshold: num(v.lowStockThreshold),
    images: [...(v.images ?? [])],
    swatch: v.swatch ?? '',
  }));
  return { ...record, options, variants };
}

/** The default variant (docs/product.md): the first with stock, else the first. */
export function defaultVariant<V extends { stock: number | null }>(variants: readonly V[]): V | undefined {
  return variants.find((v) => Number(v.stock ?? 0) > 0) ?? variants[0];
}

/** The product's stock when it has variants: the sum of theirs (the API keeps it so). */
export const stockSum = (variants: readonly { stock: number | null }[]): number =>
  variants.reduce((sum, v) => sum + Math.max(0, Number(v.stock ?? 0) || 0), 0);

/**
 * The variant part of what the form sends (POST/PUT /api/admin/products): `options` and `variants` in the
 * API's shape, with the product's own `stock` (the sum), `price` and compare-at price (the default
 * variant's) so the product's figures agree with its variants. A product without variants sends none of
 * these keys (exactly as before variants existed), unless it had variants (`defaultVariantId` answered):
 * then empty lists remove them.
 */
export function variantsPayload(data: Record<string, unknown>): Record<string, unknown> {
  const options = (Array.isArray(data.options) ? data.options : []) as OptionForm[];
  const variants = (Array.isArray(data.variants) ? data.variants : []) as VariantForm[];
  if (!variants.length) return data.defaultVariantId ? { options: [], variants: [] } : {};
  const apiOptions: ApiOption[] = options.map((o) => ({
    name: o.name.trim(),
    ...(o.nameAm?.trim() ? { nameAm: o.nameAm.trim() } : {}),
    kind: o.kind,
    values: o.values.map((v) => v.trim()).filter(Boolean),
  }));
  const apiVariants = variants.map((v) => {
    const out: Record<string, unknown> = {
      ...(v._id ? { _id: v._id } : {}),
      sku: v.sku.trim(),
      options: Object.fromEntries(apiOptions.map((o, k) => [o.name, v.values[k] ?? ''])),
      price: Number(v.price),
      stock: Number(v.stock ?? 0),
      images: (v.images ?? []).filter((u) => typeof u === 'string' && u.trim()),
    };
    if (v.originalPrice != null) out.originalPrice = Number(v.originalPrice);
    if (v.lowStockThreshold != null) out.lowStockThreshold = Number(v.lowStockThreshold);
    if (v.swatch) out.swatch = v.swatch;
    return out;
  });
  const first = defaultVariant(variants)!;
  return {
    options: apiOptions,
    variants: apiVariants,
    stock: stockSum(variants),
    price: Number(first.price),
    originalPrice: first.originalPrice == null ? null : Number(first.originalPrice),
  };
}

/** A refusal's text key with its params (react-admin validators answer this shape). */
export interface FieldMessage {
  message: string;
  args: Record<string, unknown>;
}

const V = 'shop.admin.products.variants';

/**
 * The variant editor's refusals before the API says them (its INVALID_VARIANTS, DUPLICATE_VARIANT,
 * DUPLICATE_SKU within the product, INVALID_COMPARE_AT_PRICE), by the form field they belong to
 * (`options.0.name`, `variants.2.sku`, `variants.1.values.0` …). Empty when there is nothing to say.
 */
export function variantErrors(data: Record<string, unknown>): Record<string, FieldMessage> {
  const options = (Array.isArray(data.options) ? data.options : []) as OptionForm[];
  const variants = (Array.isArray(data.variants) ? data.variants : []) as VariantForm[];
  const errors: Record<string, FieldMessage> = {};
  const say = (path: string, key: string, args?: Record<string, unknown>) => {
    if (!errors[path]) errors[path] = { message: `${V}.${key}`, args: args ?? {} };
  };
  if (!variants.length && !options.length) return errors;
  const names = new Set<string>();
  options.forEach((o, i) => {
    const name = (o.name ?? '').trim();
    if (!name) say(`options.${i}.name`, 'optionNameRequired');
    else if (name.length > 30 || !/^[\p{L}\p{N} ]+$/u.test(name))
      say(`options.${i}.name`, 'optionNameInvalid');
    else if (names.has(name.toLowerCase())) say(`options.${i}.name`, 'optionNameTaken');
    names.add(name.toLowerCase());
    const values = (o.values ?? []).map((v) => v.trim()).filter(Boolean);
    if (!values.length) say(`options.${i}.values`, 'valuesRequired');
    else if (values.length > MAX_VALUES) say(`options.${i}.values`, 'tooManyValues', { max: MAX_VALUES });
    else if (values.some((v) => v.length > 40)) say(`options.${i}.values`, 'valueTooLong');
    else if (new Set(values).size !== values.length) say(`options.${i}.values`, 'valuesRepeated');
  });
  // options without a variant would save a product without variants: say it on the last option's values
  if (options.length && !variants.length) say(`options.${options.length - 1}.values`, 'variantRequired');
  const skus = new Map<string, number>();
  const combos = new Map<string, number>();
  variants.forEach((v, j) => {
    const sku = (v.sku ?? '').trim();
    if (!sku) say(`variants.${j}.sku`, 'skuRequired');
    else if (skus.has(sku.toLowerCase()))
      say(`variants.${j}.sku`, 'skuRepeated', { row: skus.get(sku.toLowerCase())! + 1 });
    else skus.set(sku.toLowerCase(), j);
    if (v.price == null || !(Number(v.price) > 0)) say(`variants.${j}.price`, 'priceRequired');
    else if (v.originalPrice != null && Number(v.originalPrice) < Number(v.price))
      say(`variants.${j}.originalPrice`, 'compareAtBelowPrice', { price: Number(v.price) });
    if (v.stock == null || !Number.isInteger(Number(v.stock)) || Number(v.stock) < 0)
      say(`variants.${j}.stock`, 'stockInvalid');
    if (
      v.lowStockThreshold != null &&
      (!Number.isInteger(Number(v.lowStockThreshold)) || Number(v.lowStockThreshold) < 0)
    )
      say(`variants.${j}.lowStockThreshold`, 'stockInvalid');
    let complete = true;
    options.forEach((o, k) => {
      const value = v.values?.[k] ?? '';
      if (!value || !o.values.includes(value)) {
        complete = false;
        say(`variants.${j}.values.${k}`, 'valueRequired', { option: o.name || k + 1 });
      }
    });
    if (complete && options.length) {
      const key = JSON.stringify(v.values.slice(0, options.length));
      if (combos.has(key))
        say(`variants.${j}.values.${options.length - 1}`, 'variantRepeated', { row: combos.get(key)! + 1 });
      else combos.set(key, j);
    }
  });
  return errors;
}

/** The rows a "one variant for each combination" button adds: every combination of values no row has yet. */
export function missingCombinations(
  options: readonly OptionForm[],
  variants: readonly VariantForm[],
): string[][] {
  if (!options.length || options.some((o) => !o.values.length)) return [];
  let combos: string[][] = [[]];
  for (const o of options) combos = combos.flatMap((c) => o.values.map((v) => [...c, v]));
  const taken = new Set(variants.map((v) => JSON.stringify(v.values.slice(0, options.length))));
  return combos
    .filter((c) => !taken.has(JSON.stringify(c)))
    .slice(0, Math.max(0, MAX_VARIANTS - variants.length));
}

/** The form's variant rows after option `index` is removed: its value column goes. */
export const withoutOption = (variants: readonly VariantForm[], index: number): VariantForm[] =>
  variants.map((v) => ({ ...v, values: v.values.filter((_, k) => k !== index) }));
