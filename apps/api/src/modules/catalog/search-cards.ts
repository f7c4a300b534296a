import type { ProductSale } from './sale-price';

/**
 * The listing cards of the search (docs/decisions/0101-search-speed-2.md): each product's public JSON
 * as a catalogue page lists it, kept beside the search index so that a search page is answered without
 * reading its products from the database. A card is made from the product as read from the database
 * (the listing's own view of it, so its bytes are the listing's) and used:
 * - until the index hears the product changed (the index drops it when it reads the product again, and
 *   drops every card when it is built again): a write on this instance at once, another instance's
 *   within HOT_CACHE_TTL_MS (the shared version), as for the index itself;
 * - while the shop's clock stays between the product's sale boundaries around the moment the card was
 *   made (a running sale's price is part of the card, docs/decisions/0095);
 * - at most `maxAgeMs` (HOT_CACHE_MAX_AGE_MS) after it was made: writes made outside any instance;
 * bounded by `maxBytes`, oldest first. A card read across a change (`mark`) is used once, not kept.
 */
interface Card {
  json: string;
  /** The shop-clock span in which the card's prices hold (from the last sale boundary to the next). */
  from: number;
  until: number;
  /** When it is read again (machine time). */
  expires: number;
  bytes: number;
}

/** What a card costs besides its JSON (id, figures, map entry), counted against the byte bound. */
const CARD_OVERHEAD_BYTES = 160;

/** The span of shop time around `now` with no sale of the product starting or ending inside it. */
export function saleSpan(sales: readonly ProductSale[] | undefined | null, now: number): [number, number] {
  let from = -Infinity;
  let until = Infinity;
  for (const sale of sales ?? []) {
    for (const at of [new Date(sale.startsAt).getTime(), new Date(sale.endsAt).getTime()]) {
      if (Number.isNaN(at)) continue;
      if (at <= now) from = Math.max(from, at);
      else until = Math.min(until, at);
    }
  }
  return [from, until];
}

export class SearchCards {
  private readonly kept = new Map<string, Card>();
  private bytes = 0;
  private generation = 0;

  constructor(
    /** Whether cards are kept at all (off with the hot cache off: every search page reads the database). */
    readonly enabled: boolean,
    private readonly maxAgeMs: number,
    private readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.kept.size;
  }

  /** Bytes held (JSON and overhead). */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Marks the start of a read of products: `keep` keeps nothing read across a change. */
  mark(): number {
    return this.generation;
  }

  /** The card of product `id` if it is still good at machine time `now` and shop time `shopNow`. */
  get(id: string, now: number, shopNow: number): string | undefined {
    const card = this.kept.get(id);
    if (card === undefined) return undefined;
    if (card.expires > now && card.from <= shopNow && shopNow < card.until) return card.json;
    this.remove(id, card);
    return undefined;
  }

  /** Keeps the card of a product read from the mark `mark` on (not kept if a change came since). */
  keep(
    id: string,
    json: string,
    sales: readonly ProductSale[] | undefined | null,
    mark: number,
    now: number,
    shopNow: number,
  ): void {
    if (!this.enabled || mark !== this.generation || this.maxBytes <= 0) return;
    const previous = this.kept.get(id);
    if (previous) this.remove(id, previous);
    const [from, until] = saleSpan(sales, shopNow);
    const card = {
      json,
      from,
      until,
      expires: now + this.maxAgeMs,
      bytes: json.length + CARD_OVERHEAD_BYTES,
    };
    this.kept.set(id, card);
    this.bytes += card.bytes;
    while (this.bytes > this.maxBytes && this.kept.size) {
      const [oldestId, oldest] = this.kept.entries().next().value as [string, Card];
      this.remove(oldestId, oldest);
    }
  }

  /** The product changed (or left the index): its card is made again from the database. */
  drop(id: string): void {
    this.generation++;
    const card = this.kept.get(id);
    if (card) this.remove(id, card);
  }

  /** The index was built again: every card is made again. */
  clear(): void {
    this.generation++;
    this.kept.clear();
    this.bytes = 0;
  }

  private remove(id: string, card: Card): void {
    this.kept.delete(id);
    this.bytes -= card.bytes;
  }
}
