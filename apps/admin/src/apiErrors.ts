import { codeParams } from '@shop/shared';
import { useCallback } from 'react';
import { HttpError, useNotify, useTranslate } from 'react-admin';

/** react-admin's `translate` (polyglot: `%{name}` placeholders, an unknown key answers itself). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What the API answers on an error (`{ success: false, statusCode, message, code, params, errors? }`). */
export interface ApiErrorShape {
  message?: unknown;
  code?: unknown;
  params?: unknown;
  errors?: unknown;
}

const CODE = /^[A-Z][A-Z0-9_]{1,60}$/;

/**
 * The API's error body inside whatever a call threw: react-admin's HttpError keeps it as `body`
 * (the data provider), the typed client's ApiError carries its fields itself (shopApi).
 */
export function errorBody(error: unknown): ApiErrorShape {
  if (!error || typeof error !== 'object') return {};
  const body = (error as { body?: unknown }).body;
  return body && typeof body === 'object' ? (body as ApiErrorShape) : (error as ApiErrorShape);
}

/** The `errors.<CODE>` text (libs/i18n, under `shop.`) in the chosen language with its params, or undefined for a code the dictionaries do not know. */
export function codeText(coded: { code?: unknown; params?: unknown }, t: Translate): string | undefined {
  if (typeof coded.code !== 'string' || !CODE.test(coded.code)) return undefined;
  const key = `shop.errors.${coded.code}`;
  const text = t(key, codeParams(coded.params));
  return text && text !== key ? text : undefined;
}

/** A refusal's text when neither its code nor the screen has one of its own. */
const GENERIC = 'shop.admin.common.requestFailed';

/**
 * What a notification says after a failed call: the API code's text in the chosen language, else the
 * operation's own message (when the screen has one), else a generic text in the chosen language.
 * The API's English `message` is never shown: texts are chosen by code.
 */
export function apiErrorMessage(error: unknown, t: Translate, fallbackKey?: string): string {
  return codeText(errorBody(error), t) ?? t(fallbackKey ?? GENERIC);
}

/**
 * The API's field errors as react-admin form errors (`{ field: text }`, nested paths as dotted names):
 * each field's own code in the chosen language (its params applied), else a generic "not valid" text.
 * VALIDATION_FAILED names no reason of its own, so its field gets the generic text too.
 */
export function apiFieldErrors(error: unknown, t: Translate): Record<string, string> | undefined {
  const list = errorBody(error).errors;
  if (!Array.isArray(list)) return undefined;
  const out: Record<string, string> = {};
  for (const e of list as { field?: unknown; code?: unknown; params?: unknown }[]) {
    if (!e || typeof e.field !== 'string' || !e.field || e.field in out) continue;
    const text = e.code === 'VALIDATION_FAILED' ? undefined : codeText(e, t);
    out[e.field] = text ?? t('shop.admin.common.fieldInvalid');
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * react-admin's HttpError worded for the staff member (the code's text, else a generic text) with its field errors in react-admin's `{ field: text }` form, so react-admin's own
 * notifications (list loads, deletes, saves without a handler of their own) and server-side form
 * validation show them as they are. Anything else is answered unchanged.
 */
export function translatedHttpError(error: unknown, t: Translate): unknown {
  if (!(error instanceof HttpError) || !error.body || typeof error.body !== 'object') return error;
  const body = error.body as ApiErrorShape;
  return new HttpError(codeText(body, t) ?? t(GENERIC), error.status, {
    ...body,
    errors: apiFieldErrors(body, t),
  });
}

/** `notifyError(error, 'shop.admin.products.saveFailed')`: the notification of a failed API call, in the chosen language. */
export function useNotifyApiError() {
  const notify = useNotify();
  const translate = useTranslate();
  return useCallback(
    (error: unknown, fallbackKey?: string) => {
      const text = apiErrorMessage(error, translate, fallbackKey);
      notify(text, { type: 'error', messageArgs: { _: text } });
    },
    [notify, translate],
  );
}
