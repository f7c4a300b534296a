import { RemixBrowser } from '@remix-run/react';
import { hydrate } from 'preact';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { hydrateProgressively } from './components/Deferred';
import { fetchDictionary } from './shop-context';

/**
 * The page's texts before it is hydrated (docs/decisions/0104-texts-out-of-the-page.md): the page does
 * not carry them; the root loader's data says where they are (preloaded by the page's head; immutable,
 * and kept by the service worker so that a page kept for offline reading hydrates offline too). Without
 * them (offline, never kept) the page is not hydrated: it stays the server's page, whose links and forms
 * work without JavaScript.
 */
async function pageTexts(): Promise<boolean> {
  const context = (window as { __remixContext?: { state?: { loaderData?: Record<string, unknown> } } })
    .__remixContext;
  const root = context?.state?.loaderData?.root as { lang?: 'en' | 'am'; texts?: string } | undefined;
  const lang = root?.lang ?? (document.documentElement.lang === 'am' ? 'am' : 'en');
  try {
    await fetchDictionary(lang, root?.texts);
    return true;
  } catch {
    return false;
  }
}

// The browser runs on preact/compat (vite.config.ts; docs/decisions/0039-preact-in-the-browser.md).
// Remix renders the whole document, <html> included, and Preact 10 hydrates into an element's
// children (given `document` it takes document.documentElement, whose children are <head> and
// <body>): so it gets a stand-in parent whose only child is the page's <html>, and the server's DOM
// is adopted instead of rendered a second time (remix-run/remix#425). Built with STOREFRONT_REACT=1,
// the browser runs React 18 as before.
const textsReady = pageTexts();

if (import.meta.env.SHOP_CLIENT_REACT) {
  void textsReady.then(
    (ok) =>
      ok &&
      startTransition(() => {
        hydrateRoot(
          document,
          <StrictMode>
            <RemixBrowser />
          </StrictMode>,
        );
      }),
  );
} else {
  const html = document.documentElement;
  const replaceHtml = (node: Node) => document.replaceChild(node, html);
  // In a task of its own: Preact hydrates in one go (React 18 yields every few ms), so evaluating the
  // scripts and hydrating in the same task made one long task on a slow phone; two shorter ones let a
  // tap or a scroll in between and count less as blocking time.
  // Parts of the page wrapped in <Deferred> (product cards, footer) are hydrated afterwards, one per task
  // (components/Deferred.tsx).
  void textsReady.then(
    (ok) =>
      ok &&
      setTimeout(() =>
        hydrateProgressively(() =>
          hydrate(<RemixBrowser />, {
            nodeType: 1,
            childNodes: [html],
            firstChild: html,
            insertBefore: replaceHtml,
            appendChild: replaceHtml,
          } as unknown as Element),
        ),
      ),
  );
}

// The service worker and the offline taps (pwa.client.ts, docs/decisions/0094-pwa.md): registered after
// the page's load event, in a chunk of its own, so that the page's first JavaScript stays as it was.
if ('serviceWorker' in navigator && !import.meta.env.DEV) {
  const startPwa = () => setTimeout(() => void import('./pwa.client').then((pwa) => pwa.startPwa()), 0);
  if (document.readyState === 'complete') startPwa();
  else window.addEventListener('load', startPwa, { once: true });
}
