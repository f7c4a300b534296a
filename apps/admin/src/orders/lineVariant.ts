// An order line's variant (issue 30.3), apart from orderFields.ts: the dashboard loads that file, not this one.
/** What an order line keeps of the variant bought (issue 30.3): its id, SKU and options' values at purchase. */
export interface LineVariantFields {
  variantId?: string;
  sku?: string;
  variantOptions?: Record<string, string>;
  product?: unknown;
}

/**
 * A line's variant in words for the packer: "Size: 30 ml · Shade: Red" (the option named in Amharic when the
 * product still names it so) and its SKU; undefined for a line without a variant.
 */
export function lineVariant(
  l: LineVariantFields,
  lang: 'en' | 'am' = 'en',
): { options: string; sku?: string } | undefined {
  const entries = Object.entries(l.variantOptions ?? {});
  if (!entries.length && !l.sku) return undefined;
  const product = l.product && typeof l.product === 'object' ? (l.product as { options?: unknown }) : {};
  const named = Array.isArray(product.options)
    ? (product.options as { name?: string; nameAm?: string }[])
    : [];
  const label = (name: string) => (lang === 'am' && named.find((o) => o.name === name)?.nameAm) || name;
  return {
    options: entries.map(([name, value]) => `${label(name)}: ${value}`).join(' · '),
    ...(l.sku ? { sku: l.sku } : {}),
  };
}

/** lineVariant in one line ("Size: 30 ml · SKU: MOR-30"), empty for a line without a variant. */
export function lineVariantText(l: LineVariantFields, lang: 'en' | 'am', skuLabel: string): string {
  const v = lineVariant(l, lang);
  return v ? [v.options, v.sku && `${skuLabel}: ${v.sku}`].filter(Boolean).join(' · ') : '';
}
