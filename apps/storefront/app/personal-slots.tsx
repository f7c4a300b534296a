import { Fragment, type ReactNode } from 'react';

/**
 * The personal parts of a kept page (docs/decisions/0107-personal-pages-from-the-kept-page.md).
 *
 * The kept pages (home, catalogue, product, static pages) differ between shoppers only in a few places:
 * the header's account menu and its cart and wishlist counts, each card's in-cart badge and heart, and the
 * product page's in-cart line and review forms. For a shopper
 * with a session or a guest cart, the page cache (server/page-cache.cjs) keeps one *template* of the page
 * per address and language: the page rendered by React once, where each personal place holds every form
 * it can take (`Personal`), values as tokens. `personalPage` (personal-page.server.ts) then picks the
 * shopper's forms and writes their values: the page React would have rendered for them, byte for byte
 * (e2e/shop-personal-pages.e2e.ts compares the two for several shoppers), without rendering it.
 *
 * A component tests `import.meta.env.SSR && template`: the browser's bundle (where SSR is false) then
 * drops the template forms and this module.
 *
 * Markers and tokens are Unicode noncharacters (U+FDD0…U+FDD7): React and JSON.stringify send them as
 * they are, and a page sent to a browser never holds one (a template that still does is not used).
 */
export const MARK = {
  open: '\uFDD0',
  nameEnd: '\uFDD1',
  next: '\uFDD2',
  close: '\uFDD3',
} as const;

/** Values written into the chosen form. */
export const TOKEN = {
  count: '\uFDD4',
  name: '\uFDD5',
  initial: '\uFDD6',
} as const;

/**
 * The key that stands for the shopper's fields in a template's root data (`"\uFDD7":1` in the page's
 * hydration data; `personalPage` writes the fields there).
 */
export const TEMPLATE_KEY = '\uFDD7';

/** A region's forms in a template: `<open>name<nameEnd>form0<next>form1…<close>`. */
export function Personal({ name, forms }: { name: string; forms: ReactNode[] }) {
  return (
    <>
      {MARK.open + name + MARK.nameEnd}
      {forms.map((form, i) => (
        <Fragment key={i}>
          {i > 0 ? MARK.next : null}
          {form}
        </Fragment>
      ))}
      {MARK.close}
    </>
  );
}

/** A personal text (an attribute's value) in a template: one form, its value as a token. */
export function personalText(name: string, text: string): string {
  return MARK.open + name + MARK.nameEnd + text + MARK.close;
}
