import { randomUUID } from 'node:crypto';

/** The header that carries a request's id in and out (docs/decisions/0072-logs-and-request-ids.md). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** At most 128 visible ASCII characters: no spaces, no control characters, nothing to forge a log line with. */
const SANE_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The id a request is known by: the caller's X-Request-Id when it is a sane value (the storefront, the
 * back office and a proxy in front send one so that one id follows a click through every log), a new
 * UUID otherwise. It is a correlation tag only: nothing is authorised or deduplicated by it.
 */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SANE_ID.test(value) ? value : randomUUID();
}
