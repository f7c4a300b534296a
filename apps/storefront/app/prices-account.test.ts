import { describe, expect, it } from 'vitest';
import { translate } from '@shop/i18n';
import { signInPath, signInReasonOf } from './account/auth/intent';
import { passwordFieldOf, validatePasswordChange } from './account/profile/password';
import { shelfPriceText, vatWordKey } from './price-words';
import { keptFilters } from './routes/products';

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe('VAT words beside shelf prices', () => {
  it('follows pricesIncludeTax', () => {
    expect(vatWordKey(false)).toBe('product.plusVat');
    expect(vatWordKey(true)).toBe('product.inclVat');
  });

  it('says it in both languages, short', () => {
    const en = (key: string) => translate('en', key);
    const am = (key: string) => translate('am', key);
    expect(shelfPriceText(4350, 'en', false, en)).toMatch(/^ETB\s?4,350\.00 \+ VAT$/);
    expect(shelfPriceText(4350, 'en', true, en)).toMatch(/incl\. VAT$/);
    expect(shelfPriceText(4350, 'am', false, am)).toContain('ተ.እ.ታ');
    expect(shelfPriceText(4350, 'am', false, am)).not.toContain('VAT');
    for (const lang of ['en', 'am'] as const)
      for (const key of ['product.plusVat', 'product.inclVat'])
        expect(translate(lang, key).length).toBeLessThanOrEqual(12);
  });
});

describe('profile password change', () => {
  const strong = 'Shea2024!';
  it('accepts a strong new password confirmed', () => {
    const { errors, input } = validatePasswordChange(
      form({ currentPassword: ' old pass ', newPassword: strong, confirmPassword: strong }),
    );
    expect(errors).toEqual({});
    expect(input.currentPassword).toBe(' old pass '); // passwords are never trimmed
  });

  it('refuses a weak, a missing, an unconfirmed or a mismatched password', () => {
    expect(validatePasswordChange(form({ newPassword: 'abc', confirmPassword: 'abc' })).errors).toEqual({
      currentPassword: 'errors.CURRENT_PASSWORD_REQUIRED',
      newPassword: 'auth.weakPassword',
    });
    expect(validatePasswordChange(form({ currentPassword: 'x' })).errors).toEqual({
      newPassword: 'auth.passwordRequired',
      confirmPassword: 'auth.confirmRequired',
    });
    expect(
      validatePasswordChange(
        form({ currentPassword: 'x', newPassword: strong, confirmPassword: 'Shea2024?' }),
      ).errors,
    ).toEqual({ confirmPassword: 'auth.passwordsMismatch' });
  });

  it('leaves the current password to the API for an account without one', () => {
    expect(
      validatePasswordChange(form({ newPassword: strong, confirmPassword: strong }), false).errors,
    ).toEqual({});
  });

  it("maps the API's refusals onto the form's fields", () => {
    expect(passwordFieldOf('CURRENT_PASSWORD_INCORRECT')).toBe('currentPassword');
    expect(passwordFieldOf('WEAK_PASSWORD')).toBe('newPassword');
    expect(passwordFieldOf('PASSWORDS_DO_NOT_MATCH')).toBe('confirmPassword');
    expect(passwordFieldOf('RATE_LIMITED')).toBeNull();
  });

  it('words the shared password rule in both languages', () => {
    expect(translate('en', 'auth.passwordRule')).toMatch(/8 or more characters/);
    expect(translate('am', 'auth.passwordRule')).toMatch(/ቢያንስ 3/);
  });
});

describe('sign-in reason', () => {
  it('carries the wishlist reason and only known reasons', () => {
    expect(signInPath('/product/abc', 'wishlist')).toBe(
      '/signin?redirectTo=%2Fproduct%2Fabc&reason=wishlist',
    );
    expect(signInPath('/cart')).toBe('/signin?redirectTo=%2Fcart');
    expect(signInReasonOf('wishlist')).toBe('wishlist');
    expect(signInReasonOf('<script>')).toBeNull();
    expect(signInReasonOf(null)).toBeNull();
  });
});

describe("the phone catalogue's sort form", () => {
  it('keeps every other filter and starts again at page 1', () => {
    expect(
      keptFilters('?search=shea&sort=price_asc&page=3&category=skincare&inStock=true&minRating='),
    ).toEqual([
      ['search', 'shea'],
      ['category', 'skincare'],
      ['inStock', 'true'],
    ]);
    expect(keptFilters('')).toEqual([]);
  });
});
