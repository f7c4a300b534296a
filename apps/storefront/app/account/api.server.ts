import { codeKey } from '../apiMessages';
/** The outcome of one API call: the answer, or the API's error (status, server message, field errors). */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      message?: string;
      errors?: { field: string; message: string }[];
      code?: string;
      params?: Record<string, unknown>;
    };

/**
 * Settles a call of the typed client (libs/api-client: paths, parameters and bodies checked against
 * openapi.yaml) into an ApiResult, reading the answer with the view types of ./types. A network failure
 * becomes a 503 instead of an exception.
 */
export async function settle<T = unknown>(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<ApiResult<T>> {
  try {
    const { data, error, response } = await call;
    if (response.ok) return { ok: true, status: response.status, data: data as T };
    const body = (error ?? {}) as {
      message?: unknown;
      errors?: { field: string; message: string }[];
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
