import { formatMoney } from '@shop/shared';
import type { Language } from '@shop/i18n';

type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * The short VAT words beside every shelf price (docs/decisions/0079-prices-account-phone.md): '+ VAT'
 * when VAT is added at checkout (the default), 'incl. VAT' when the shop's `pricesIncludeTax` is on.
 */
export function vatWordKey(pricesIncludeTax: boolean): 'product.inclVat' | 'product.plusVat' {
  return pricesIncludeTax ? 'product.inclVat' : 'product.plusVat';
}

/** A shelf price as one text, e.g. 'ETB 4,350.00 + VAT' (search suggestions, the sticky bar). */
export function shelfPriceText(
  price: number,
  lang: Language,
  pricesIncludeTax: boolean,
  t: Translate,
): string {
  return `${formatMoney(price, 'ETB', lang)} ${t(vatWordKey(pricesIncludeTax))}`;
}
