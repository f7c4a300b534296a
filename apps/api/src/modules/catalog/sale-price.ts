import { percentOf, toBirr, type Santim } from '@shop/shared';
import { shopClock } from '../../common/clock';

/**
 * A scheduled sale as a product carries it (written by the promotions module through
 * ProductSalesService, docs/decisions/0095): the rule, not a price, so an edit of the product's price
 * keeps the sale right; `value` is a percent (1..100) or santim off.
 */
export interface ProductSale {
  promotion: string;
  kind: 'percent' | 'fixed';
  value: number;
  startsAt: Date;
  endsAt: Date;
  nameEn: string;
  nameAm?: string;
}

/** The price a sale makes of a regular price; undefined when it would not lower it or leave nothing to pay. */
export function salePriceOf(regular: Santim, sale: Pick<ProductSale, 'kind' | 'value'>): Santim | undefined {
  const off = sale.kind === 'percent' ? percentOf(regular, sale.value) : sale.value;
  const price = regular - off;
  return off > 0 && price > 0 ? price : undefined;
}

/**
 * The best single sale running at `now` (the lowest price; on a tie the one ending last, then the
 * promotion id), with the price it makes; undefined when none runs.
 */
export function saleNow(
  doc: { priceSantim: Santim; sales?: readonly ProductSale[] | null },
  now: number = shopClock.nowMs(),
): { sale: ProductSale; priceSantim: Santim } | undefined {
  let best: { sale: ProductSale; priceSantim: Santim } | undefined;
  for (const sale of doc.sales ?? []) {
    if (new Date(sale.startsAt).getTime() > now || new Date(sale.endsAt).getTime() <= now) continue;
    const price = salePriceOf(doc.priceSantim, sale);
    if (price === undefined) continue;
    const better =
      !best ||
      price < best.priceSantim ||
      (price === best.priceSantim &&
        (new Date(sale.endsAt).getTime() > new Date(best.sale.endsAt).getTime() ||
          (new Date(sale.endsAt).getTime() === new Date(best.sale.endsAt).getTime() &&
            sale.promotion < best.sale.promotion)));
    if (better) best = { sale, priceSantim: price };
  }
  return best;
}

/**
 * A sale that ended after `seenAt` (when the cart line was added, or last told) and up to `now`, whose
 * price was below what the customer pays now: the line is repriced and says so (docs/decisions/0095).
 */
export function saleEndedSince(
  doc: { priceSantim: Santim; sales?: readonly ProductSale[] | null },
  seenAt: number,
  now: number = shopClock.nowMs(),
): ProductSale | undefined {
  const current = priceNowSantim(doc);
  return (doc.sales ?? []).find((sale) => {
    const end = new Date(sale.endsAt).getTime();
    const price = salePriceOf(doc.priceSantim, sale);
    return end > seenAt && end <= now && price !== undefined && price < current;
  });
}

/** What a customer pays for one unit now (the regular price, or the best running sale's). */
export function priceNowSantim(doc: { priceSantim: Santim; sales?: readonly ProductSale[] | null }): Santim {
  return saleNow(doc)?.priceSantim ?? doc.priceSantim;
}

/**
 * The additive price fields of a product answer: `price` what the customer pays now,
 * `compareAtPrice` the regular (or the owner's compare-at) price when higher, `promotion` while a
 * sale runs; `originalPrice` (the specification's field) is the compare-at price during a sale.
 */
export function salePriceFields(doc: {
  priceSantim: Santim;
  originalPriceSantim?: Santim | null;
  sales?: readonly ProductSale[] | null;
}): { price: number; compareAtPrice?: number; originalPrice?: number; promotion?: object } {
  const running = saleNow(doc);
  const price = running?.priceSantim ?? doc.priceSantim;
  const compareAt = Math.max(doc.priceSantim, doc.originalPriceSantim ?? 0);
  if (!running) {
    return compareAt > price
      ? { price: toBirr(price), compareAtPrice: toBirr(compareAt) }
      : { price: toBirr(price) };
  }
  return {
    price: toBirr(price),
    compareAtPrice: toBirr(compareAt),
    originalPrice: toBirr(compareAt),
    promotion: {
      id: running.sale.promotion,
      name: { en: running.sale.nameEn, am: running.sale.nameAm || running.sale.nameEn },
      endsAt: new Date(running.sale.endsAt).toISOString(),
    },
  };
}
