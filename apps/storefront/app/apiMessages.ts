import { dictionaries, keysOf, translate } from '@shop/i18n';

/**
 * Messages the storefront shows after an API call: routes answer an i18n KEY (plus parameters), never
 * a text to show as is, and the page words it in the shopper's language. The API gives stock errors a
 * stable `code` and `params` (OUT_OF_STOCK, INSUFFICIENT_STOCK, UNAVAILABLE); anything else falls back
 * to the SPEC section 8 message of the operation.
 */

export type Translate = (key: string, params?: Record<string, string | number>) => string;
export type MessageParams = { product?: string; available?: number; inCart?: number };
/** What a route says: a known i18n key, or a stock code with its parameters. */
export type Said = { key: string; params?: MessageParams };

export const STOCK_CODES = ['OUT_OF_STOCK', 'INSUFFICIENT_STOCK', 'UNAVAILABLE'] as const;
export type StockCode = (typeof STOCK_CODES)[number];

/** The fallback of each operation (SPEC section 8 texts, in en and am). */
export const FALLBACK = {
  addToCart: 'cart.addFailed',
  updateCart: 'cart.updateFailed',
  moveToCart: 'wishlist.moveFailed',
  createOrder: 'checkout.orderFailed',
  wishlist: 'wishlist.operationFailed',
} as const;

const KEY = /^[a-z]+\.[A-Za-z0-9]+$/;

export function isStockCode(value: unknown): value is StockCode {
  return typeof value === 'string' && (STOCK_CODES as readonly string[]).includes(value);
}

/** A key that exists in the English dictionary (so a made-up key from a URL is refused). */
export function isKnownKey(value: unknown): value is string {
  return typeof value === 'string' && KEY.test(value) && translate('en', value) !== value;
}

function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 1e6 ? n : undefined;
}

/** Only the parameters a stock message uses, checked: a product name (capped) and whole numbers. */
export function stockParams(raw: unknown): MessageParams {
  const p = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const product =
    typeof p.product === 'string' && p.product.trim() ? p.product.trim().slice(0, 120) : undefined;
  return { product, available: count(p.available), inCart: count(p.inCart) };
}

/** Every English text of the storefront's message namespaces, back to its keys (the API says some of them). */
const KEYS_OF_TEXT = new Map<string, string[]>();
for (const key of keysOf(dictionaries.en)) {
  const text = translate('en', key);
  if (!text.includes('{')) KEYS_OF_TEXT.set(text, [...(KEYS_OF_TEXT.get(text) ?? []), key]);
}

/** The key of one of the given namespaces whose English text is exactly `text` (a SPEC section 8 text of the API). */
export function keyOfText(text: string | undefined, namespaces: readonly string[]): string | undefined {
  return text ? KEYS_OF_TEXT.get(text)?.find((key) => namespaces.includes(key.split('.')[0])) : undefined;
}

/**
 * What to say after a failed API call: the stock code with its parameters, else a known SPEC text as
 * its key, else the operation's fallback key. The API's own wording is never passed on as is.
 */
export function apiError(
  result: { code?: string; params?: unknown; message?: string },
  fallbackKey: string,
): Said {
  if (isStockCode(result.code)) {
    const params = stockParams(result.params);
    if (params.product) return { key: result.code, params };
  }
  const known = keyOfText(result.message, ['cart', 'wishlist', 'checkout', 'reviews']);
  return { key: known ?? fallbackKey };
}

/** The text of a Said (or a bare key) in the active language; anything unknown becomes the fallback. */
export function say(
  t: Translate,
  said: Said | string | null | undefined,
  fallbackKey: string = FALLBACK.addToCart,
): string {
  if (!said) return '';
  const { key, params = {} } = typeof said === 'string' ? { key: said } : said;
  const p = stockParams(params);
  const values = {
    product: p.product ?? '',
    available: p.available ?? 0,
    inCart: p.inCart ?? 0,
    count: p.available ?? 0,
  };
  switch (key) {
    case 'OUT_OF_STOCK':
      return p.product ? t('cart.outOfStock', values) : t('cart.outOfStockThis');
    case 'INSUFFICIENT_STOCK': {
      if (p.available === undefined) return t(fallbackKey);
      const first = p.product ? t('cart.insufficientStock', values) : t('cart.onlyLeft', values);
      return p.inCart ? `${first} ${t('cart.alreadyInCart', values)}` : first;
    }
    case 'UNAVAILABLE':
      return p.product ? t('cart.unavailable', values) : t('cart.unavailableThis');
    default:
      return t(isKnownKey(key) ? key : fallbackKey);
  }
}

/**
 * A flash message read from the URL (`?cartError=`, `?reviewError=`): only a stock code or a key of the
 * allowed namespaces, with whole-number parameters; the product name is never taken from the URL.
 * Anything else is the fallback key, so no text typed into a link is ever shown.
 */
export function flashFromUrl(
  params: URLSearchParams,
  name: string,
  fallbackKey: string,
  namespaces: readonly string[],
): Said | null {
  const value = params.get(name);
  if (value === null) return null;
  if (isStockCode(value))
    return {
      key: value,
      params: { available: count(params.get('available')), inCart: count(params.get('inCart')) },
    };
  if (isKnownKey(value) && namespaces.includes(value.split('.')[0])) return { key: value };
  return { key: fallbackKey };
}

/** The query parameters that carry a Said through a redirect (the counterpart of flashFromUrl). */
export function flashToUrl(target: URL, name: string, said: Said): void {
  target.searchParams.set(name, said.key);
  if (said.params?.available !== undefined)
    target.searchParams.set('available', String(said.params.available));
  if (said.params?.inCart) target.searchParams.set('inCart', String(said.params.inCart));
}

/**
 * The API's notices about cart/wishlist lines it fixed (withdrawn, sold out, more than the stock) carry
 * only a type and an English text; the known shapes of that text are read back into a key and the
 * product name, anything else becomes a generic translated notice.
 */
export function noticeSaid(notice: { type?: string; message?: string }, list: 'cart' | 'wishlist'): Said {
  const text = typeof notice.message === 'string' ? notice.message.slice(0, 400) : '';
  const removed = text.match(
    /^(.+) is (no longer available|out of stock) and was removed from your (?:cart|wishlist)$/,
  );
  if (removed && removed[1] !== 'A product') {
    const key = removed[2] === 'out of stock' ? `${list}.noticeOutOfStock` : `${list}.noticeRemoved`;
    return { key, params: { product: removed[1].slice(0, 120) } };
  }
  const reduced = text.match(/^Only (\d{1,6}) left in stock for (.+); quantity reduced to \d{1,6}$/);
  if (reduced)
    return {
      key: 'cart.noticeReduced',
      params: { product: reduced[2].slice(0, 120), available: Number(reduced[1]) },
    };
  return {
    key: notice.type === 'quantity_reduced' ? 'cart.noticeReducedGeneric' : `${list}.noticeRemovedGeneric`,
  };
}

/** The text of a notice (see noticeSaid) in the active language. */
export function sayNotice(t: Translate, said: Said): string {
  const p = stockParams(said.params);
  return isKnownKey(said.key) ? t(said.key, { product: p.product ?? '', available: p.available ?? 0 }) : '';
}
