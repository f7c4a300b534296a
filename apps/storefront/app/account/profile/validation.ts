import { EMAIL, text, type FieldErrors } from '../forms';

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
  // an account made by phone sign-in has no email: it may add one, and is not made to
  if (!input.email) {
    if (form.get('emailOptional') !== '1') errors.email = 'auth.emailRequired';
  } else if (!EMAIL.test(input.email)) errors.email = 'auth.emailInvalid';
  return { input, errors };
}
