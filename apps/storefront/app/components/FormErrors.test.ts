import { describe, expect, it } from 'vitest';
import { fieldId, summaryEntries } from './FormErrors';

describe('the error summary of a form', () => {
  it("lists each field's error once: the API's nested field gives way to the form's field of that name", () => {
    expect(
      summaryEntries({
        'shippingAddress.phone': 'errors.INVALID_PHONE',
        phone: 'errors.INVALID_PHONE',
        'shippingAddress.street': 'checkout.streetRequired',
        city: 'checkout.cityRequired',
        zipCode: undefined,
      }),
    ).toEqual([
      ['phone', 'errors.INVALID_PHONE'],
      ['shippingAddress.street', 'checkout.streetRequired'],
      ['city', 'checkout.cityRequired'],
    ]);
  });

  it('has nothing to list for an answer without errors', () => {
    expect(summaryEntries(undefined)).toEqual([]);
    expect(summaryEntries({})).toEqual([]);
  });

  it("links to the field's control by the id Field gives it", () => {
    expect(fieldId('phone')).toBe('field-phone');
  });
});
