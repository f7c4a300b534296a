import type { components } from '@shop/api-client';

/** A product's option and variant as the API answers them (the contract of issue 30.3, docs/product.md). */
export type ProductOption = components['schemas']['ProductOptionDto'];
export type ProductVariant = components['schemas']['ProductVariantDto'];

/** What the picker needs of a product: its options, variants and default. */
export interface VariantProduct {
  options?: ProductOption[];
  variants?: ProductVariant[];
  defaultVariantId?: string;
}

/** One value of one option as the picker shows it. */
export interface OptionChoice {
  value: string;
  /** the variant this button leads to (the chosen one's other options kept when such a variant exists) */
  variantId: string | null;
  selected: boolean;
  /** every variant with this value (with the other options chosen) has no stock */
  soldOut: boolean;
  swatch?: string;
}

export const VARIANT_ID = /^[a-f\d]{24}$/i;

export function hasVariants(p: VariantProduct): p is VariantProduct & { variants: ProductVariant[] } {
  return Array.isArray(p.variants) && p.variants.length > 0;
}

/** The variant the page shows: `?variant=` when it is one of the product's, else its default, else the first. */
export function chosenVariant(
  p: VariantProduct,
  requested: string | null | undefined,
): ProductVariant | null {
  if (!hasVariants(p)) return null;
  const byId = (id: string | null | undefined) => (id ? p.variants.find((v) => v._id === id) : undefined);
  return byId(requested) ?? byId(p.defaultVariantId) ?? defaultVariant(p.variants) ?? null;
}

/** The first variant with stock, else the first (the API's own rule, for answers without defaultVariantId). */
export function defaultVariant(variants: ProductVariant[]): ProductVariant | undefined {
  return variants.find((v) => v.countInStock > 0) ?? variants[0];
}

/** The variant with exactly these option values, if any. */
export function variantByOptions(
  variants: ProductVariant[],
  options: Record<string, string>,
): ProductVariant | undefined {
  const names = Object.keys(options);
  return variants.find((v) => names.every((n) => v.options[n] === options[n]));
}

export function isSoldOut(v: ProductVariant): boolean {
  return v.countInStock <= 0;
}

/**
 * The values of one option, each with the variant it leads to: the chosen variant with that value
 * changed (when the product has that combination), else the first variant with that value (in stock
 * first). A value is sold out when the variant it leads to has no stock.
 */
export function optionChoices(
  p: VariantProduct,
  option: ProductOption,
  chosen: ProductVariant,
): OptionChoice[] {
  const variants = p.variants ?? [];
  return option.values.map((value) => {
    const exact = variantByOptions(variants, { ...chosen.options, [option.name]: value });
    const withValue = variants.filter((v) => v.options[option.name] === value);
    const target = exact ?? withValue.find((v) => !isSoldOut(v)) ?? withValue[0];
    return {
      value,
      variantId: target?._id ?? null,
      selected: chosen.options[option.name] === value,
      soldOut: !target || isSoldOut(target),
      swatch: option.kind === 'shade' ? target?.swatch : undefined,
    };
  });
}

/** "Shade: Coffee · Size: 30 ml": a line's variant in words (order lines' `variantOptions`, cart lines' variant). */
export function optionsText(
  options: Record<string, string> | undefined | null,
  lang: 'en' | 'am' = 'en',
  productOptions: ProductOption[] = [],
  t?: (key: string) => string,
): string {
  if (!options) return '';
  return Object.entries(options)
    .map(([name, value]) => {
      const option = productOptions.find((o) => o.name === name);
      const said = option ? optionName(option, lang) : lang === 'am' && t ? commonOptionName(name, t) : name;
      return `${said}: ${value}`;
    })
    .join(' · ');
}

/**
 * An order keeps its options' English names only (the snapshot): the usual ones are said in the page's
 * language ("Size" → "መጠን", "Shade"/"Color" → "ቀለም"), others as staff named them.
 */
export function commonOptionName(name: string, t: (key: string) => string): string {
  const key = name.trim().toLowerCase();
  if (key === 'size') return t('product.size');
  if (key === 'shade' || key === 'color' || key === 'colour') return t('product.shade');
  return name;
}

/** A cart line as the API answers it (issue 30.3): the chosen variant beside the product. */
export interface VariantLine {
  variantId?: string;
  variant?: ProductVariant;
}

/** The option's name in the page's language. */
export function optionName(option: ProductOption, lang: 'en' | 'am'): string {
  return (lang === 'am' && option.nameAm) || option.name;
}

/** The same product address with `?variant=` set (other parameters kept; the gallery's view reset). */
export function variantHref(search: string, variantId: string): string {
  const params = new URLSearchParams(search);
  params.set('variant', variantId);
  params.delete('view');
  for (const flash of ['added', 'cartError', 'available', 'inCart']) params.delete(flash);
  return `?${params.toString()}`;
}

/** The images to show: the variant's own first, then the product's (without repeats). */
export function variantImages(productImages: string[], variant: ProductVariant | null): string[] {
  const own = variant?.images ?? [];
  return [...own, ...productImages.filter((src) => !own.includes(src))];
}
