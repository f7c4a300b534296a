/// <reference lib="webworker" />
/**
 * The storefront's service worker (docs/decisions/0094-pwa.md), built by scripts/build-sw.mjs into
 * build/client/sw.js (served at /sw.js with `Cache-Control: no-cache`), with Workbox's modules:
 * - precache: the app shell (the build's scripts and styles, the fonts, icons, the offline pages);
 * - pages: network first (a short timeout), the seen copy offline, kept only when `public` (policy.ts);
 *   a page not seen: the shop's offline page in the page's language;
 * - images: cache first, bounded; the pages' texts at their version (`/i18n/<lang>?v=`): cache first;
 * - 'Add to cart' and the wishlist heart posted while offline: queued (queue.ts) and sent when the
 *   connection returns, each tap once (X-Shop-Tap-Key), the results told to the open pages.
 * Updates: no skipWaiting. A new version waits until no page of the old one is open, so an open page
 * keeps its scripts (the old precache stays until then).
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { clientsClaim } from 'workbox-core';
import {
  IMAGES_CACHE,
  IMAGE_MAX_AGE_S,
  MAX_IMAGES,
  MAX_PAGES,
  MAX_TEXTS,
  PAGES_CACHE,
  TEXTS_CACHE,
  PAGE_NETWORK_TIMEOUT_S,
  TAP_KEY_HEADER,
  isKeepableImage,
  isKeepablePage,
  isPersonalPath,
  isVersionedTexts,
  offlinePageFor,
  pageOfDataRequest,
  queuedKindOf,
} from './policy';
import { enqueue, flush, tapFrom, type QueuedTap, type TapResult } from './queue';
import { idbStore } from './idb-store';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: { url: string; revision: string | null }[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first version takes the open pages at once (none had a service worker). A later version only
// activates once no page of the old one is open (no skipWaiting), so claiming never swaps an open page's
// scripts.
clientsClaim();

// ---- pages ----
const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: PAGE_NETWORK_TIMEOUT_S,
  matchOptions: { ignoreVary: true },
  plugins: [
    {
      // a redirected answer (an old address sent to its new one) is not kept: a browser refuses it for a navigation
      cacheWillUpdate: async ({ response }) =>
        !response.redirected && isKeepablePage(response.status, response.headers) ? response : null,
    },
    new ExpirationPlugin({ maxEntries: MAX_PAGES }),
  ],
});

async function offlinePage(pathname: string): Promise<Response> {
  const page = offlinePageFor(pathname);
  return (await matchPrecache(page)) ?? new Response('Offline', { status: 503 });
}

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.origin === self.location.origin,
  async ({ request, event, url }) => {
    if (isPersonalPath(url.pathname)) {
      try {
        return await fetch(request);
      } catch {
        return offlinePage(url.pathname);
      }
    }
    try {
      return await pages.handle({ request, event });
    } catch {
      return offlinePage(url.pathname);
    }
  },
);

// ---- a client-side navigation's data request, offline: load the page itself (seen copy or offline page) ----
registerRoute(
  ({ request, url }) =>
    url.origin === self.location.origin && pageOfDataRequest(url, request.method) !== null,
  async ({ request, url }) => {
    try {
      return await fetch(request);
    } catch {
      const page = pageOfDataRequest(url, request.method) ?? '/';
      // Remix's document redirect (what `redirectDocument` answers to a data request)
      return new Response(null, {
        status: 204,
        headers: { 'X-Remix-Redirect': page, 'X-Remix-Status': '302', 'X-Remix-Reload-Document': 'true' },
      });
    }
  },
);

// ---- the pages' texts at their version (never change): cache first, so a kept page hydrates offline ----
registerRoute(
  ({ request, url }) => url.origin === self.location.origin && isVersionedTexts(url, request.method),
  new CacheFirst({
    cacheName: TEXTS_CACHE,
    plugins: [
      { cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) },
      new ExpirationPlugin({ maxEntries: MAX_TEXTS }),
    ],
  }),
);

// ---- images ----
registerRoute(
  ({ request }) => request.destination === 'image',
  new CacheFirst({
    cacheName: IMAGES_CACHE,
    plugins: [
      {
        cacheWillUpdate: async ({ response }) =>
          isKeepableImage(response.status, response.headers) ? response : null,
      },
      new ExpirationPlugin({
        maxEntries: MAX_IMAGES,
        maxAgeSeconds: IMAGE_MAX_AGE_S,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);

// ---- the offline taps ----
const pendingNotices: TapResult[] = [];

async function tell(message: unknown): Promise<void> {
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage(message);
}

function send(tap: QueuedTap): Promise<{ status: number; body: unknown }> {
  return fetch(tap.url, {
    method: 'POST',
    body: new URLSearchParams(tap.fields),
    headers: { [TAP_KEY_HEADER]: tap.key, Accept: 'application/json' },
    credentials: 'same-origin',
    redirect: 'manual',
  }).then(async (res) => ({
    status: res.type === 'opaqueredirect' ? 303 : res.status,
    body: /json/.test(res.headers.get('Content-Type') ?? '') ? await res.json().catch(() => null) : null,
  }));
}

let flushing: Promise<void> | null = null;
function flushTaps(): Promise<void> {
  flushing ??= flush(idbStore, send, Date.now())
    .then(async (results) => {
      if (results.length) await tell({ type: 'shop-taps-sent', results });
    })
    .catch(() => undefined)
    .finally(() => {
      flushing = null;
    });
  return flushing;
}

registerRoute(
  ({ request, url }) => url.origin === self.location.origin && queuedKindOf(url, request.method) !== null,
  async ({ request, url }) => {
    const copy = request.clone();
    try {
      const answer = await fetch(request);
      void flushTaps();
      return answer;
    } catch {
      const kind = queuedKindOf(url, request.method)!;
      const form = await copy.formData().catch(() => new FormData());
      const tap = tapFrom(kind, url.pathname, form.entries(), crypto.randomUUID(), Date.now());
      const kept = await enqueue(idbStore, tap);
      const said = { key: kept ? `pwa.queued.${kind}` : 'pwa.queueFull' };
      const wantsJson = url.searchParams.has('_data') || form.get('mode') === 'json';
      await tell({ type: 'shop-tap-queued', kind, kept });
      if (wantsJson)
        return new Response(JSON.stringify({ ok: false, queued: kept, said }), {
          status: 202,
          headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
        });
      const back = String(form.get('redirectTo') ?? '/');
      pendingNotices.push({ key: tap.key, kind, outcome: 'refused', said });
      return Response.redirect(
        new URL(back.startsWith('/') && !back.startsWith('//') ? back : '/', self.location.origin).href,
        303,
      );
    }
  },
  'POST',
);

/**
 * A page shown by a client-side navigation (its document was never fetched): fetched once as a document,
 * kept if it is `public` (a signed-in shopper's pages are `private, no-store`: never kept).
 */
async function keepSeenPage(address: string, event: ExtendableEvent): Promise<void> {
  const url = new URL(address, self.location.origin);
  if (url.origin !== self.location.origin || url.searchParams.has('_data') || isPersonalPath(url.pathname))
    return;
  const request = new Request(url.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
  await pages.handle({ request, event }).catch(() => undefined);
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string; url?: string } | null;
  if (data?.type === 'shop-seen' && typeof data.url === 'string')
    event.waitUntil(keepSeenPage(data.url!, event));
  if (data?.type === 'shop-flush') event.waitUntil(flushTaps());
  if (data?.type === 'shop-notices' && pendingNotices.length)
    event.source?.postMessage({ type: 'shop-tap-queued-notices', results: pendingNotices.splice(0) });
});

// Background Sync where the browser has it (Chromium): the taps are sent even with no page open.
self.addEventListener('sync', ((event: Event & { tag: string; waitUntil(p: Promise<unknown>): void }) => {
  if (event.tag === 'shop-taps') event.waitUntil(flushTaps());
}) as EventListener);
