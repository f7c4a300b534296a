import { describe, expect, it } from 'vitest';
import adminAm from '@shop/i18n/src/admin.am.json';
import adminEn from '@shop/i18n/src/admin.en.json';
import am from '@shop/i18n/src/am.json';
import en from '@shop/i18n/src/en.json';

/** One shop name (docs/decisions/0082): the back office calls the shop what the storefront does, in both languages. */
describe("the shop's name", () => {
  it('is the storefront name in the back office, in English and Amharic', () => {
    expect(adminEn.admin.common.shopName).toBe(en.common.shopName);
    expect(adminAm.admin.common.shopName).toBe(am.common.shopName);
    expect(am.common.shopName).toBe('አዲስ ተፈጥሯዊ ውበት');
  });
});
