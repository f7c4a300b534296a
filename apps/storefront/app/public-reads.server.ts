/**
 * The API's public reads (products, a product, reviews, public settings) for the pages of a signed-in
 * shopper or a guest with a cart (docs/decisions/0099-signed-in-pages.md).
 *
 * They are asked anonymously: those answers do not depend on who asks, and the API answers an anonymous
 * read from its hot cache (a request with a token or a cart id is never answered from it). Their bytes are
 * kept here by address, as the API answered them with their ETag: for `freshMs` after the API answered or
 * confirmed them they are used as they are, then asked again with `If-None-Match` (a 304 confirms them).
 * Only public answers are kept: the client made here sends no token, no cart id, no cookie, and what the
 * shopper's own session reads (account, cart, wishlist) never goes through it.
 *
 * A write through the storefront (any non-GET call to the API) makes every kept answer be asked again
 * before it is used, so that a shopper sees what they just did (a review, for instance).
 */

export interface PublicReadsOptions {
  /** How long an answer is used without asking the API again (ms); 0: asked every time (conditionally). */
  freshMs: number;
  /** At most this many answers are kept (the least recently used one goes). */
  maxEntries: number;
  /** At most this many bytes per answer (a larger one is not kept). */
  maxBytes: number;
  now?: () => number;
  /** The fetch that reaches the API (default: the global one, read at call time). */
  fetch?: typeof fetch;
}

interface Entry {
  etag: string;
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  /** when the API last answered or confirmed it */
  checkedAt: number;
}

/** Headers that describe the bytes as sent, not as kept (the body is kept decoded). */
const DROPPED_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

export function publicReadsConfig(env: Record<string, string | undefined>): PublicReadsOptions {
  const fresh = env.PUBLIC_READS_FRESH_MS;
  const freshMs = fresh === undefined || fresh === '' ? 250 : Number(fresh);
  if (!Number.isInteger(freshMs) || freshMs < 0 || freshMs > 60_000)
    throw new Error(`PUBLIC_READS_FRESH_MS must be an integer from 0 to 60000 (ms), got "${fresh}"`);
  return { freshMs, maxEntries: 1000, maxBytes: 512 * 1024 };
}

/** A fetch for anonymous GETs of public answers that keeps them (see above); other requests pass through. */
export function createPublicReads(options: PublicReadsOptions) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  /** answers confirmed before this moment are asked again before use (a write happened) */
  let writtenAt = -Infinity;
  const inFlight = new Map<string, Promise<Entry | Response>>();
  const stats = { fresh: 0, confirmed: 0, fetched: 0, passed: 0 };

  const reach = (input: Request | string, init?: RequestInit) =>
    (options.fetch ?? globalThis.fetch)(input, init);

  function keep(url: string, entry: Entry) {
    entries.delete(url);
    entries.set(url, entry);
    while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
  }

  function answer(entry: Entry): Response {
    return new Response(entry.body.slice(0), { status: entry.status, headers: entry.headers });
  }

  async function ask(request: Request, kept: Entry | undefined): Promise<Entry | Response> {
    const headers = new Headers(request.headers);
    if (kept) headers.set('If-None-Match', kept.etag);
    const asked = now();
    const response = await reach(request.url, { method: 'GET', headers });
    if (kept && response.status === 304) {
      await response.arrayBuffer().catch(() => undefined);
      const confirmed = { ...kept, checkedAt: asked };
      if (entries.get(request.url) === kept) keep(request.url, confirmed);
      stats.confirmed++;
      return confirmed;
    }
    const etag = response.headers.get('etag');
    if (
      response.status !== 200 ||
      !etag ||
      /\b(no-store|private)\b/i.test(response.headers.get('cache-control') ?? '')
    ) {
      entries.delete(request.url);
      stats.passed++;
      return response;
    }
    const body = await response.arrayBuffer();
    const entry: Entry = {
      etag,
      status: response.status,
      headers: [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase())),
      body,
      checkedAt: asked,
    };
    if (body.byteLength <= options.maxBytes) keep(request.url, entry);
    else entries.delete(request.url);
    stats.fetched++;
    return entry;
  }

  const publicFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (request.method !== 'GET' || request.headers.has('Authorization') || request.headers.has('Cookie'))
      return reach(request);
    const url = request.url;
    const kept = entries.get(url);
    if (kept && kept.checkedAt > writtenAt && now() - kept.checkedAt < options.freshMs) {
      stats.fresh++;
      return answer(kept);
    }
    // one question per address at a time: concurrent pages share its answer
    let pending = inFlight.get(url);
    if (!pending) {
      pending = ask(request, kept).finally(() => inFlight.delete(url));
      inFlight.set(url, pending);
      const got = await pending;
      return got instanceof Response ? got : answer(got);
    }
    const got = await pending;
    // an answer that was not kept (an error, no ETag) cannot be shared: this page asks for itself
    return got instanceof Response ? reach(request) : answer(got);
  };

  return {
    fetch: publicFetch,
    /** A write went to the API: every kept answer is asked again before it is used. */
    written() {
      writtenAt = now();
    },
    stats,
    size: () => entries.size,
  };
}

export type PublicReads = ReturnType<typeof createPublicReads>;
