/** Field problems as i18n keys (rendered in the customer's language); the form re-renders with them. */
export type FieldErrors = Record<string, string>;

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A form field as trimmed text ('' when absent). */
export const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

export const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

/** Maps the API's field errors onto the form's fields (server text shown as is). */
export function serverFieldErrors(
  errors: { field: string; message: string }[] | undefined,
): Record<string, string> {
  return Object.fromEntries((errors ?? []).map((e) => [e.field, e.message]));
}
