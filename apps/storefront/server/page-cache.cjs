'use strict';
/**
 * The storefront's page cache (docs/decisions/0087-page-cache.md). Pages that are the same for every
 * anonymous visitor (home, catalogue and search, product, the static pages) are rendered once per URL
 * and language, kept pre-compressed (brotli, gzip and the bytes themselves) in a memory bounded by bytes
 * and entries (least recently used first out), and answered as one buffer write with a strong ETag
 * (304 on If-None-Match) and a Cache-Control a CDN may follow. A request that carries anything personal
 * (a session, a guest cart, an order token, a flash message in its query) is rendered for itself and
 * marked `private, no-store`, and what it renders is never kept.
 *
 * When to render again: a render notes the API answers its loaders read (URL and ETag). An entry is
 * served as it is for PAGE_CACHE_CHECK_MS after it was confirmed; the first request after that waits for
 * one check (conditional GETs of those API answers, one per answer and interval for all pages):
 * unchanged, the entry is confirmed again; changed, the page is rendered again and that request gets the
 * new page. Only a check slower than REVALIDATE_WAIT_MS (or failing: the API is away) serves the kept page. A page
 * whose render read something without an ETag, or is older than a minute, is rendered again at its check.
 * One render or check per page at a time: concurrent misses wait for it (single-flight).
 *
 * A shopper's kept pages (docs/decisions/0107-personal-pages-from-the-kept-page.md):
 * a *template* of the page is kept beside it (rendered once, checked and renewed the same way), which
 * holds every form of its personal places; the build's `personalPage` writes the shopper's forms and
 * fields into it (one API call, as the root loader makes) instead of a render per request. Such a page is
 * still `private, no-store`; PAGE_CACHE_PERSONAL=off renders it per request as before.
 */
const { AsyncLocalStorage } = require('node:async_hooks');
const { createHash } = require('node:crypto');
const { promisify } = require('node:util');
const zlib = require('node:zlib');

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What a CDN may do with an anonymous page: keep it a minute, serve it stale for 5 more while it asks again. */
const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=300';
const PRIVATE_CACHE_CONTROL = 'private, no-store';
// Save-Data: a phone that asks to save data gets its own page (small photos, no auto-advancing slider)
const VARY = 'Accept-Encoding, Cookie, Save-Data';

/**
 * The pages kept (the optional /am prefix: the Amharic addresses, when they exist). Their personal places
 * (the header, the product cards, the product page's in-cart line and review forms) all have their forms in
 * a template, so a shopper's page of them is written into one (docs/decisions/0107).
 */
const CACHED_PAGES = [
  /^(\/am)?\/?$/,
  /^(\/am)?\/products$/,
  /^(\/am)?\/product\/[A-Za-z0-9_-]{1,64}$/,
  /^(\/am)?\/(about|faq|shipping|contact)$/,
];
/** What a template's render gives Remix as its load context (app/shopper-fields.server.ts). */
const PAGE_TEMPLATE = Symbol.for('shop.pageTemplate');
/** Query parameters that carry a message for one visitor (app/apiMessages.ts's flashes, the review notice). */
const FLASH_PARAMS = new Set(['added', 'cartError', 'available', 'inCart', 'reviewError', 'review']);
/** Campaign and click ids: left out of the key and of the URL the page is rendered for. */
const TRACKING_PARAM =
  /^(utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|igshid|mc_cid|mc_eid|_ga|_gl)$/i;
/** The one cookie an anonymous page depends on (app/language.ts, read by the root loader). */
const LANGUAGE_COOKIE = /^(en|am)$/;
const HOST = /^([A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/;
const MAX_PATH = 256;
const MAX_QUERY = 1024;
/** Headers of the rendered answer not replayed from the entry (this module sets its own, or they are per answer). */
const NOT_KEPT = new Set([
  'set-cookie',
  'cache-control',
  'vary',
  'etag',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'x-request-id',
]);
/** An entry is rendered again, whatever its API answers say, once this old (the footer's year, say). */
const MAX_AGE_MS = 60_000;
/** How long a request waits for its page's check (and render) before it gets the kept page as it is. */
const REVALIDATE_WAIT_MS = 2_000;
/** How long a kept page may be served while its check or render runs (or fails: the API is away). */
const MAX_STALE_MS = 300_000;
const BROTLI_QUALITY = 5;

class PageCacheConfigError extends Error {}

function readInt(env, name, fallback, min, max) {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new PageCacheConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

function readSwitch(env, name, fallback) {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new PageCacheConfigError(`${name} must be on or off (got "${env[name]}")`);
}

/**
 * PAGE_CACHE_MAX_BYTES (64 MiB by default; 0 turns the cache off: every page rendered per request, as
 * before), PAGE_CACHE_MAX_ENTRIES (5,000), PAGE_CACHE_CHECK_MS (250: how long a page is served
 * before its API answers are checked again) and PAGE_CACHE_PERSONAL (on: a shopper's home, catalogue,
 * product and static pages are written into a kept template; off: rendered per request). Refused at
 * start when out of range.
 */
function pageCacheConfig(env = process.env) {
  return {
    maxBytes: readInt(env, 'PAGE_CACHE_MAX_BYTES', 64 * 1024 * 1024, 0, 2 ** 31),
    maxEntries: readInt(env, 'PAGE_CACHE_MAX_ENTRIES', 5000, 1, 1_000_000),
    checkMs: readInt(env, 'PAGE_CACHE_CHECK_MS', 250, 50, 60_000),
    personal: readSwitch(env, 'PAGE_CACHE_PERSONAL', true),
  };
}

function cookieNames(header) {
  const names = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (name) names.push([name, eq < 0 ? '' : part.slice(eq + 1).trim()]);
  }
  return names;
}

/**
 * What a request is to the cache: `pass` (not a kept page: answered as before, `private, no-store`
 * unless the page says otherwise), `personal` (a kept page, but for this visitor only; with `template`,
 * the template its page is written into) or `cached`, with its key, the URL it is rendered for and its
 * language cookie.
 */
function classify(req) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return { kind: 'pass' };
  const url = req.originalUrl ?? req.url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  if (path.length > MAX_PATH || !CACHED_PAGES.some((page) => page.test(path))) return { kind: 'pass' };
  if (query.length > MAX_QUERY) return { kind: 'personal' };
  let personal = req.headers.authorization !== undefined;
  let lang = '';
  const cookie = req.headers.cookie;
  if (cookie) {
    let languages = 0;
    for (const [name, value] of cookieNames(Array.isArray(cookie) ? cookie.join(';') : cookie)) {
      // anything but the language (a session, a guest cart, an order token, a paying order...) is personal
      if (name !== 'language') personal = true;
      else {
        languages++;
        lang = LANGUAGE_COOKIE.test(value) ? value : '';
      }
    }
    if (languages > 1) return { kind: 'personal' };
  }
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const [name, value] of params) {
    if (name === '_data' || name === 'index') return { kind: 'pass' };
    if (FLASH_PARAMS.has(name)) return { kind: 'personal' };
    if (!TRACKING_PARAM.test(name)) kept.append(name, value);
  }
  const search = kept.size ? `?${kept}` : '';
  const host = String(req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost');
  // a host that is no host name (a list, spaces): rendered per request as before, never a key
  if (!HOST.test(host)) return { kind: personal ? 'personal' : 'pass' };
  const proto = req.protocol === 'https' ? 'https' : 'http';
  const origin = `${proto}://${host}`;
  const saveData = /^on$/i.test(String(req.headers['save-data'] ?? '').trim());
  const page = {
    kind: 'cached',
    key: `${lang || '-'}${saveData ? ' save-data' : ''} ${origin}${path}${search}`,
    url: `${origin}${path}${search}`,
    lang,
    saveData,
  };
  return personal
    ? { kind: 'personal', template: { ...page, kind: 'template', key: `template ${page.key}` } }
    : page;
}

/** The best coding the client accepts of those kept: br, then gzip, then the bytes themselves. */
function chooseEncoding(header) {
  if (typeof header !== 'string' || !header) return 'identity';
  const accepted = new Map();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), qParam ? Number(qParam.slice(2)) : 1);
  }
  const ok = (name) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

const ETAG_SUFFIX = { identity: '', br: '-br', gzip: '-gz' };

/** Whether If-None-Match names this page in any of its codings (a client keeps the decoded page). */
function etagMatches(header, hash) {
  if (typeof header !== 'string') return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const bare = tag.trim().replace(/^W\//, '');
    return bare === `"${hash}"` || bare === `"${hash}-br"` || bare === `"${hash}-gz"`;
  });
}

/** Entries in least-recently-used order, bounded by their total bytes and their number. */
class ByteLru {
  constructor(maxBytes, maxEntries) {
    this.maxBytes = maxBytes;
    this.maxEntries = maxEntries;
    this.bytes = 0;
    this.map = new Map();
    this.evictions = 0;
  }
  get size() {
    return this.map.size;
  }
  get(key) {
    const entry = this.map.get(key);
    if (entry) {
      this.map.delete(key);
      this.map.set(key, entry);
    }
    return entry;
  }
  peek(key) {
    return this.map.get(key);
  }
  /** Keeps `entry` (of `entry.bytes`), dropping the least recently used until both bounds hold. */
  set(key, entry) {
    this.delete(key);
    if (entry.bytes > this.maxBytes) return false;
    this.map.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldKey, old] of this.map) {
      if (this.bytes <= this.maxBytes && this.map.size <= this.maxEntries) break;
      this.map.delete(oldKey);
      this.bytes -= old.bytes;
      this.evictions++;
    }
    return true;
  }
  delete(key) {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.bytes -= old.bytes;
  }
}

/** Sets `Cache-Control` just before the head is written, unless the page set one itself. */
function cacheControlUnlessSet(res, value, force = false) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (force || !res.getHeader('cache-control')) res.setHeader('Cache-Control', value);
    if (force) res.removeHeader('ETag');
    return writeHead.apply(this, args);
  };
}

/**
 * The cache: `middleware` goes just before the Remix handler. `render({ url, lang })` answers
 * `{ status, headers, body, deps, tracked, degraded }` (remixRenderer below); `current(deps)` whether
 * the API answers a page was rendered from are unchanged (apiChecker below).
 */
function createPageCache({
  maxBytes,
  maxEntries,
  checkMs,
  render,
  current,
  personalPage,
  logger,
  now = Date.now,
}) {
  const lru = new ByteLru(maxBytes, maxEntries);
  const flights = new Map();
  const counts = {
    hit: 0,
    revalidated: 0,
    stale: 0,
    miss: 0,
    shared: 0,
    personal: 0,
    templated: 0,
    pass: 0,
    renders: 0,
    checks: 0,
  };
  const maxEntryBytes = Math.max(1, Math.floor(maxBytes / 8));

  async function makeEntry(result, previous, template) {
    const hash = createHash('sha256').update(result.body).digest('base64url').slice(0, 32);
    const headers = [];
    for (const [name, value] of result.headers)
      if (!NOT_KEPT.has(name.toLowerCase())) headers.push([name, value]);
    const at = now();
    // a template is never sent as it is: kept as text, for personalPage to write into
    if (template) {
      const text = result.body.toString('utf8');
      const bytes = text.length * 2 + 1024;
      return {
        hash,
        headers,
        text,
        bytes,
        deps: result.deps,
        tracked: result.tracked,
        renderedAt: at,
        confirmedAt: at,
      };
    }
    if (previous && previous.hash === hash)
      return {
        ...previous,
        headers,
        deps: result.deps,
        tracked: result.tracked,
        renderedAt: at,
        confirmedAt: at,
      };
    const [br, gz] = await Promise.all([
      brotli(result.body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: result.body.length,
        },
      }),
      gzip(result.body, { level: 9 }),
    ]);
    const bytes = result.body.length + br.length + gz.length + 1024;
    return {
      hash,
      headers,
      identity: result.body,
      br,
      gzip: gz,
      bytes,
      deps: result.deps,
      tracked: result.tracked,
      renderedAt: at,
      confirmedAt: at,
    };
  }

  function storable(result) {
    const type = String(result.headers.get('content-type') ?? '');
    const control = String(result.headers.get('cache-control') ?? '');
    return (
      result.status === 200 &&
      !result.degraded &&
      !result.headers.has('set-cookie') &&
      !/private|no-store/i.test(control) &&
      type.startsWith('text/html') &&
      result.body.length <= maxEntryBytes
    );
  }

  /** Renders `page` and keeps it when it may be kept; on a failed render, a kept page stays. */
  async function renderAndKeep(page, previous) {
    counts.renders++;
    const result = await render(page);
    if (storable(result)) {
      const entry = await makeEntry(result, previous, page.kind === 'template');
      if (lru.set(page.key, entry)) return { entry };
      return { entry, unkept: true };
    }
    if (previous && result.degraded) return { entry: previous, degraded: true };
    lru.delete(page.key);
    return { result };
  }

  /** One flight per key: a render (miss), or a check then perhaps a render (a kept page's revalidation). */
  function fly(key, work) {
    let flight = flights.get(key);
    if (flight) return { flight, mine: false };
    flight = work().finally(() => flights.delete(key));
    flights.set(key, flight);
    return { flight, mine: true };
  }

  function revalidate(page, entry) {
    const { flight } = fly(page.key, async () => {
      const started = now();
      if (entry.tracked && started - entry.renderedAt < MAX_AGE_MS) {
        counts.checks++;
        let unchanged = false;
        try {
          unchanged = await current(entry.deps);
        } catch {
          unchanged = false;
        }
        if (unchanged) {
          entry.confirmedAt = started;
          return { entry };
        }
      }
      return renderAndKeep(page, entry);
    });
    flight.catch((error) => logger?.warn?.({ err: error }, 'page cache: revalidation failed'));
    return flight;
  }

  function sendEntry(req, res, entry, state) {
    counts[state]++;
    const coding = chooseEncoding(req.headers['accept-encoding']);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
    res.setHeader('Vary', VARY);
    res.setHeader('ETag', `"${entry.hash}${ETAG_SUFFIX[coding]}"`);
    res.setHeader('X-Page-Cache', state);
    if (etagMatches(req.headers['if-none-match'], entry.hash)) {
      res.removeHeader('Content-Type');
      res.statusCode = 304;
      res.end();
      return;
    }
    const body = entry[coding];
    res.statusCode = 200;
    if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
    res.setHeader('Content-Length', body.length);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  }

  /** A page rendered for the cache but not kept (degraded, or too large): sent as rendered, private. */
  function sendResult(req, res, result) {
    res.statusCode = result.status;
    for (const [name, value] of result.headers)
      if (!NOT_KEPT.has(name.toLowerCase()) || name.toLowerCase() === 'cache-control')
        res.append(name, value);
    if (!res.getHeader('cache-control')) res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    res.setHeader('X-Page-Cache', 'uncached');
    if (req.method === 'HEAD') res.end();
    else res.end(result.body);
  }

  /**
   * The kept template of a page (rendered, or checked and renewed, as a kept page is); undefined when
   * there is none. Never a stale one: when its check is slow or fails, the shopper's page is rendered
   * for the request, as it was before templates (their own review, just written, is on it).
   */
  async function templateOf(page) {
    const entry = lru.get(page.key);
    const at = now();
    if (entry && at - entry.confirmedAt < checkMs) return entry;
    if (entry && at - entry.confirmedAt < MAX_STALE_MS) {
      const outcome = await Promise.race([
        revalidate(page, entry).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, REVALIDATE_WAIT_MS).unref()),
      ]);
      return outcome?.entry && !outcome.degraded ? outcome.entry : undefined;
    }
    const { flight } = fly(page.key, () => renderAndKeep(page, entry));
    return (await flight).entry;
  }

  /** A shopper's page written into its template (personalPage); false when it must be rendered instead. */
  async function sendTemplated(req, res, page) {
    let html = null;
    let entry;
    try {
      entry = await templateOf(page);
      if (entry) html = await personalPage(entry.text, fetchRequest(req, page.url));
    } catch (error) {
      logger?.warn?.({ err: error }, 'page cache: personal page from its template failed');
      return false;
    }
    if (html === null) return false;
    counts.templated++;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    res.setHeader('X-Page-Cache', 'personal-template');
    // as Remix's Express adapter sends a rendered page
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.statusCode = 200;
    if (req.method === 'HEAD') res.end();
    else res.end(html);
    return true;
  }

  async function middleware(req, res, next) {
    const page = classify(req);
    if (page.kind === 'pass') {
      counts.pass++;
      cacheControlUnlessSet(res, PRIVATE_CACHE_CONTROL);
      return next();
    }
    if (page.kind === 'personal') {
      if (page.template && personalPage && (await sendTemplated(req, res, page.template))) return;
      counts.personal++;
      res.setHeader('X-Page-Cache', 'personal');
      cacheControlUnlessSet(res, PRIVATE_CACHE_CONTROL, true);
      return next();
    }
    const entry = lru.get(page.key);
    const at = now();
    if (entry && at - entry.confirmedAt < checkMs) return sendEntry(req, res, entry, 'hit');
    if (entry && at - entry.confirmedAt < MAX_STALE_MS) {
      // the request waits for the check (a conditional GET of each API answer, a render if one moved), so
      // a change the API already answers is on the next page; the kept page only if the check is slow or fails
      const outcome = await Promise.race([
        revalidate(page, entry).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, REVALIDATE_WAIT_MS).unref()),
      ]);
      if (outcome?.entry)
        return sendEntry(req, res, outcome.entry, outcome.degraded ? 'stale' : 'revalidated');
      if (outcome?.result) {
        // no longer a page to keep (withdrawn, an error): rendered for this request
        cacheControlUnlessSet(res, PRIVATE_CACHE_CONTROL);
        return next();
      }
      return sendEntry(req, res, entry, 'stale');
    }
    const { flight, mine } = fly(page.key, () => renderAndKeep(page, entry));
    let outcome;
    try {
      outcome = await flight;
    } catch (error) {
      // the render for the cache failed: the request is rendered for itself, as before the cache
      logger?.warn?.({ err: error }, 'page cache: render failed');
      cacheControlUnlessSet(res, PRIVATE_CACHE_CONTROL);
      return next();
    }
    if (outcome.entry) return sendEntry(req, res, outcome.entry, mine ? 'miss' : 'shared');
    // not kept: a degraded page goes to its renderer; anything else (a 404 that links back to the Referer, a
    // redirect, a cookie) and every waiter is rendered again for the request itself
    const { result } = outcome;
    if (mine && result.status === 200 && !result.headers.has('set-cookie'))
      return sendResult(req, res, result);
    cacheControlUnlessSet(res, PRIVATE_CACHE_CONTROL);
    return next();
  }

  return { middleware, lru, counts, flights };
}

/** What a render read of the API: `deps` (URL, headers, ETag), whether all had an ETag, whether any failed. */
const recorder = new AsyncLocalStorage();
const RECORDED_HEADERS = ['accept', 'accept-language'];

/**
 * Wraps the global fetch (once) so that a render's API calls are noted: a GET answered with an ETag is a
 * dependency; a write, an answer without an ETag, or a failure (thrown, 5xx) marks the render.
 */
function recordApiCalls() {
  const original = globalThis.fetch;
  if (original.pageCacheRecording) return original.pageCacheOriginal;
  const recording = async function (input, init) {
    const note = recorder.getStore();
    if (!note) return original(input, init);
    const method = String(
      init?.method ?? (typeof input === 'object' && input?.method) ?? 'GET',
    ).toUpperCase();
    let response;
    try {
      response = await original(input, init);
    } catch (error) {
      note.degraded = true;
      throw error;
    }
    if (response.status >= 500) note.degraded = true;
    const etag = response.headers.get('etag');
    if (method !== 'GET' || !etag) note.tracked = false;
    else {
      const url = typeof input === 'string' ? input : String(input?.url ?? input);
      const source = new Headers(init?.headers ?? (typeof input === 'object' ? input?.headers : undefined));
      const headers = {};
      for (const name of RECORDED_HEADERS) if (source.has(name)) headers[name] = source.get(name);
      note.deps.push({ url, headers, etag });
    }
    return response;
  };
  recording.pageCacheRecording = true;
  recording.pageCacheOriginal = original;
  globalThis.fetch = recording;
  return original;
}

/** The user agent of a render for the cache: a bot to Remix's entry, so the whole page is rendered before it is sent. */
const RENDER_AGENT = 'shop-page-cache-bot/1';

/**
 * Renders a page as an anonymous visitor with only its language cookie and Save-Data (`handle`: Remix's
 * request handler); a template (`kind: 'template'`) with the load context that tells the root loader so.
 */
function remixRenderer(handle) {
  return async ({ kind, url, lang, saveData }) => {
    const headers = new Headers({ Accept: 'text/html', 'User-Agent': RENDER_AGENT });
    if (lang) headers.set('Cookie', `language=${lang}`);
    if (saveData) headers.set('Save-Data', 'on');
    const note = { deps: [], tracked: true, degraded: false };
    const context = kind === 'template' ? { [PAGE_TEMPLATE]: true } : undefined;
    const response = await recorder.run(note, () => handle(new Request(url, { headers }), context));
    const body = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      headers: response.headers,
      body,
      deps: note.deps,
      tracked: note.tracked,
      degraded: note.degraded,
    };
  };
}

/** The Fetch request of an Express request, for the build's functions (its headers as they came). */
function fetchRequest(req, url) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return new Request(url, { headers });
}

/**
 * Whether the API answers a page was rendered from are unchanged: a conditional GET per answer
 * (If-None-Match), at most one per answer per `checkMs` for all pages, concurrent ones shared.
 */
function apiChecker({ checkMs, fetch = globalThis.fetch, now = Date.now }) {
  const probes = new Map();
  async function probe(dep) {
    const key = `${dep.url}\n${JSON.stringify(dep.headers)}`;
    const known = probes.get(key);
    const at = now();
    if (known && (known.pending || at - known.at < checkMs)) return (await known.pending) ?? known.etag;
    if (probes.size > 20_000) probes.clear();
    const pending = fetch(dep.url, { headers: { ...dep.headers, 'If-None-Match': dep.etag } }).then(
      async (response) => {
        await response.arrayBuffer().catch(() => undefined);
        if (response.status === 304) return dep.etag;
        return response.status < 500 ? response.headers.get('etag') : null;
      },
    );
    const record = { at, etag: undefined, pending };
    probes.set(key, record);
    try {
      record.etag = await pending;
    } catch {
      record.etag = null;
    } finally {
      record.pending = undefined;
    }
    return record.etag;
  }
  return async (deps) => {
    const etags = await Promise.all(deps.map(probe));
    return etags.every((etag, i) => etag === deps[i].etag);
  };
}

module.exports = {
  apiChecker,
  ByteLru,
  chooseEncoding,
  classify,
  createPageCache,
  etagMatches,
  PageCacheConfigError,
  pageCacheConfig,
  PRIVATE_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  recordApiCalls,
  recorder,
  remixRenderer,
  VARY,
};
