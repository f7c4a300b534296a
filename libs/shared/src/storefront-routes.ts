/**
 * The storefront's addresses that other parts of the shop write: the API's messages (order, reset,
 * unsubscribe and product links) and the storefront's own links. One table, so that a link in an
 * email cannot point at a page the storefront does not have (docs/decisions/0077-links-and-message-language.md).
 * Every function answers a path (`/…`); `storefrontUrl(base, path)` makes it absolute for a message.
 */
export const storefrontPaths = {
  home: () => '/',
  /** One order of the signed-in customer (or of the guest whose browser holds its token): its state, lines, totals and 'Pay now'. */
  order: (orderId: string) => `/order-confirmation/${encodeURIComponent(orderId)}`,
  /** The signed-in customer's orders. */
  orders: () => '/orders',
  /** A guest's way back to an order: the lookup with the number filled in (the guest gives the phone). */
  orderLookup: (orderNumber?: string) =>
    orderNumber ? `/track-order?number=${encodeURIComponent(orderNumber)}` : '/track-order',
  /** The password reset form of an emailed link. */
  resetPassword: (token: string) => `/reset-password?token=${encodeURIComponent(token)}`,
  /** A wishlist notice's unsubscribe page, opened in the message's language. */
  unsubscribe: (token: string, lang?: string) =>
    `/unsubscribe?token=${encodeURIComponent(token)}${lang ? `&lang=${encodeURIComponent(lang)}` : ''}`,
  product: (productId: string) => `/product/${encodeURIComponent(productId)}`,
  /** Sign-in that brings the visitor back to `redirectTo` (a same-site path) afterwards. */
  signIn: (redirectTo?: string) =>
    redirectTo && isSameSitePath(redirectTo)
      ? `/signin?redirectTo=${encodeURIComponent(redirectTo)}`
      : '/signin',
} as const;

/** A path of this site only: `/x`, never `//host`, `/\host` or a full URL (no open redirect). */
export function isSameSitePath(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.startsWith('/') &&
    !value.startsWith('//') &&
    !value.startsWith('/\\') &&
    // control characters (a tab or newline inside `/\t/host`) are dropped by URL parsers
    ![...value].some((c) => c < ' ' || c === '\u007f')
  );
}

/**
 * Amharic pages live under `/am/…`, English ones at the root (docs/decisions/0092-language-in-the-address.md).
 * `localePath('am', '/products?q=x')` is `/am/products?q=x`, `localePath('am', '/')` is `/am/` (the Amharic home);
 * `localePath('en', '/am/products')` is `/products`. Any other language is English's address.
 */
export function localePath(lang: string | undefined, path: string): string {
  const bare = withoutLanguage(path);
  if (lang !== 'am') return bare;
  return `/am${bare}`;
}

/** The address without its `/am` prefix (the English twin): `/am` is `/`, `/am/cart` is `/cart`, `/amber` stays. */
export function withoutLanguage(path: string): string {
  const match = /^\/am(?=$|[/?#])\/?/.exec(path);
  if (!match) return path;
  const rest = path.slice(match[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The language of an address: `am` for `/am` and `/am/…`, otherwise `en`. */
export function languageOfPath(path: string): 'en' | 'am' {
  return /^\/am(?=$|[/?#])/.test(path) ? 'am' : 'en';
}

/**
 * An absolute storefront address for a message: the configured base URL (no trailing slash needed) and a
 * path of the table; with the message's language, its page in that language (Amharic: `/am/…`).
 */
export function storefrontUrl(base: string, path: string, lang?: string): string {
  return `${base.replace(/\/+$/, '')}${lang ? localePath(lang, path) : path}`;
}
