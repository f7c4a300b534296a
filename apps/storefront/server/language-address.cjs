'use strict';
/**
 * The language in the address (docs/decisions/0092-language-in-the-address.md). Amharic pages live under
 * `/am/…`, English ones at the root. This middleware, before the page cache:
 * - sends a person whose remembered choice (the `language=am` cookie) is Amharic from any English page
 *   address to its Amharic twin (302, `private, no-store`: the answer depends on the cookie, so no cache
 *   keeps it); never a crawler (isbot), never a request that is not a page visit (data, assets, forms);
 * - keeps an Amharic request's redirects in Amharic: an action or loader under `/am/` that redirects to an
 *   English address of the shop (`/cart`, `/signin?…`) sends the visitor to `/am/cart`, `/am/signin?…`.
 *   The language switch itself (`/am/language`) is the one that may leave Amharic.
 * - carries `Save-Data: on` across its own redirect: a browser computes Save-Data again for each hop of a
 *   navigation, and one that added it only to the first hop (Chromium drops a header added by DevTools or
 *   automation on a redirect) would land on `/am/` with the full-size photos. The redirect of such a request
 *   sets a short-lived `save-data` cookie, and a request carrying it is handed on with the `Save-Data`
 *   header instead of the cookie, so the page cache and the page see what a data-saving browser sends
 *   (docs/decisions/0100-save-data-and-page-weight.md).
 */
const { createIsbotFromList, list } = require('isbot');

// Crawlers (isbot's list) get the address they asked for. A headless browser is not taken for one: it is
// a person's automation (the shop's own browser tests, a prerenderer), and Google's renderer says Googlebot.
const isCrawler = createIsbotFromList(list.filter((pattern) => !/headless/i.test(pattern)));

/** Addresses that are no page in a language (resources, actions answered by a redirect of their own). */
const NOT_PAGES =
  /^\/(api|build|assets|icons|i18n|metrics|language|logout|cart\/add|wishlist\/toggle|search\/suggestions|payment\/callback|sitemap\.xml|robots\.txt|sw\.js|manifest\.webmanifest|favicon\.[a-z]+)(?=$|[/?#])/;
const AMHARIC = /^\/am(?=$|[/?#])/;
/** The cookie that carries Save-Data across the remembered-language redirect (seconds it lives). */
const SAVE_DATA_COOKIE = 'save-data';
const SAVE_DATA_COOKIE_SECONDS = 30;

/** The same address in Amharic: `/` is `/am/`, `/cart?x=1` is `/am/cart?x=1` (libs/shared localePath). */
function amharicTwin(path) {
  return AMHARIC.test(path) ? path : `/am${path}`;
}

function cookieLanguage(header) {
  const value = Array.isArray(header) ? header.join(';') : String(header ?? '');
  const match = /(?:^|;\s*)language=([^;]*)/.exec(value);
  return match ? match[1].trim() : '';
}

/**
 * Whether a request is a person opening a page (not a data request of a client-side navigation, not an
 * asset). A page the service worker fetches for a navigation (docs/decisions/0094-pwa.md) comes with
 * `Sec-Fetch-Dest: empty` but the navigation's `Accept: text/html`: it is a page visit too.
 */
function isPageVisit(req) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const dest = req.headers['sec-fetch-dest'];
  if (dest === 'document') return true;
  if (dest !== undefined && dest !== 'empty') return false;
  return /text\/html/.test(String(req.headers.accept ?? ''));
}

function saysSaveData(headers) {
  return /^on$/i.test(String(headers['save-data'] ?? '').trim());
}

/**
 * A request with the `save-data=on` cookie (set by the redirect below) goes on with `Save-Data: on` and
 * without that cookie: the page cache keys it as a data-saving anonymous visit, not as a personal one.
 */
function saveDataFromCookie(req) {
  const header = req.headers.cookie;
  if (header === undefined) return;
  const parts = (Array.isArray(header) ? header.join(';') : String(header)).split(';');
  const kept = parts.filter((part) => part.split('=')[0].trim() !== SAVE_DATA_COOKIE);
  if (kept.length === parts.length) return;
  const said = parts.some((part) => {
    const eq = part.indexOf('=');
    return eq > 0 && part.slice(0, eq).trim() === SAVE_DATA_COOKIE && part.slice(eq + 1).trim() === 'on';
  });
  const rest = kept.map((part) => part.trim()).filter(Boolean);
  if (rest.length) req.headers.cookie = rest.join('; ');
  else delete req.headers.cookie;
  if (said && !saysSaveData(req.headers)) req.headers['save-data'] = 'on';
}

/** Where a visitor who chose Amharic goes from this English address, or null to answer it as it is. */
function rememberedLanguageRedirect(req) {
  const url = req.originalUrl ?? req.url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (AMHARIC.test(path) || NOT_PAGES.test(path) || /\.[A-Za-z0-9]+$/.test(path)) return null;
  if (q >= 0 && new URLSearchParams(url.slice(q + 1)).has('_data')) return null;
  if (!isPageVisit(req) || cookieLanguage(req.headers.cookie) !== 'am') return null;
  if (isCrawler(String(req.headers['user-agent'] ?? ''))) return null;
  return amharicTwin(url);
}

/** An Amharic request's redirect target: a same-site English page address becomes its Amharic twin. */
function localizedLocation(requestPath, location) {
  if (
    typeof location !== 'string' ||
    !AMHARIC.test(requestPath) ||
    /^\/am\/language(?=$|[/?#])/.test(requestPath)
  )
    return location;
  if (!location.startsWith('/') || location.startsWith('//') || location.startsWith('/\\')) return location;
  if (AMHARIC.test(location) || NOT_PAGES.test(location)) return location;
  return amharicTwin(location);
}

function languageAddress(req, res, next) {
  saveDataFromCookie(req);
  const target = rememberedLanguageRedirect(req);
  if (target) {
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Vary', 'Cookie, Save-Data');
    if (saysSaveData(req.headers))
      res.append(
        'Set-Cookie',
        `${SAVE_DATA_COOKIE}=on; Max-Age=${SAVE_DATA_COOKIE_SECONDS}; Path=/; HttpOnly; SameSite=Lax`,
      );
    return res.redirect(302, target);
  }
  const url = req.originalUrl ?? req.url;
  const path = url.split('?')[0];
  if (AMHARIC.test(path)) {
    const setHeader = res.setHeader;
    res.setHeader = function (name, value) {
      const lower = String(name).toLowerCase();
      if (lower === 'location' || lower === 'x-remix-redirect')
        return setHeader.call(this, name, localizedLocation(path, value));
      return setHeader.call(this, name, value);
    };
  }
  return next();
}

module.exports = {
  amharicTwin,
  isCrawler,
  languageAddress,
  localizedLocation,
  rememberedLanguageRedirect,
  saveDataFromCookie,
};
