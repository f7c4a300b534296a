import { describe, expect, it } from 'vitest';
import { compareAtError, discountShown, subCategoryChoices, subCategoryError } from './productFields';

describe('compare-at price', () => {
  it('must be higher than the price', () => {
    expect(compareAtError(900, 900)).toEqual({
      message: 'shop.errors.COMPARE_AT_NOT_ABOVE_PRICE',
      args: { price: 900 },
    });
    expect(compareAtError('850', '900')).toMatchObject({ args: { price: 900 } });
    expect(compareAtError(1080, 900)).toBeUndefined();
  });

  it('is optional: nothing to say when it or the price is empty', () => {
    expect(compareAtError(undefined, 900)).toBeUndefined();
    expect(compareAtError(null, 900)).toBeUndefined();
    expect(compareAtError('', 900)).toBeUndefined();
    expect(compareAtError(500, '')).toBeUndefined();
  });

  it('gives the badge the storefront shows, none when refused or absent', () => {
    expect(discountShown(900, 1080)).toBe(17);
    expect(discountShown(900, 900)).toBe(0);
    expect(discountShown(900, undefined)).toBe(0);
  });
});

describe('sub-category', () => {
  it("offers the category's sub-categories in the page's language", () => {
    expect(subCategoryChoices('haircare', 'am')).toEqual([{ id: 'shampoo', name: 'ሻምፑ' }]);
    expect(subCategoryChoices('makeup', 'en').map((c) => c.id)).toEqual(['lips', 'eyes']);
    expect(subCategoryChoices(undefined, 'en').length).toBeGreaterThan(4);
  });

  it("refuses another category's sub-category", () => {
    expect(subCategoryError('lips', 'skincare')).toBe('shop.errors.SUB_CATEGORY_NOT_IN_CATEGORY');
    expect(subCategoryError('serums', 'skincare')).toBeUndefined();
    expect(subCategoryError('', 'skincare')).toBeUndefined();
  });
});
