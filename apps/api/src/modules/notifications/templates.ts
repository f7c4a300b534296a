import { translate, type Language } from '@shop/i18n';
import { formatMoney, toBirr } from '@shop/shared';

/** A message ready for a transport: subject, plain text and HTML in one language. */
export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

/** A block of a message: a paragraph, or a list of lines. */
export type Block = string | { list: string[] } | { heading: string };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Escaped text with its http(s) links made clickable. */
function htmlText(s: string): string {
  return escapeHtml(s)
    .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\n/g, '<br>');
}

/** Lays out blocks as plain text and as small, inline-styled HTML (mail clients ignore style sheets). */
export function compose(lang: Language, subject: string, blocks: Block[]): RenderedMessage {
  const text = blocks
    .map((b) =>
      typeof b === 'string' ? b : 'list' in b ? b.list.map((l) => `- ${l}`).join('\n') : b.heading,
    )
    .join('\n\n');
  const body = blocks
    .map((b) =>
      typeof b === 'string'
        ? `<p style="margin:0 0 12px">${htmlText(b)}</p>`
        : 'list' in b
          ? `<ul style="margin:0 0 12px;padding-left:20px">${b.list.map((l) => `<li>${htmlText(l)}</li>`).join('')}</ul>`
          : `<h3 style="margin:16px 0 6px;font-size:15px">${htmlText(b.heading)}</h3>`,
    )
    .join('');
  const html =
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:'Noto Sans Ethiopic','Nyala',Arial,sans-serif;color:#222;line-height:1.5;max-width:560px;margin:0 auto;padding:16px">` +
    `${body}</body></html>`;
  return { subject, text, html };
}

export interface OrderLike {
  _id: unknown;
  user?: unknown;
  orderNumber?: string;
  /** The language the customer ordered in: every message about the order uses it (docs/decisions/0077). */
  language?: string;
  /** A guest's order: a phone (E.164), an email only if given. */
  customer?: { name?: string; email?: string; phone?: string };
  paymentMethod?: string;
  orderItems: { name: string; nameAm?: string; quantity: number; priceAtPurchaseSantim: number }[];
  shippingAddress: {
    street?: string;
    city?: string;
    state?: string;
    zipCode?: string;
    country?: string;
    phone?: string;
    landmark?: string;
  };
  subtotalSantim: number;
  shippingCostSantim: number;
  taxSantim: number;
  totalAmountSantim: number;
  /** The order's prices contained the VAT (the shop's setting when it was placed): the VAT line says so. */
  pricesIncludeTax?: boolean;
  /** The coupon code the order redeemed and its discount (docs/decisions/0096-coupon-codes.md). */
  couponCode?: string;
  discountSantim?: number;
  status: string;
  paymentStatus: string;
  trackingNumber?: string;
}

/** The order's number as customers see it; before order numbers existed, the id's tail. */
export function orderNumberOf(order: OrderLike): string {
  return order.orderNumber || String(order._id).slice(-8).toUpperCase();
}

export const money = (santim: number, lang: Language) => formatMoney(toBirr(santim), 'ETB', lang);

/** Lines, totals and delivery address of an order. */
export function orderSummary(order: OrderLike, lang: Language): Block[] {
  const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
  const a = order.shippingAddress;
  const address = [a.street, a.landmark, a.city, a.state, a.zipCode, a.country, a.phone]
    .filter((part) => part && String(part).trim())
    .join(', ');
  const totals = [
    t('mail.subtotal', { amount: money(order.subtotalSantim, lang) }),
    ...(order.couponCode && order.discountSantim
      ? [t('mail.discount', { code: order.couponCode, amount: money(order.discountSantim, lang) })]
      : []),
    // the storefront's words (docs/decisions/0079-prices-account-phone.md): 'Free', never 'ETB 0.00'; 'VAT', never 'Tax'
    t('mail.shipping', {
      amount: order.shippingCostSantim ? money(order.shippingCostSantim, lang) : t('mail.free'),
    }),
    ...(order.taxSantim
      ? [
          t(order.pricesIncludeTax ? 'mail.taxIncluded' : 'mail.tax', {
            amount: money(order.taxSantim, lang),
          }),
        ]
      : []),
    t('mail.total', { amount: money(order.totalAmountSantim, lang) }),
  ];
  return [
    { heading: t('mail.orderLabel', { number: orderNumberOf(order) }) },
    {
      list: order.orderItems.map((item) =>
        t('mail.lineItem', {
          quantity: item.quantity,
          name: (lang === 'am' && item.nameAm) || item.name,
          amount: money(item.priceAtPurchaseSantim * item.quantity, lang),
        }),
      ),
    },
    totals.join('\n'),
    { heading: t('mail.deliverTo') },
    address,
  ];
}
