import { translate } from '@shop/i18n';
import { codeParams } from '@shop/shared';

/**
 * Messages the storefront shows after an API call: routes answer an i18n KEY (plus parameters), never
 * a text to show as is, and the page words it in the shopper's language. The API gives stock errors a
 * stable `code` and `params` (OUT_OF_STOCK, INSUFFICIENT_STOCK, UNAVAILABLE); anything else falls back
 * to the message of the operation (docs/product.md §8).
 */

export type Translate = (key: string, params?: Record<string, string | number>) => string;
export type MessageParams = { product?: string; available?: number; inCart?: number } & Record<
  string,
  string | number | undefined
>;
/** What a route says: a known i18n key, or a stock code with its parameters. */
export type Said = { key: string; params?: MessageParams };

export const STOCK_CODES = ['OUT_OF_STOCK', 'INSUFFICIENT_STOCK', 'UNAVAILABLE'] as const;
export type StockCode = (typeof STOCK_CODES)[number];

/** The fallback of each operation (docs/product.md §8 texts, in en and am). */
export const FALLBACK = {
  addToCart: 'cart.addFailed',
  updateCart: 'cart.updateFailed',
  moveToCart: 'wishlist.moveFailed',
  createOrder: 'checkout.orderFailed',
  wishlist: 'wishlist.operationFailed',
} as const;

const KEY = /^[a-z]+\.[A-Za-z0-9_]+$/;

export function isStockCode(value: unknown): value is StockCode {
  return typeof value === 'string' && (STOCK_CODES as readonly string[]).includes(value);
}

/**
 * A key that exists in the page's dictionary (so a made-up key from a URL is refused): `t` answers the
 * key itself for a key it does not know. The check runs against the dictionary the page has, so the
 * browser needs no other.
 */
export function isKnownKey(value: unknown, t: Translate): value is string {
  return typeof value === 'string' && KEY.test(value) && t(value) !== value;
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

/**
 * The i18n key of an API code (`errors.<CODE>`, en and am in libs/i18n), or undefined for a code the
 * dictionaries do not know. The API's English text is never read back into a key.
 */
export function codeKey(code: unknown): string | undefined {
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]{1,60}$/.test(code)) return undefined;
  const key = `errors.${code}`;
  return translate('en', key) !== key ? key : undefined;
}

export { codeParams };

/**
 * What to say after a failed API call: the stock code with its parameters, else the API's code as its
 * `errors.<CODE>` key, else the operation's fallback key. The API's own wording is never passed on as is.
 */
export function apiError(
  result: { code?: string; params?: unknown; message?: string },
  fallbackKey: string,
): Said {
  if (isStockCode(result.code)) {
    const params = stockParams(result.params);
    // a stock code without its product (or the 503 of an unavailable service) is worded by the operation
    return params.product ? { key: result.code, params } : { key: fallbackKey };
  }
  const key = codeKey(result.code);
  return key ? { key, params: codeParams(result.params) as MessageParams } : { key: fallbackKey };
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
      return isKnownKey(key, t) ? t(key, codeParams(params)) : t(fallbackKey);
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
  t: Translate,
): Said | null {
  const value = params.get(name);
  if (value === null) return null;
  if (isStockCode(value))
    return {
      key: value,
      params: { available: count(params.get('available')), inCart: count(params.get('inCart')) },
    };
  if (isKnownKey(value, t) && namespaces.includes(value.split('.')[0])) return { key: value };
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
 * a code and parameters (NOTICE_*); each known code is worded by the list's own key, anything else
 * becomes a generic translated notice.
 */
export function noticeSaid(
  notice: { type?: string; code?: string; params?: unknown },
  list: 'cart' | 'wishlist',
): Said {
  const p = stockParams(notice.params);
  if (p.product && notice.code === 'NOTICE_OUT_OF_STOCK_REMOVED')
    return { key: `${list}.noticeOutOfStock`, params: { product: p.product } };
  if (p.product && notice.code === 'NOTICE_UNAVAILABLE_REMOVED')
    return { key: `${list}.noticeRemoved`, params: { product: p.product } };
  if (p.product && p.available !== undefined && notice.code === 'NOTICE_QUANTITY_REDUCED')
    return { key: 'cart.noticeReduced', params: { product: p.product, available: p.available } };
  // a sale ended since the line was added: back at the regular price, which the line shows (docs/decisions/0095)
  if (notice.code === 'NOTICE_SALE_ENDED' || notice.type === 'repriced')
    return p.product
      ? { key: 'cart.noticeSaleEnded', params: { product: p.product } }
      : { key: 'cart.noticeSaleEndedGeneric' };
  return {
    key: notice.type === 'quantity_reduced' ? 'cart.noticeReducedGeneric' : `${list}.noticeRemovedGeneric`,
  };
}

/** The text of a notice (see noticeSaid) in the active language. */
export function sayNotice(t: Translate, said: Said): string {
  const p = stockParams(said.params);
  return isKnownKey(said.key, t)
    ? t(said.key, { product: p.product ?? '', available: p.available ?? 0 })
    : '';
}
