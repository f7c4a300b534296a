import type { OrderItem } from '@shop/api-client';

/** The product a line was bought as (its snapshot at purchase). */
export function productIdOf(item: OrderItem): string {
  return item.product._id;
}

/** A line's name in the page's language: the snapshot's, else the line's own, Amharic when there is one. */
export function itemName(item: OrderItem, lang: 'en' | 'am'): string {
  return (lang === 'am' && (item.product.nameAm || item.nameAm)) || item.product.name || item.name || '';
}
