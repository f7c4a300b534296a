import type { FieldError } from '@shop/api-client';
import { codeKey } from '../apiMessages';
/** The outcome of one API call: the answer, or the API's error (status, server message, field errors). */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      message?: string;
      errors?: FieldError[];
      code?: string;
      params?: Record<string, unknown>;
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
    const body = (error ?? {}) as {
      message?: unknown;
      errors?: FieldError[];
      code?: unknown;
      params?: unknown;
    };
    const message = Array.isArray(body.message)
      ? body.message.join(', ')
      : typeof body.message === 'string'
        ? body.message
        : undefined;
    const code = typeof body.code === 'string' ? body.code : undefined;
    const params =
      body.params && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : undefined;
    // the API's code, as the `errors.<CODE>` key the pages translate (its English text is never shown)
    return {
      ok: false,
      status: response.status,
      message: codeKey(code) ?? message,
      errors: body.errors,
      code,
      params,
    };
  } catch (error) {
    console.error('API call failed', error);
    return { ok: false, status: 503 };
  }
}
