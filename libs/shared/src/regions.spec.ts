import {
  ETHIOPIAN_REGIONS,
  findEthiopianRegion,
  formatOrderNumber,
  parseOrderNumber,
  priceOrder,
  regionName,
  taxOf,
} from './index';

describe('Ethiopian regions', () => {
  it('lists the 12 regional states and 2 chartered cities with distinct codes and Ge’ez names', () => {
    expect(ETHIOPIAN_REGIONS).toHaveLength(14);
    expect(new Set(ETHIOPIAN_REGIONS.map((r) => r.code)).size).toBe(14);
    expect(ETHIOPIAN_REGIONS.filter((r) => r.kind === 'city').map((r) => r.en)).toEqual([
      'Addis Ababa',
      'Dire Dawa',
    ]);
    for (const r of ETHIOPIAN_REGIONS) expect(r.am).toMatch(/^[\u1200-\u137F\s]+$/);
  });

  it('finds a region by English name, Amharic name, code or alias, whatever the case and spacing', () => {
    expect(findEthiopianRegion('oromia')?.en).toBe('Oromia');
    expect(findEthiopianRegion('ኦሮሚያ')?.en).toBe('Oromia');
    expect(findEthiopianRegion('aa')?.en).toBe('Addis Ababa');
    expect(findEthiopianRegion(' Addis  Abeba ')?.en).toBe('Addis Ababa');
    expect(findEthiopianRegion('benishangul gumuz')?.code).toBe('BG');
    expect(findEthiopianRegion('Nairobi')).toBeUndefined();
    expect(findEthiopianRegion('')).toBeUndefined();
    expect(findEthiopianRegion(undefined)).toBeUndefined();
  });

  it('names a stored region in either language and leaves unknown text alone', () => {
    expect(regionName('Tigray', 'am')).toBe('ትግራይ');
    expect(regionName('Tigray', 'en')).toBe('Tigray');
    expect(regionName('Somewhere', 'am')).toBe('Somewhere');
  });
});

describe('order numbers', () => {
  it('formats and parses the short human number', () => {
    expect(formatOrderNumber(10042)).toBe('AN-10042');
    expect(parseOrderNumber('#an-10042')).toBe('AN-10042');
    expect(parseOrderNumber('10042')).toBe('AN-10042');
    expect(parseOrderNumber('shea')).toBeUndefined();
  });
});

describe('pricesIncludeTax', () => {
  it('adds 15% on top by default, as the specification computes', () => {
    const t = priceOrder([{ unitPrice: 100_000, quantity: 1 }], 'express');
    expect(t).toEqual({
      subtotal: 100_000,
      discount: 0,
      shippingCost: 30_000,
      tax: 15_000,
      totalAmount: 145_000,
    });
  });

  it('shows the VAT contained in VAT-inclusive prices and does not add it again', () => {
    const t = priceOrder([{ unitPrice: 115_000, quantity: 1 }], 'express', undefined, true);
    expect(t).toEqual({
      subtotal: 115_000,
      discount: 0,
      shippingCost: 30_000,
      tax: 15_000,
      totalAmount: 145_000,
    });
    expect(taxOf(100, true)).toBe(13);
    expect(taxOf(100, false)).toBe(15);
  });
});
