export type Tree = { [key: string]: string | Tree };

/** Polyglot interpolates %{name}; the shared dictionaries use {name}. */
export function toPolyglot<T>(node: T): T {
  if (typeof node === 'string') return node.replace(/\{(\w+)\}/g, '%{$1}') as T;
  return Object.fromEntries(Object.entries(node as object).map(([k, v]) => [k, toPolyglot(v)])) as T;
}

/** `over` laid on `base`, key by key: a missing Amharic text falls back to the English one (docs/product.md §1). */
export function withFallback(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = base[k];
    out[k] = typeof v === 'object' && typeof b === 'object' ? withFallback(b, v) : v;
  }
  return out;
}

/**
 * The namespaces of the shared dictionaries the back office shows (`shop.<namespace>.…`): its own
 * (`admin`, `outbox`), the API's refusals by code (`errors`) and the password pages it shares with the
 * storefront (`auth`, `recover`). Only these ship in its JavaScript (docs/decisions/0083-lighter-back-office.md);
 * `dictionary.test.ts` fails when a screen uses another one.
 */
export const ADMIN_NAMESPACES = ['admin', 'outbox', 'errors', 'auth', 'recover'] as const;
