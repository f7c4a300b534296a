import {
  DELIVERY_COUNTRY,
  deliveryCountry,
  findEthiopianRegion,
  normaliseEthiopianPhone,
} from '@shop/shared';
import { text, type FieldErrors } from '../forms';

export interface AddressInput {
  street: string;
  city: string;
  state: string;
  zipCode?: string;
  landmark?: string;
  phone: string;
  country: typeof DELIVERY_COUNTRY;
}
export const ADDRESS_FIELDS = ['phone', 'state', 'city', 'street', 'landmark', 'zipCode', 'country'] as const;
const REQUIRED_ADDRESS_FIELDS = ['phone', 'state', 'city', 'street', 'country'] as const;

/**
 * The Ethiopian shipping form: phone (an Ethiopian mobile, normalised to +251...), region (one of
 * ETHIOPIAN_REGIONS, stored by its English name), city or sub-city and street required; landmark and
 * postal code optional; delivery only within Ethiopia (any spelling case).
 */
export function validateAddress(form: FormData): { input: AddressInput; errors: FieldErrors } {
  const values = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, text(form, f)])) as Record<
    (typeof ADDRESS_FIELDS)[number],
    string
  >;
  const errors: FieldErrors = {};
  for (const field of REQUIRED_ADDRESS_FIELDS)
    if (!values[field]) errors[field] = `checkout.${field}Required`;
  const phone = values.phone ? normaliseEthiopianPhone(values.phone) : undefined;
  if (values.phone && !phone) errors.phone = 'checkout.phoneInvalid';
  const region = values.state ? findEthiopianRegion(values.state) : undefined;
  if (values.state && !region) errors.state = 'checkout.stateInvalid';
  if (values.country && !deliveryCountry(values.country)) errors.country = 'checkout.countryEthiopiaOnly';
  return {
    input: {
      street: values.street,
      city: values.city,
      state: region?.en ?? values.state,
      phone: phone ?? values.phone,
      ...(values.landmark ? { landmark: values.landmark } : {}),
      ...(values.zipCode ? { zipCode: values.zipCode } : {}),
      country: DELIVERY_COUNTRY,
    },
    errors,
  };
}
