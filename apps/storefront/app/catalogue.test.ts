import { formatMoney } from '@shop/shared';
import { describe, expect, it } from 'vitest';
import {
  badgeCount,
  filtersToSearch,
  paginationWindow,
  priceRangeQuery,
  productQuery,
  quantityOptions,
  readFilters,
  showingRange,
  sizeText,
} from './catalogue';

const pages = (current: number, total: number) =>
  paginationWindow(current, total).map((i) => (i.type === 'page' ? i.page : '…'));

describe('pagination window', () => {
  it('shows every page when there are 5 or fewer', () => {
    expect(pages(1, 3)).toEqual([1, 2, 3]);
    expect(pages(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pages(1, 0)).toEqual([]);
  });

  it('keeps a window of 5 around the current page with first, last and ellipses', () => {
    expect(pages(1, 12)).toEqual([1, 2, 3, 4, 5, '…', 12]);
    expect(pages(6, 12)).toEqual([1, '…', 4, 5, 6, 7, 8, '…', 12]);
    expect(pages(12, 12)).toEqual([1, '…', 8, 9, 10, 11, 12]);
  });

  it('leaves out an ellipsis that would hide no page', () => {
    expect(pages(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages(3, 6)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('clamps a page beyond the end', () => {
    expect(pages(99, 3)).toEqual([1, 2, 3]);
  });
});

describe('price ranges', () => {
  it('maps the seven options of the spec to minPrice and maxPrice', () => {
    expect(priceRangeQuery('all')).toEqual({});
    expect(priceRangeQuery('0-100')).toEqual({ minPrice: 0, maxPrice: 100 });
    expect(priceRangeQuery('100-500')).toEqual({ minPrice: 100, maxPrice: 500 });
    expect(priceRangeQuery('500-1000')).toEqual({ minPrice: 500, maxPrice: 1000 });
    expect(priceRangeQuery('1000-2000')).toEqual({ minPrice: 1000, maxPrice: 2000 });
    expect(priceRangeQuery('2000-5000')).toEqual({ minPrice: 2000, maxPrice: 5000 });
    expect(priceRangeQuery('5000+')).toEqual({ minPrice: 5000 });
  });

  it('ignores an unknown range', () => {
    expect(priceRangeQuery('1-2')).toEqual({});
    expect(priceRangeQuery(null)).toEqual({});
  });
});

describe('catalogue filters from the URL', () => {
  it('reads known filters and turns them into the API query of 20 per page', () => {
    const f = readFilters(
      new URLSearchParams(
        'search=shea&priceRange=100-500&category=skincare&subCategory=serums&sort=price_asc&minRating=4&inStock=true&page=2',
      ),
    );
    expect(productQuery(f)).toEqual({
      page: 2,
      limit: 20,
      search: 'shea',
      minPrice: 100,
      maxPrice: 500,
      category: 'skincare',
      subCategory: 'serums',
      sort: 'price_asc',
      minRating: 4,
      inStock: true,
    });
  });

  it('drops unknown values instead of sending them', () => {
    const f = readFilters(
      new URLSearchParams('category=shoes&sort=$where&minRating=9&page=-3&priceRange=zzz'),
    );
    expect(productQuery(f)).toEqual({ page: 1, limit: 20 });
  });

  it('writes short shareable URLs and round-trips them', () => {
    const f = readFilters(new URLSearchParams('search=coffee&inStock=on&page=3'));
    expect(filtersToSearch(f)).toBe('?search=coffee&inStock=true&page=3');
    expect(filtersToSearch({ page: 1 })).toBe('');
    expect(readFilters(new URLSearchParams(filtersToSearch(f).slice(1)))).toEqual(f);
  });
});

describe('numbers shown', () => {
  it('says which products of the total a page shows', () => {
    expect(showingRange(1, 44)).toEqual({ from: 1, to: 20, total: 44 });
    expect(showingRange(3, 44)).toEqual({ from: 41, to: 44, total: 44 });
    expect(showingRange(1, 0)).toEqual({ from: 0, to: 0, total: 0 });
    expect(showingRange(5, 44)).toEqual({ from: 0, to: 0, total: 44 });
  });

  it('caps the cart badge at 99+', () => {
    expect(badgeCount(0)).toBe('0');
    expect(badgeCount(99)).toBe('99');
    expect(badgeCount(100)).toBe('99+');
  });

  it('offers quantities 1 to min(10, stock)', () => {
    expect(quantityOptions(3)).toEqual([1, 2, 3]);
    expect(quantityOptions(40)).toHaveLength(10);
    expect(quantityOptions(40)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(quantityOptions(0)).toEqual([]);
  });

  it('formats prices as ETB in the active language', () => {
    expect(formatMoney(1250, 'ETB', 'en')).toBe('ETB 1,250.00');
    expect(formatMoney(1250, 'ETB', 'am')).toBe('1,250.00 ብር');
  });
});

describe('product size', () => {
  it('writes the units in Amharic on Amharic pages and leaves English alone', () => {
    expect(sizeText('30 ml', 'am')).toBe('30 ሚሊ');
    expect(sizeText('250g', 'am')).toBe('250 ግራም');
    expect(sizeText('250 g', 'am')).toBe('250 ግራም');
    expect(sizeText('1 L', 'am')).toBe('1 ሊትር');
    expect(sizeText('9 x 1.5 g', 'am')).toBe('9 × 1.5 ግራም');
    expect(sizeText('Travel kit', 'am')).toBe('Travel kit');
    expect(sizeText('30 ml', 'en')).toBe('30 ml');
  });
});
