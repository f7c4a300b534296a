import { isStrongEnough } from '@shop/shared';
import type { FieldErrors } from '../forms';

export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * The profile's password change (docs/decisions/0079-prices-account-phone.md): the current password
 * (required when the account has one), a new one that passes the shared rule (libs/shared password.ts)
 * and the same new one again. Passwords are never trimmed.
 */
export function validatePasswordChange(
  form: FormData,
  hasPassword = true,
): { input: PasswordChangeInput; errors: FieldErrors } {
  const read = (name: string) => String(form.get(name) ?? '');
  const input = {
    currentPassword: read('currentPassword'),
    newPassword: read('newPassword'),
    confirmPassword: read('confirmPassword'),
  };
  const errors: FieldErrors = {};
  if (hasPassword && !input.currentPassword) errors.currentPassword = 'errors.CURRENT_PASSWORD_REQUIRED';
  if (!input.newPassword) errors.newPassword = 'auth.passwordRequired';
  else if (!isStrongEnough(input.newPassword)) errors.newPassword = 'auth.weakPassword';
  if (!input.confirmPassword) errors.confirmPassword = 'auth.confirmRequired';
  else if (input.newPassword && input.confirmPassword !== input.newPassword)
    errors.confirmPassword = 'auth.passwordsMismatch';
  return { input, errors };
}

/** The API's refusal of a password change mapped onto the form's fields (its names differ: `newPassword`). */
export function passwordFieldOf(code: string | undefined): keyof PasswordChangeInput | null {
  if (code === 'CURRENT_PASSWORD_REQUIRED' || code === 'CURRENT_PASSWORD_INCORRECT') return 'currentPassword';
  if (code === 'WEAK_PASSWORD') return 'newPassword';
  if (code === 'PASSWORDS_DO_NOT_MATCH') return 'confirmPassword';
  return null;
}
