import type { FieldError } from '@shop/api-client';
import { codeKey } from '../apiMessages';
/**
 * The outcome of one API call: the answer, or the API's refusal by its code. `key` is the code's
 * `errors.<CODE>` i18n key when the dictionaries know it; the API's English `message` is not kept, so
 * no page can show it (pages choose their text by `code`, else their own fallback key).
 */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      code?: string;
      key?: string;
      params?: Record<string, unknown>;
      errors?: FieldError[];
    };

/** The answer of a typed-client call: its success body as generated from openapi.yaml (libs/api-client). */
export type AnswerOf<C> =
  C extends Promise<infer R> ? (R extends { data?: infer D } ? Exclude<D, undefined> : never) : never;

/**
 * Settles a call of the typed client (libs/api-client: paths, parameters, bodies and answers checked
 * against openapi.yaml) into an ApiResult whose data has the call's generated answer type: no cast,
 * no hand-written copy of the contract. A network failure becomes a 503 instead of an exception.
 */
export async function settle<C extends Promise<{ data?: unknown; error?: unknown; response: Response }>>(
  call: C,
): Promise<ApiResult<AnswerOf<C>>> {
  try {
    const { data, error, response } = await call;
    if (response.ok) return { ok: true, status: response.status, data: data as AnswerOf<C> };
    const body = (error ?? {}) as { errors?: FieldError[]; code?: unknown; params?: unknown };
    const code = typeof body.code === 'string' ? body.code : undefined;
    const params =
      body.params && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : undefined;
    return { ok: false, status: response.status, code, key: codeKey(code), params, errors: body.errors };
  } catch (error) {
    console.error('API call failed', error);
    return { ok: false, status: 503 };
  }
}
