export type Tree = { [key: string]: string | Tree };

/** Polyglot interpolates %{name}; the shared dictionaries use {name}. */
export function toPolyglot<T>(node: T): T {
  if (typeof node === 'string') return node.replace(/\{(\w+)\}/g, '%{$1}') as T;
  return Object.fromEntries(Object.entries(node as object).map(([k, v]) => [k, toPolyglot(v)])) as T;
}

/**
 * The namespaces of the shared dictionaries the back office shows (`shop.<namespace>.…`): its own
 * (`admin`, `outbox`), the API's refusals by code (`errors`) and the password pages it shares with the
 * storefront (`auth`, `recover`). Only these ship in its JavaScript (docs/decisions/0083-lighter-back-office.md);
 * `dictionary.test.ts` fails when a screen uses another one.
 */
export const ADMIN_NAMESPACES = ['admin', 'outbox', 'errors', 'auth', 'recover'] as const;
