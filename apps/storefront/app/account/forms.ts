import { codeKey } from '../apiMessages';

/** Field problems as i18n keys (rendered in the customer's language); the form re-renders with them. */
export type FieldErrors = Record<string, string>;

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A form field as trimmed text ('' when absent). */
export const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

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
