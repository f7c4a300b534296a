import { useEffect, useRef, type RefObject } from 'react';
import { message } from '../account/components';
import { useShop } from '../shop-context';

/** The id of a form's error summary: one form with errors per page answer. */
export const FORM_ERRORS_ID = 'form-errors';

/** The id of a form field's control, the target of the summary's links (`Field` gives its input this id). */
export const fieldId = (name: string) => `field-${name}`;

/**
 * The errors of a form's answer as [field, i18n key] pairs, each once: the API's nested field
 * (`shippingAddress.phone`) is left out when its last part (`phone`, the form's field) is there too.
 */
export function summaryEntries(fieldErrors: Record<string, string | undefined> | null | undefined) {
  const errors = Object.entries(fieldErrors ?? {}).filter((e): e is [string, string] => Boolean(e[1]));
  const names = new Set(errors.map(([name]) => name));
  return errors.filter(([name]) => !name.includes('.') || !names.has(name.split('.').pop()!));
}

/**
 * Moves focus to `ref`'s element and scrolls it into view each time `answer` changes and shows errors
 * (a failed submit), so that the customer sees what went wrong wherever they were on the page. A client
 * navigation keeps the element mounted between two failed submits: `autoFocus` alone would only act on
 * the first. Without JavaScript the element's `autofocus` attribute does the same when the page opens.
 */
export function useFocusOnErrors(ref: RefObject<HTMLElement>, answer: unknown, shown: boolean) {
  useEffect(() => {
    const el = ref.current;
    if (!shown || !el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'center' });
  }, [ref, answer, shown]);
}

/** Focuses a summary link's field (its control in the same form, by name) instead of only scrolling to it. */
function focusField(event: React.MouseEvent<HTMLAnchorElement>, name: string, idOf = fieldId) {
  // the control of the summary's own form first (a page may show two forms with a field of that name)
  const last = name.split('.').pop()!;
  const form = event.currentTarget.closest('form');
  const field =
    form?.querySelector<HTMLElement>(`[name="${CSS.escape(last)}"]:not([type='hidden'])`) ??
    document.getElementById(idOf(last));
  if (!field) return;
  event.preventDefault();
  field.focus({ preventScroll: true });
  field.scrollIntoView({ block: 'center' });
}

/**
 * The error summary at the top of a form (docs/decisions/0078): a box that says what to correct, the
 * form's own refusal first and then each field's error as a link to that field, announced (role=alert),
 * focused and scrolled into view after a failed submit, with and without JavaScript (`autofocus`: the
 * server's answer opens on it). Nothing when the answer has no errors.
 */
export function FormErrors({
  fieldErrors,
  formError,
  formText,
  answer,
  idOf = fieldId,
  testId = 'form-errors',
}: {
  fieldErrors?: Record<string, string | undefined> | null;
  /** The form's refusal as an i18n key. */
  formError?: string | null;
  /** The form's refusal already in words (shown as is). */
  formText?: string | null;
  /** The action's answer: a new one (a new failed submit) moves focus again. */
  answer?: unknown;
  /** The id of a field's control, when the form names them otherwise than `fieldId`. */
  idOf?: (name: string) => string;
  testId?: string;
}) {
  const { t } = useShop();
  const ref = useRef<HTMLDivElement>(null);
  const entries = summaryEntries(fieldErrors);
  const shown = entries.length > 0 || Boolean(formError || formText);
  useFocusOnErrors(ref, answer ?? fieldErrors ?? formError ?? formText, shown);
  if (!shown) return null;
  return (
    <div
      ref={ref}
      id={FORM_ERRORS_ID}
      className="form-errors"
      role="alert"
      tabIndex={-1}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- a failed submit's answer: the customer must see it
      autoFocus
      aria-labelledby={`${FORM_ERRORS_ID}-title`}
      data-testid={testId}
    >
      <p id={`${FORM_ERRORS_ID}-title`} className="form-errors-title">
        {t('ui.formErrors.title')}
      </p>
      {formText || formError ? (
        <p className="acc-alert form-errors-refusal">{formText || message(t, formError)}</p>
      ) : null}
      {entries.length > 0 ? (
        <ul>
          {entries.map(([name, key]) => (
            <li key={name}>
              <a href={`#${idOf(name.split('.').pop()!)}`} onClick={(e) => focusField(e, name, idOf)}>
                {message(t, key)}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
