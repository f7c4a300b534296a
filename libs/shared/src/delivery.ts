/** Delivery is only within Ethiopia (docs/product.md §1). */
export const DELIVERY_COUNTRY = 'Ethiopia';
export const DELIVERY_COUNTRY_MESSAGE = 'Delivery is only within Ethiopia';

/** The delivery country from a form value: left out, blank or any spelling case of Ethiopia; otherwise null. */
export function deliveryCountry(input: string | undefined | null): string | null {
  const value = (input ?? '').trim();
  return value === '' || value.toLowerCase() === DELIVERY_COUNTRY.toLowerCase() ? DELIVERY_COUNTRY : null;
}
