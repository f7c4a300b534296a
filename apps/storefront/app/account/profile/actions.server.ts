import { DELIVERY_COUNTRY } from '@shop/shared';
import { settle } from '../api.server';
import { validateAddress } from '../addresses/validation';
import { hasErrors, serverFieldErrors, type FieldErrors } from '../forms';
import { reply } from '../reply.server';
import { apiFor, sessionCookie } from '../../session.server';
import { passwordFieldOf, validatePasswordChange } from './password';

/** What the profile's password and address-book forms answer. */
export type ProfileSectionData = {
  ok: boolean;
  message?: string;
  /** which form answered: its errors show on it, the others stay as they were */
  form: 'password' | 'address';
  fieldErrors?: FieldErrors;
  /** the address form's values after a refusal, and the address it edited (none: a new one) */
  values?: Record<string, string>;
  addressId?: string;
};

const ADDRESS_ID = /^\d{1,9}$/;

/**
 * The password change: the API checks the current password and the shared rule, ends every other session
 * (token version) and answers a fresh token for this one, which replaces the storefront's cookie so the
 * customer stays signed in here.
 */
export async function changePassword(request: Request, form: FormData) {
  // an account made by phone sign-in has no password yet (its first one is set without): the API, which
  // knows, asks for the current one when there is one
  const { input, errors } = validatePasswordChange(form, false);
  if (hasErrors(errors))
    return reply<ProfileSectionData>({ ok: false, form: 'password', fieldErrors: errors }, 400);
  const result = await settle(
    apiFor(request).PUT('/api/users/profile/password', {
      body: {
        newPassword: input.newPassword,
        confirmPassword: input.confirmPassword,
        ...(input.currentPassword ? { currentPassword: input.currentPassword } : {}),
      },
    }),
  );
  if (!result.ok) {
    const field = passwordFieldOf(result.code);
    const fieldErrors: FieldErrors = field && result.key ? { [field]: result.key } : {};
    return reply<ProfileSectionData>(
      { ok: false, form: 'password', message: result.key ?? 'profile.passwordFailed', fieldErrors },
      result.status,
    );
  }
  const token = (result.data as { token?: string }).token;
  const headers: HeadersInit = token ? { 'Set-Cookie': sessionCookie(token, request) } : {};
  return reply<ProfileSectionData>(
    { ok: true, form: 'password', message: 'profile.passwordChanged' },
    200,
    headers,
  );
}

/** Add or edit (address id given), delete and 'make default' of the address book, through the API's routes. */
export async function addressAction(request: Request, form: FormData, intent: string) {
  const api = apiFor(request);
  const rawId = String(form.get('addressId') ?? '');
  const id = ADDRESS_ID.test(rawId) ? Number(rawId) : null;
  if (intent === 'address-delete' || intent === 'address-default') {
    if (id === null)
      return reply<ProfileSectionData>(
        { ok: false, form: 'address', message: 'errors.ADDRESS_NOT_FOUND' },
        400,
      );
    const result =
      intent === 'address-delete'
        ? await settle(api.DELETE('/api/users/addresses/{id}', { params: { path: { id } } }))
        : await settle(
            api.PUT('/api/users/addresses/{id}', {
              params: { path: { id } },
              body: { isDefault: true, country: DELIVERY_COUNTRY },
            }),
          );
    return result.ok
      ? reply<ProfileSectionData>({
          ok: true,
          form: 'address',
          message: intent === 'address-delete' ? 'profile.addressDeleted' : 'profile.defaultChanged',
        })
      : reply<ProfileSectionData>(
          { ok: false, form: 'address', message: result.key ?? 'profile.addressFailed' },
          result.status,
        );
  }
  const { input, errors } = validateAddress(form);
  const values = Object.fromEntries(
    ['phone', 'state', 'city', 'street', 'landmark', 'zipCode'].map((f) => [f, String(form.get(f) ?? '')]),
  );
  const addressId = id === null ? undefined : String(id);
  if (hasErrors(errors))
    return reply<ProfileSectionData>(
      { ok: false, form: 'address', fieldErrors: errors, values, addressId },
      400,
    );
  const isDefault = form.get('isDefault') === 'on';
  // an edit sends the optional parts even when blank: a cleared landmark is removed
  const body = {
    ...input,
    landmark: input.landmark ?? '',
    zipCode: input.zipCode ?? '',
    ...(isDefault ? { isDefault } : {}),
  };
  const result =
    id === null
      ? await settle(
          api.POST('/api/users/addresses', { body: { ...input, ...(isDefault ? { isDefault } : {}) } }),
        )
      : await settle(api.PUT('/api/users/addresses/{id}', { params: { path: { id } }, body }));
  if (!result.ok)
    return reply<ProfileSectionData>(
      {
        ok: false,
        form: 'address',
        message: result.key ?? 'profile.addressFailed',
        fieldErrors: serverFieldErrors(result.errors),
        values,
        addressId,
      },
      result.status,
    );
  return reply<ProfileSectionData>({ ok: true, form: 'address', message: 'profile.addressSaved' });
}
