import type { ApiClient } from '@shop/api-client';
import { apiFor, apiWithToken } from '../session.server';

/** The outcome of one API call: the answer, or the API's error (status, server message, field errors). */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; message?: string; errors?: { field: string; message: string }[] };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Calls the API through the typed client of libs/api-client. Paths of modules whose contract is still
 * being generated are given as plain strings; the answer is read with the view types of ./types.
 */
export async function callApi<T>(
  client: ApiClient,
  method: Method,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  type Loose = (path: string, init: { body?: unknown; headers?: Record<string, string> }) => Promise<{
    data?: unknown;
    error?: unknown;
    response: Response;
  }>;
  const send = (client as unknown as Record<Method, Loose>)[method];
  try {
    const { data, error, response } = await send(path, { body: options.body, headers: options.headers });
    if (response.ok) return { ok: true, status: response.status, data: data as T };
    const body = (error ?? {}) as { message?: unknown; errors?: { field: string; message: string }[] };
    const message = Array.isArray(body.message) ? body.message.join(', ') : typeof body.message === 'string' ? body.message : undefined;
    return { ok: false, status: response.status, message, errors: body.errors };
  } catch (error) {
    console.error(`API ${method} ${path} failed`, error);
    return { ok: false, status: 503 };
  }
}

/** Calls the API as the signed-in user of the request. */
export function api<T>(request: Request, method: Method, path: string, options?: { body?: unknown; headers?: Record<string, string> }) {
  return callApi<T>(apiFor(request), method, path, options);
}

/** Calls the API with a token just obtained (e.g. carrying out a pending intent right after sign-in). */
export function apiAs<T>(token: string, method: Method, path: string, options?: { body?: unknown; headers?: Record<string, string> }) {
  return callApi<T>(apiWithToken(token), method, path, options);
}

export const id = (value: string) => encodeURIComponent(value);
