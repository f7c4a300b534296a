import { accountInitial, accountName, badgeCount } from './catalogue';
import { MARK, TEMPLATE_KEY, TOKEN } from './personal-slots';
import { publicSettings } from './products.server';
import { reviewWrittenWithin, shopperSummary } from './session.server';
import { shopperFields, type ShopperFields } from './shopper-fields.server';

/** How long after a review is written through this storefront its pages are rendered, not written into templates. */
const REVIEW_FRESH_MS = 5_000;

/**
 * A shopper's page from the template of a kept page (docs/decisions/0107-personal-pages-from-the-kept-page.md):
 * the root loader's shopper fields for `request` (the same call and the same function as the root
 * loader), written into `template` (`fillTemplate`). Null when the page must be rendered for the request
 * instead: the shop is closed for maintenance (an admin sees it open), or the template is not one.
 */
export async function personalPage(template: string, request: Request): Promise<string | null> {
  // a review just written (the writer's next page must show it, and a template may predate it by its
  // check interval and the API's hot cache): pages are rendered for the request for a few seconds
  if (reviewWrittenWithin(REVIEW_FRESH_MS)) return null;
  const [shopper, settings] = await Promise.all([shopperSummary(request), publicSettings(request)]);
  if (settings.maintenanceMode) return null;
  return fillTemplate(template, shopperFields(request, new URL(request.url), shopper));
}

/** The characters of markers and tokens: none is left in a page that is sent. */
const SPECIAL = /[\uFDD0-\uFDD7]/;
/** React's separator of two texts side by side, which a marker beside a text gets and the page does not. */
const SEPARATOR = '<!-- -->';

/**
 * `template` with each personal region replaced by the shopper's form of it and the shopper's fields in
 * its root data; null when the template holds a region this code does not know, or is malformed.
 */
export function fillTemplate(template: string, fields: ShopperFields): string | null {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const open = template.indexOf(MARK.open, at);
    if (open < 0) break;
    const nameEnd = template.indexOf(MARK.nameEnd, open);
    const close = template.indexOf(MARK.close, open);
    if (nameEnd < 0 || close < 0 || nameEnd > close) return null;
    const name = template.slice(open + 1, nameEnd);
    const forms = template.slice(nameEnd + 1, close).split(MARK.next);
    const chosen = formOf(name, forms, fields);
    if (chosen === null) return null;
    out.push(withoutTrailingSeparator(template.slice(at, open)), chosen);
    at = close + 1;
    if (template.startsWith(SEPARATOR, at)) at += SEPARATOR.length;
  }
  out.push(template.slice(at));
  const placeholder = `${JSON.stringify(TEMPLATE_KEY)}:1`;
  const page = out.join('');
  const root = page.indexOf(placeholder);
  if (root < 0) return null;
  // the fields as Remix writes loader data into the page (JSON, then its escapeHtml)
  const json = escapeScript(JSON.stringify(fields).slice(1, -1));
  const filled = page.slice(0, root) + json + page.slice(root + placeholder.length);
  return SPECIAL.test(filled) ? null : filled;
}

function withoutTrailingSeparator(text: string): string {
  return text.endsWith(SEPARATOR) ? text.slice(0, -SEPARATOR.length) : text;
}

/** The shopper's form of a region, its tokens written; null for a region this code does not know. */
function formOf(name: string, forms: string[], fields: ShopperFields): string | null {
  const colon = name.indexOf(':');
  const kind = colon < 0 ? name : name.slice(0, colon);
  const id = colon < 0 ? '' : name.slice(colon + 1);
  const pick = (index: number, values: Partial<Record<keyof typeof TOKEN, string>> = {}) => {
    const form = forms[index];
    if (form === undefined) return null;
    let text = trimSeparators(form);
    for (const [token, value] of Object.entries(values))
      text = text.split(TOKEN[token as keyof typeof TOKEN]).join(escapeText(value));
    return text;
  };
  switch (kind) {
    case 'wishlist-label':
      return pick(0, { count: String(fields.wishlistCount) });
    case 'cart-label':
      return pick(0, { count: String(fields.cartCount) });
    case 'wishlist-badge':
      return fields.wishlistCount > 0 ? pick(1, { count: badgeCount(fields.wishlistCount) }) : pick(0);
    case 'cart-badge':
      return fields.cartCount > 0 ? pick(1, { count: badgeCount(fields.cartCount) }) : pick(0);
    case 'user': {
      const { user } = fields;
      if (!user) return pick(0);
      const shown = accountName(user);
      return pick(user.role === 'admin' ? 2 : 1, { name: shown, initial: accountInitial(shown) });
    }
    case 'in-cart': {
      const quantity = fields.cartQuantities[id] ?? 0;
      return quantity > 0 ? pick(1, { count: String(quantity) }) : pick(0);
    }
    case 'review': {
      // a guest's form, a new review's, then an edit form per listed review (components/ReviewSection.tsx)
      const { user } = fields;
      if (!user) return pick(0);
      const own = id ? id.split(',').indexOf(user._id) : -1;
      return pick(own < 0 ? 1 : 2 + own);
    }
    case 'heart':
      // a guest's off and on, an account's off and on (components/AddToCart.tsx)
      return pick((fields.user ? 2 : 0) + (fields.wishlistIds.includes(id) ? 1 : 0));
    default:
      return null;
  }
}

/** A form without the separators its markers gave it (a form is an element or nothing, never a text). */
function trimSeparators(form: string): string {
  let text = form;
  while (text.startsWith(SEPARATOR)) text = text.slice(SEPARATOR.length);
  while (text.endsWith(SEPARATOR)) text = text.slice(0, -SEPARATOR.length);
  return text;
}

const TEXT_ESCAPES: Record<string, string> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&#x27;',
  '<': '&lt;',
  '>': '&gt;',
};

/** A text or attribute value as React writes it (react-dom's escapeTextForBrowser). */
function escapeText(text: string): string {
  return text.replace(/["&'<>]/g, (c) => TEXT_ESCAPES[c]);
}

const SCRIPT_ESCAPES: Record<string, string> = {
  '&': '\\u0026',
  '>': '\\u003e',
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON as Remix writes it into the page's hydration script (@remix-run/react's escapeHtml). */
function escapeScript(json: string): string {
  return json.replace(/[&><\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]);
}
