/**
 * What the service worker may keep and how it answers when the network is gone
 * (docs/decisions/0094-pwa.md). Pure functions: sw.ts wires them to Workbox, policy.test.ts checks them.
 */

/** The pages' cache: pages a shopper has seen, readable offline (only anonymous, `public` answers). */
export const PAGES_CACHE = 'shop-pages-v1';
/** Images (product photos, hero): cache-first, bounded. */
export const IMAGES_CACHE = 'shop-images-v1';
/**
 * The pages' texts at their versioned address (`/i18n/<lang>?v=…`, docs/decisions/0104): cache-first, so
 * that a page kept for offline reading hydrates offline; a page puts its own in too (pwa.client.ts).
 */
export const TEXTS_CACHE = 'shop-texts-v1';
export const MAX_TEXTS = 4;
export const MAX_PAGES = 60;
export const MAX_IMAGES = 200;
export const IMAGE_MAX_AGE_S = 30 * 24 * 3600;
/** How long a page waits for the network before the seen copy is shown. */
export const PAGE_NETWORK_TIMEOUT_S = 4;

/** The offline pages, one per language (app/routes/offline.tsx, app/routes/am.offline.tsx). */
export const OFFLINE_PAGES = { en: '/offline', am: '/am/offline' } as const;
export type PageLanguage = keyof typeof OFFLINE_PAGES;

/** The form posts queued while offline: add to cart and the wishlist heart. */
export const QUEUED_ACTIONS = { '/cart/add': 'cart', '/wishlist/toggle': 'wishlist' } as const;
export type QueuedKind = (typeof QUEUED_ACTIONS)[keyof typeof QUEUED_ACTIONS];

/** Header naming one tap, so that a tap sent twice (the answer lost on the way) is carried out once. */
export const TAP_KEY_HEADER = 'X-Shop-Tap-Key';

interface HeadersLike {
  get(name: string): string | null;
}

/**
 * A page answer the service worker may keep: 200, HTML, `Cache-Control` saying `public`, and nothing
 * saying it is one visitor's (`private`, `no-store`, `no-cache` with a cookie being set). The storefront's
 * page cache marks every page that carries a session, a guest cart or a flash `private, no-store`
 * (server/page-cache.cjs), so nothing personal is kept, nor shown to the next account on this phone.
 */
export function isKeepablePage(status: number, headers: HeadersLike): boolean {
  if (status !== 200) return false;
  if (!/^text\/html\b/i.test(headers.get('Content-Type') ?? '')) return false;
  if (headers.get('Set-Cookie')) return false;
  const directives = (headers.get('Cache-Control') ?? '')
    .toLowerCase()
    .split(',')
    .map((part) => part.trim().split('=')[0]);
  if (!directives.includes('public')) return false;
  return !directives.some((d) => d === 'private' || d === 'no-store');
}

/** An image worth keeping: 200 (or an opaque answer is never kept) and an image type. */
export function isKeepableImage(status: number, headers: HeadersLike): boolean {
  return status === 200 && /^image\//i.test(headers.get('Content-Type') ?? '');
}

/** The language of a page address: Amharic under /am/ (or /am), English elsewhere. */
export function languageOfPath(pathname: string): PageLanguage {
  return pathname === '/am' || pathname.startsWith('/am/') ? 'am' : 'en';
}

/** The offline page for a request: in the language of its address (Amharic pages live under /am/). */
export function offlinePageFor(pathname: string): string {
  return OFFLINE_PAGES[languageOfPath(pathname)];
}

/**
 * Remix's client-side navigation asks for a page's data (`?_data=routes/…`). Offline, the service
 * worker answers it with Remix's document redirect to the page itself, so that the browser navigates
 * there and gets the seen copy or the offline page (sw.ts). Returns that page's address, or null when
 * the request is not a page-data GET (an action's data, a resource route's, …).
 */
export function pageOfDataRequest(url: URL, method: string): string | null {
  if (method !== 'GET' || !url.searchParams.has('_data')) return null;
  const route = url.searchParams.get('_data') ?? '';
  // route ids: `routes/…`, their Amharic twins `am/routes/…` (vite.config.ts), and `root`
  if (!/^(am\/)?routes\//.test(route) && route !== 'root') return null;
  const page = new URL(url.href);
  page.searchParams.delete('_data');
  page.searchParams.delete('index');
  return page.pathname + page.search;
}

/** Whether a request asks for a language's texts at a version (kept: that address never changes). */
export function isVersionedTexts(url: URL, method: string): boolean {
  return (
    method === 'GET' &&
    /^\/i18n\/(en|am)$/.test(url.pathname) &&
    /^[0-9a-f]{12}$/.test(url.searchParams.get('v') ?? '')
  );
}

/** The queued kind of a form post, or null: only the cart and wishlist form posts are queued. */
export function queuedKindOf(url: URL, method: string): QueuedKind | null {
  if (method !== 'POST') return null;
  const path = url.pathname.replace(/^\/am(?=\/)/, '');
  return (QUEUED_ACTIONS as Record<string, QueuedKind>)[path] ?? null;
}

/** Pages never answered from the cache nor kept, whatever their headers (personal by nature). */
export function isPersonalPath(pathname: string): boolean {
  const path = pathname.replace(/^\/am(?=\/|$)/, '') || '/';
  return /^\/(cart|checkout|account|orders|profile|wishlist|signin|signup|logout|payment|order-confirmation|track-order|reset-password|forgot-password|unsubscribe|welcome)(\/|$)/.test(
    path,
  );
}
