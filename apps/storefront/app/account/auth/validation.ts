import { isStrongEnough } from '@shop/shared';
import { EMAIL, text, type FieldErrors } from '../forms';

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

/** docs/product.md §5: name and email required; customers need matching, strong enough passwords; admins a secret key. */
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
