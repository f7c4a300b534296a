/**
 * The page's side of the service worker (docs/decisions/0094-pwa.md), loaded after the page's load
 * event (entry.client.tsx), outside the home page's JavaScript budget:
 * - registers /sw.js and asks it to keep each page shown (it keeps only `public` pages);
 * - a cart or wishlist form sent while the phone knows it is offline is queued here (sw/queue.ts) instead
 *   of failing, with a notice; when the connection returns the service worker sends the queue and this
 *   page tells the shopper what was added or refused, in the page's language;
 * - the checkout form's typed values are kept per field in sessionStorage (never the password, the
 *   payment method or the order's key) and put back after a dropped connection or reload; cleared once
 *   the order is placed (its confirmation page).
 */
import { translatorOver, type Language } from '@shop/i18n';
import { FALLBACK, say, type Said } from './apiMessages';
import { dictionaryOf } from './shop-context';
import { TEXTS_CACHE, queuedKindOf } from '../sw/policy';
import { enqueue, tapFrom, type TapResult } from '../sw/queue';
import { idbStore } from '../sw/idb-store';

type RouterLike = {
  state: { location: { pathname: string } };
  subscribe(fn: (state: RouterLike['state']) => void): void;
  revalidate(): void;
};
const router = () => (window as unknown as { __remixRouter?: RouterLike }).__remixRouter;

const language = (): Language => (document.documentElement.lang === 'am' ? 'am' : 'en');
const translator = () => translatorOver(dictionaryOf(language()) ?? {});

// ---- notices ----
let region: HTMLElement | null = null;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
export const NOTICE_MS = 8000;

function noticeRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement('div');
  region.className = 'pwa-notice';
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  region.dataset.testid = 'pwa-notice';
  Object.assign(region.style, {
    position: 'fixed',
    left: '12px',
    right: '12px',
    bottom: '16px',
    maxWidth: '30rem',
    margin: '0 auto',
    zIndex: '60',
    background: '#2f2a24',
    color: '#fff',
    borderRadius: '8px',
    padding: '0',
    lineHeight: '1.5',
    boxShadow: '0 4px 16px rgb(0 0 0 / 25%)',
  });
  document.body.appendChild(region);
  return region;
}

export function showNotice(lines: string[]): void {
  const box = noticeRegion();
  box.replaceChildren(
    ...lines.map((line) => {
      const p = document.createElement('p');
      p.textContent = line;
      p.style.margin = '0';
      return p;
    }),
  );
  box.style.padding = lines.length ? '12px 16px' : '0';
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => {
    box.replaceChildren();
    box.style.padding = '0';
  }, NOTICE_MS);
}

/** What the shopper is told once the taps made offline were sent. */
export function sentNotice(
  results: TapResult[],
  t: (key: string, params?: Record<string, string | number>) => string,
): string[] {
  const lines: string[] = [];
  const added = results.filter((r) => r.kind === 'cart' && r.outcome === 'done').length;
  if (added) lines.push(t('pwa.sent.cart', { count: added }));
  if (results.some((r) => r.kind === 'wishlist' && r.outcome === 'done')) lines.push(t('pwa.sent.wishlist'));
  for (const r of results.filter((x) => x.outcome === 'refused')) {
    const reason = say(
      t,
      (r.said as Said | undefined) ?? null,
      r.kind === 'cart' ? FALLBACK.addToCart : FALLBACK.wishlist,
    );
    lines.push(
      t('pwa.sent.refused', {
        reason: reason || t(r.kind === 'cart' ? FALLBACK.addToCart : FALLBACK.wishlist),
      }),
    );
  }
  return lines;
}

// ---- the service worker ----
let worker: ServiceWorker | null = null;
function post(message: unknown): void {
  (navigator.serviceWorker.controller ?? worker)?.postMessage(message);
}

/** Asks the service worker to keep this page for offline reading (it keeps only `public` pages). */
function tellSeen(): void {
  post({ type: 'shop-seen', url: location.pathname + location.search });
}

async function queueOffline(event: SubmitEvent): Promise<void> {
  const form = event.target as HTMLFormElement;
  const url = new URL(form.action, location.href);
  const kind = queuedKindOf(url, (form.getAttribute('method') ?? 'get').toUpperCase());
  if (!kind || navigator.onLine || !worker) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const data = new FormData(form, event.submitter ?? undefined);
  const tap = tapFrom(kind, url.pathname, data.entries(), crypto.randomUUID(), Date.now());
  const kept = await enqueue(idbStore, tap);
  showNotice([translator()(kept ? `pwa.queued.${kind}` : 'pwa.queueFull')]);
  const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
    sync?: { register(tag: string): Promise<void> };
  };
  await registration.sync?.register('shop-taps').catch(() => undefined);
}

// ---- the checkout form ----
const KEEP_PREFIX = 'shop-checkout:';
/** Never kept: secrets, the payment choice, the order's key, and anything hidden. */
const NEVER_KEPT = /pass|card|cvv|cvc|^pan$|expir|^otp$|^pin$|payment|token|idempotency|_data/i;

export function keptFieldName(element: { name: string; type: string }): string | null {
  if (!element.name || NEVER_KEPT.test(element.name)) return null;
  if (['hidden', 'password', 'file', 'submit', 'button'].includes(element.type)) return null;
  return element.name;
}

/** Runs `then` once the page is hydrated (html[data-hydrated], components/Deferred.tsx): its handlers listen. */
function whenHydrated(then: () => void): void {
  const html = document.documentElement;
  if (html.dataset.hydrated) return then();
  const watch = new MutationObserver(() => {
    if (!html.dataset.hydrated) return;
    watch.disconnect();
    then();
  });
  watch.observe(html, { attributeFilter: ['data-hydrated'] });
}

function keepCheckoutForm(): void {
  const form = document.getElementById('checkout-form') as HTMLFormElement | null;
  if (!form || form.dataset.kept) return;
  form.dataset.kept = '1';
  for (const element of Array.from(form.elements) as HTMLInputElement[]) {
    const name = keptFieldName(element);
    if (!name) continue;
    const saved = sessionStorage.getItem(KEEP_PREFIX + name);
    if (saved === null) continue;
    if (element.type === 'radio') element.checked = element.value === saved;
    else if (element.type === 'checkbox') element.checked = saved === 'on';
    else element.value = saved;
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  }
  const save = (event: Event) => {
    const element = event.target as HTMLInputElement;
    const name = keptFieldName(element);
    if (!name) return;
    if (element.type === 'radio' && !element.checked) return;
    const value = element.type === 'checkbox' ? (element.checked ? 'on' : 'off') : element.value;
    try {
      sessionStorage.setItem(KEEP_PREFIX + name, value);
    } catch {
      /* storage full or refused: nothing kept */
    }
  };
  form.addEventListener('input', save);
  form.addEventListener('change', save);
}

export function forgetCheckoutForm(storage: Storage = sessionStorage): void {
  for (let i = storage.length - 1; i >= 0; i--) {
    const key = storage.key(i);
    if (key?.startsWith(KEEP_PREFIX)) storage.removeItem(key);
  }
}

function onPage(pathname: string): void {
  if (worker) tellSeen();
  const path = pathname.replace(/^\/am(?=\/|$)/, '') || '/';
  if (/^\/(order-confirmation|payment\/return)(\/|$)/.test(path)) forgetCheckoutForm();
  else if (path === '/checkout') whenHydrated(() => setTimeout(keepCheckoutForm));
}

/**
 * The page's texts in the service worker's cache (docs/decisions/0104): the first page fetched them before
 * the worker was there, and a kept page needs them to hydrate offline. From the browser's HTTP cache.
 */
async function keepTexts(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[rel=preload][as=fetch][href^="/i18n/"]');
  if (!link || !('caches' in window)) return;
  try {
    const cache = await caches.open(TEXTS_CACHE);
    if (!(await cache.match(link.href))) await cache.add(link.href);
  } catch {
    // a full or refused storage: the page still works online
  }
}

export function startPwa(): void {
  onPage(location.pathname);
  const remix = router();
  remix?.subscribe((state) => onPage(state.location.pathname));
  if (!('serviceWorker' in navigator)) return;
  window.addEventListener('submit', (event) => void queueOffline(event as SubmitEvent), true);
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: string; results?: TapResult[] } | null;
    if (!data?.results?.length) return;
    if (data.type === 'shop-taps-sent') {
      const lines = sentNotice(data.results, translator());
      if (lines.length) showNotice(lines);
      if (data.results.some((r) => r.outcome === 'done')) router()?.revalidate();
    } else if (data.type === 'shop-tap-queued-notices') {
      showNotice(data.results.map((r) => say(translator(), (r.said as Said) ?? null)));
    }
  });
  // the page may hear 'online' before the service worker's own requests get through: asked again a few
  // times (a round with nothing waiting costs one IndexedDB read)
  window.addEventListener('online', () => {
    for (const ms of [0, 2000, 6000, 15000])
      setTimeout(() => navigator.onLine && post({ type: 'shop-flush' }), ms);
  });
  navigator.serviceWorker
    .register('/sw.js', { scope: '/', updateViaCache: 'none' })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      worker = registration.active;
      tellSeen();
      void keepTexts();
      post({ type: 'shop-notices' });
      if (navigator.onLine) post({ type: 'shop-flush' });
    })
    .catch(() => undefined);
}
