import {
  DELIVERY_COUNTRY,
  deliveryCountry,
  findEthiopianRegion,
  isStrongEnough,
  normaliseEthiopianPhone,
} from '@shop/shared';
import { codeKey } from '../apiMessages';

/** Field problems as i18n keys (rendered in the customer's language); the form re-renders with them. */
export type FieldErrors = Record<string, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

export interface SignInInput {
  email: string;
  password: string;
  role: 'customer' | 'admin';
}

export function validateSignIn(form: FormData): { input: SignInInput; errors: FieldErrors } {
  const input: SignInInput = {
    email: text(form, 'email'),
    password: String(form.get('password') ?? ''),
    role: form.get('role') === 'admin' ? 'admin' : 'customer',
  };
  const errors: FieldErrors = {};
  if (!input.email) errors.email = 'auth.emailRequired';
  else if (!EMAIL.test(input.email)) errors.email = 'auth.emailInvalid';
  if (!input.password) errors.password = 'auth.passwordRequired';
  return { input, errors };
}

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  asAdmin: boolean;
  adminSecretKey: string;
}

/** SPEC section 5: name and email required; customers need matching, strong enough passwords; admins a secret key. */
export function validateSignUp(form: FormData): { input: SignUpInput; errors: FieldErrors } {
  const input: SignUpInput = {
    name: text(form, 'name'),
    email: text(form, 'email'),
    password: String(form.get('password') ?? ''),
    confirmPassword: String(form.get('confirmPassword') ?? ''),
    asAdmin: form.get('accountType') === 'admin',
    adminSecretKey: text(form, 'adminSecretKey'),
  };
  const errors: FieldErrors = {};
  if (!input.name) errors.name = 'auth.nameRequired';
  if (!input.email) errors.email = 'auth.emailRequired';
  else if (!EMAIL.test(input.email)) errors.email = 'auth.emailInvalid';
  if (input.asAdmin) {
    if (!input.adminSecretKey) errors.adminSecretKey = 'auth.adminSecretRequired';
    if (!input.password) errors.password = 'auth.passwordRequired';
  } else {
    if (!input.password) errors.password = 'auth.passwordRequired';
    else if (!isStrongEnough(input.password)) errors.password = 'auth.weakPassword';
    if (!input.confirmPassword) errors.confirmPassword = 'auth.confirmRequired';
    else if (input.password !== input.confirmPassword) errors.confirmPassword = 'auth.passwordsMismatch';
  }
  return { input, errors };
}

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

export interface ProfileInput {
  name: string;
  email: string;
  phone: string;
}

export function validateProfile(form: FormData): { input: ProfileInput; errors: FieldErrors } {
  const input: ProfileInput = {
    name: text(form, 'name'),
    email: text(form, 'email'),
    phone: text(form, 'phone'),
  };
  const errors: FieldErrors = {};
  if (!input.name) errors.name = 'auth.nameRequired';
  if (!input.email) errors.email = 'auth.emailRequired';
  else if (!EMAIL.test(input.email)) errors.email = 'auth.emailInvalid';
  return { input, errors };
}

export const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

/**
 * Maps the API's field errors onto the form's fields as i18n keys: each error's code as `errors.<CODE>`
 * (INVALID_PHONE, INVALID_REGION...), VALIDATION_FAILED's text when the code is unknown. The API's
 * English text is never shown. A nested field (`shippingAddress.phone`) also answers for its last part
 * (`phone`), the name of the form's field.
 */
export function serverFieldErrors(
  errors: { field: string; message: string; code?: string }[] | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors ?? []) {
    if (typeof e?.field !== 'string') continue;
    const key = codeKey(e.code) ?? 'errors.VALIDATION_FAILED';
    out[e.field] ??= key;
    const last = e.field.split('.').pop()!;
    out[last] ??= key;
  }
  return out;
}
