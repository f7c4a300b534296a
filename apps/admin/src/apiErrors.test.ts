import { translate } from '@shop/i18n';
import { HttpError } from 'react-admin';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiErrorMessage, apiFieldErrors, translatedHttpError, type Translate } from './apiErrors';

/** The back office's own i18nProvider (polyglot over libs/i18n), in the language asked. */
async function provider(language: 'en' | 'am'): Promise<Translate> {
  vi.resetModules();
  vi.stubGlobal('localStorage', { getItem: () => language, setItem: () => undefined });
  vi.stubGlobal('document', { documentElement: { lang: '' } });
  vi.stubGlobal('window', { addEventListener: () => undefined, removeEventListener: () => undefined });
  const { i18nProvider, prepareFirstScreen } = await import('./i18nProvider');
  // the Amharic texts are their own chunk, there before the first screen
  await prepareFirstScreen();
  return (key, options) => i18nProvider.translate(key, options);
}

const stock = {
  success: false,
  statusCode: 409,
  message: 'Only 2 left in stock for Shea Butter',
  code: 'INSUFFICIENT_STOCK',
  params: { product: 'Shea Butter', available: 2 },
};

describe('the back office words API refusals from their codes', () => {
  let am: Translate;
  let en: Translate;
  beforeAll(async () => {
    am = await provider('am');
    en = await provider('en');
  });
  afterAll(() => vi.unstubAllGlobals());

  it('shows the code text in the chosen language with its params', () => {
    const text = apiErrorMessage(
      new HttpError(stock.message, 409, stock),
      am,
      'shop.admin.products.saveFailed',
    );
    expect(text).toBe(translate('am', 'errors.INSUFFICIENT_STOCK', stock.params));
    expect(text).toContain('Shea Butter');
    expect(text).toContain('2');
    expect(text).toMatch(/[\u1200-\u137F]/);
    expect(text).not.toContain('%{');
    expect(apiErrorMessage(new HttpError(stock.message, 409, stock), en)).toBe(
      'Only 2 left in stock for Shea Butter.',
    );
  });

  it("reads the typed client's ApiError as well as react-admin's HttpError", () => {
    const apiError = Object.assign(new Error('You cannot deactivate your own account'), {
      statusCode: 409,
      code: 'OWN_ACCOUNT_DEACTIVATE',
      params: {},
    });
    expect(apiErrorMessage(apiError, am, 'shop.admin.users.statusFailed')).toBe(
      translate('am', 'errors.OWN_ACCOUNT_DEACTIVATE'),
    );
  });

  it("falls back to the screen's own message, else a generic text, never the API's English", () => {
    const uncoded = { success: false, statusCode: 500, message: 'Internal server error' };
    expect(
      apiErrorMessage(new HttpError(uncoded.message, 500, uncoded), am, 'shop.admin.products.saveFailed'),
    ).toBe(translate('am', 'admin.products.saveFailed'));
    const unknown = {
      ...uncoded,
      statusCode: 409,
      message: 'Something new',
      code: 'NOT_YET_IN_THE_DICTIONARIES',
    };
    expect(apiErrorMessage(new HttpError(unknown.message, 409, unknown), am)).toBe(
      translate('am', 'admin.common.requestFailed'),
    );
    expect(apiErrorMessage(new Error('network down'), en)).toBe(
      translate('en', 'admin.common.requestFailed'),
    );
    const worded = translatedHttpError(new HttpError(unknown.message, 409, unknown), am) as HttpError;
    expect(worded.message).toBe(translate('am', 'admin.common.requestFailed'));
    expect(worded.message).not.toContain('Something new');
  });

  it("words the reset page's refusals by code in the chosen language", async () => {
    const { resetRefusalText } = await import('./layout/ResetPasswordPage');
    const weak = {
      success: false,
      statusCode: 400,
      message: 'Password must be at least 8 characters and include a number',
      code: 'WEAK_PASSWORD',
    };
    const refusal = Object.assign(new Error(weak.message), weak);
    expect(resetRefusalText(refusal, am)).toBe(translate('am', 'errors.WEAK_PASSWORD'));
    expect(resetRefusalText(refusal, am)).toMatch(/[\u1200-\u137F]/);
    expect(resetRefusalText(refusal, en)).toBe(translate('en', 'errors.WEAK_PASSWORD'));
    const used = Object.assign(new Error('Invalid or expired reset token'), { code: 'RESET_INVALID' });
    expect(resetRefusalText(used, am)).toBe(translate('am', 'recover.invalid'));
    const uncoded = Object.assign(new Error('Bad gateway'), { statusCode: 502 });
    expect(resetRefusalText(uncoded, en)).toBe(translate('en', 'recover.failed'));
  });

  it("turns field errors into react-admin's form errors, coded ones translated", () => {
    const body = {
      ...stock,
      code: 'VALIDATION_FAILED',
      errors: [
        { field: 'shippingAddress.phone', message: 'phone must be valid', code: 'INVALID_PHONE' },
        { field: 'price', message: 'price must be an amount in ETB', code: 'INVALID_AMOUNT' },
        { field: 'name', message: 'name must be a string', code: 'VALIDATION_FAILED' },
      ],
    };
    expect(apiFieldErrors(body, am)).toEqual({
      'shippingAddress.phone': translate('am', 'errors.INVALID_PHONE'),
      price: translate('am', 'errors.INVALID_AMOUNT'),
      name: translate('am', 'admin.common.fieldInvalid'),
    });
    const error = translatedHttpError(new HttpError('Validation failed', 400, body), am) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(400);
    expect(error.message).toBe(translate('am', 'errors.VALIDATION_FAILED'));
    expect(error.body.errors.price).toBe(translate('am', 'errors.INVALID_AMOUNT'));
    expect(error.body.code).toBe('VALIDATION_FAILED');
    expect(apiFieldErrors({ message: 'x' }, am)).toBeUndefined();
  });
});
