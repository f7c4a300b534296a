import { json } from '@remix-run/node';

/**
 * A JSON answer of an action or resource route. remix-serve installs its own fetch globals, whose
 * Response has no static `json`, so the Remix helper is used.
 */
export function reply<T>(data: T, status = 200, headers?: HeadersInit) {
  return json(data, { status, headers });
}
