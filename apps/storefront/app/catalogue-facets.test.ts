import { describe, expect, it } from 'vitest';
import { MAX_BRANDS, filtersToSearch, productQuery, readBrands, readFilters } from './catalogue';
import { BRANDS_SHOWN, categoryLabel, splitBrands } from './components/CatalogueFacets';

const params = (s: string) => new URLSearchParams(s);
const t = (key: string, vars?: Record<string, string | number>) =>
  key === 'catalogue.withCount' ? `${vars?.name} (${vars?.count})` : key;

describe('catalogue brands and counts (docs/decisions/0091-catalogue-facets.md)', () => {
  it('reads the chosen brands of a URL: each once whatever its case, empty ones dropped, at most 20', () => {
    expect(readBrands(params('brand=Buna%20Beauty&brand=&brand=buna%20beauty&brand=%20Habesha%20'))).toEqual([
      'Buna Beauty',
      'Habesha',
    ]);
    const many = Array.from({ length: 30 }, (_, i) => `brand=b${i}`).join('&');
    expect(readBrands(params(many))).toHaveLength(MAX_BRANDS);
    expect(readBrands(params(`brand=${'x'.repeat(150)}`))[0]).toHaveLength(100);
    expect(readFilters(params('')).brands).toEqual([]);
  });

  it('asks the API for the brands chosen and keeps them in links', () => {
    const filters = readFilters(
      params('brand=Buna%20Beauty&brand=Habesha%20Naturals&category=skincare&page=2'),
    );
    expect(productQuery(filters)).toMatchObject({
      brand: ['Buna Beauty', 'Habesha Naturals'],
      category: 'skincare',
      page: 2,
    });
    expect(productQuery(readFilters(params('')))).not.toHaveProperty('brand');
    const search = filtersToSearch(filters);
    expect(new URLSearchParams(search).getAll('brand')).toEqual(['Buna Beauty', 'Habesha Naturals']);
    expect(readFilters(new URLSearchParams(search))).toEqual(filters);
  });

  it('shows a category with its count when the API counted', () => {
    const counts = [
      { value: 'skincare', count: 3 },
      { value: 'makeup', count: 0 },
    ];
    expect(categoryLabel(t, 'Skincare', 'skincare', counts)).toBe('Skincare (3)');
    expect(categoryLabel(t, 'Makeup', 'makeup', counts)).toBe('Makeup (0)');
    expect(categoryLabel(t, 'Haircare', 'haircare', undefined)).toBe('Haircare');
  });

  it('puts the chosen brands first and folds the brands past the first eight', () => {
    const brands = Array.from({ length: 12 }, (_, i) => ({ value: `Brand ${i}`, count: 20 - i }));
    const { shown, more } = splitBrands(brands, ['brand 10']);
    expect(shown).toHaveLength(BRANDS_SHOWN);
    expect(shown[0]).toEqual({ value: 'Brand 10', count: 10 });
    expect(shown[1].value).toBe('Brand 0');
    expect(more.map((b) => b.value)).toEqual(['Brand 7', 'Brand 8', 'Brand 9', 'Brand 11']);
    // more chosen brands than fit: all of them shown
    const chosen = brands.slice(0, 10).map((b) => b.value);
    expect(splitBrands(brands, chosen).shown).toHaveLength(10);
    expect(splitBrands(brands.slice(0, 3), []).more).toEqual([]);
  });
});
