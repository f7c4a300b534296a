import type { ShopperSummary } from './session.server';

/**
 * The root loader's fields that are the shopper's own, in the order the loader's data has them: a
 * template of a kept page holds `"\uFDD7":1` in their place, and `personalPage` writes these there
 * (docs/decisions/0107-personal-pages-from-the-kept-page.md). One function for both, so that the two
 * pages are the same bytes.
 */
export function shopperFields(request: Request, url: URL, { user, ...basket }: ShopperSummary) {
  return { backPath: sameOriginPath(request.headers.get('Referer'), url), user, ...basket };
}

export type ShopperFields = ReturnType<typeof shopperFields>;

/** The page the shopper came from, when it is one of ours (for 'Go back' without JavaScript). */
function sameOriginPath(referer: string | null, current: URL): string | null {
  if (!referer) return null;
  try {
    const from = new URL(referer);
    return from.host === current.host && from.pathname !== current.pathname
      ? from.pathname + from.search
      : null;
  } catch {
    return null;
  }
}

/**
 * Set by the page cache's renderer of templates (server/page-cache.cjs) in the load context it gives
 * Remix; a request from outside cannot set it (the Express handler gives no load context).
 */
export const PAGE_TEMPLATE = Symbol.for('shop.pageTemplate');

export function isPageTemplate(context: unknown): boolean {
  return (
    typeof context === 'object' &&
    context !== null &&
    (context as Record<symbol, unknown>)[PAGE_TEMPLATE] === true
  );
}
