import type { ApiClient } from '@shop/api-client';

type Middleware = Parameters<ApiClient['use']>[0];

/**
 * Each call of the back office carries an X-Request-Id of its own, so that the API's log line of a
 * staff action can be found by it (docs/decisions/0072-logs-and-request-ids.md).
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A UUID (crypto.randomUUID needs a secure context; plain http elsewhere gets 32 random hex digits). */
export function newRequestId(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** For the typed client (shopApi.ts): a new id on every request. */
export const sendRequestId: Middleware = {
  onRequest({ request }) {
    request.headers.set(REQUEST_ID_HEADER, newRequestId());
    return request;
  },
};

/** For react-admin's fetchJson (dataProvider.ts): the options with a new id among their headers. */
export function withRequestId<T extends { headers?: Headers | HeadersInit }>(
  options: T,
): T & { headers: Headers } {
  // what fetchJson would have sent without headers given (Accept: JSON), plus the id
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  headers.set(REQUEST_ID_HEADER, newRequestId());
  return { ...options, headers };
}
