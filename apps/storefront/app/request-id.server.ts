import type { ApiClient } from '@shop/api-client';

/**
 * The id of the page request being answered, kept by the server (server/logging.cjs) while Remix runs
 * the loaders and actions; undefined outside a request or under `remix vite:dev` (then the API makes
 * one). Shared through a global symbol because the server build is a module of its own.
 */
const CONTEXT_KEY = Symbol.for('shop.storefront.requestContext');

interface RequestContext {
  getStore(): { requestId?: string } | undefined;
}

export function currentRequestId(): string | undefined {
  const context = (globalThis as Record<symbol, RequestContext | undefined>)[CONTEXT_KEY];
  return context?.getStore()?.requestId;
}

/**
 * Sends the page request's id as X-Request-Id on every call of this client, so that the API's log line
 * of each call carries the id of the storefront's (docs/decisions/0072-logs-and-request-ids.md).
 */
export function withRequestId(client: ApiClient): ApiClient {
  client.use({
    onRequest({ request }) {
      const id = currentRequestId();
      if (id !== undefined && !request.headers.has('X-Request-Id')) request.headers.set('X-Request-Id', id);
      return request;
    },
  });
  return client;
}
