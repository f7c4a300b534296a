import { SearchCards, saleSpan } from '../src/modules/catalog/search-cards';
import type { ProductSale } from '../src/modules/catalog/sale-price';

const HOUR = 3_600_000;
const T0 = Date.parse('2027-01-15T06:00:00.000Z');
const sale = (startsAt: number, endsAt: number): ProductSale => ({
  promotion: `p${startsAt}`,
  kind: 'percent',
  value: 20,
  startsAt: new Date(startsAt),
  endsAt: new Date(endsAt),
  nameEn: 'Timket week',
});

/** The search's listing cards (docs/decisions/0101-search-speed-2.md): when a kept card may be listed. */
describe('search cards', () => {
  it('holds a card between the sale boundaries around the moment it was made', () => {
    const sales = [sale(T0 + HOUR, T0 + 3 * HOUR), sale(T0 - 5 * HOUR, T0 - 4 * HOUR)];
    expect(saleSpan(sales, T0)).toEqual([T0 - 4 * HOUR, T0 + HOUR]);
    expect(saleSpan(sales, T0 + 2 * HOUR)).toEqual([T0 + HOUR, T0 + 3 * HOUR]);
    expect(saleSpan(sales, T0 + 3 * HOUR)).toEqual([T0 + 3 * HOUR, Infinity]);
    expect(saleSpan(undefined, T0)).toEqual([-Infinity, Infinity]);

    const cards = new SearchCards(true, 60_000, 1 << 20);
    cards.keep('a', '{"price":100}', sales, cards.mark(), 1000, T0);
    expect(cards.get('a', 1001, T0 + HOUR - 1)).toBe('{"price":100}');
    // the sale starts: the card's price is no longer the price of the moment
    expect(cards.get('a', 1002, T0 + HOUR)).toBeUndefined();
    expect(cards.size).toBe(0);
    // nor when the shop's clock goes back before the last boundary (tests set the clock)
    cards.keep('a', '{"price":100}', sales, cards.mark(), 1000, T0);
    expect(cards.get('a', 1001, T0 - 4 * HOUR - 1)).toBeUndefined();
  });

  it('forgets a card after its age, when its product changes, and when the index is built again', () => {
    const cards = new SearchCards(true, 60_000, 1 << 20);
    cards.keep('a', 'A', undefined, cards.mark(), 1000, T0);
    cards.keep('b', 'B', undefined, cards.mark(), 1000, T0);
    expect(cards.get('a', 60_999, T0)).toBe('A');
    expect(cards.get('a', 61_000, T0)).toBeUndefined();
    cards.drop('b');
    expect(cards.get('b', 1001, T0)).toBeUndefined();
    cards.keep('a', 'A', undefined, cards.mark(), 1000, T0);
    cards.clear();
    expect(cards.get('a', 1001, T0)).toBeUndefined();
    expect(cards.heldBytes).toBe(0);
  });

  it('keeps nothing read across a change, and nothing when off', () => {
    const cards = new SearchCards(true, 60_000, 1 << 20);
    const mark = cards.mark();
    cards.drop('other'); // a change heard while the product was being read
    cards.keep('a', 'A', undefined, mark, 1000, T0);
    expect(cards.get('a', 1001, T0)).toBeUndefined();
    const off = new SearchCards(false, 60_000, 1 << 20);
    off.keep('a', 'A', undefined, off.mark(), 1000, T0);
    expect(off.size).toBe(0);
  });

  it('is bounded by bytes, oldest first', () => {
    const cards = new SearchCards(true, 60_000, 1000);
    for (const id of ['a', 'b', 'c', 'd']) cards.keep(id, 'x'.repeat(300), undefined, cards.mark(), 1000, T0);
    expect(cards.heldBytes).toBeLessThanOrEqual(1000);
    expect(cards.get('a', 1001, T0)).toBeUndefined();
    expect(cards.get('d', 1001, T0)).toBe('x'.repeat(300));
  });
});
