import type { OrderItem } from '@shop/api-client';
import { optionsText } from '../../variants';

/** A line's variant as the order keeps it (issue 30.3): answered as `variantId`, `sku`, `variantOptions`. */
type VariantSnapshot = { variantId?: string; sku?: string; variantOptions?: Record<string, string> };

/** The product a line was bought as (its snapshot at purchase). */
export function productIdOf(item: OrderItem): string {
  return item.product._id;
}

/** A line's name in the page's language: the snapshot's, else the line's own, Amharic when there is one. */
export function itemName(item: OrderItem, lang: 'en' | 'am'): string {
  return (lang === 'am' && (item.product.nameAm || item.nameAm)) || item.product.name || item.name || '';
}

/** "Shade: Coffee": the options of the variant a line was bought as (the order's snapshot), or ''. */
export function itemVariantText(item: OrderItem, lang: 'en' | 'am', t: (key: string) => string): string {
  return optionsText((item as OrderItem & VariantSnapshot).variantOptions, lang, [], t);
}

/** The line's product page, on the variant it was bought as when it still has one. */
export function itemProductPath(item: OrderItem): string {
  const variantId = (item as OrderItem & VariantSnapshot).variantId;
  return `/product/${productIdOf(item)}${variantId ? `?variant=${variantId}` : ''}`;
}
