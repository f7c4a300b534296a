import type { Language } from '@shop/i18n';
import type { SiteSettings } from '../settings/settings.service';
import type { NotificationChannel } from './schemas/notification.schema';
import type { OrderLike } from './templates';

export interface ContactLike {
  _id: unknown;
  name: string;
  email: string;
  subject: string;
  message: string;
}

export interface ProductLike {
  _id: unknown;
  name: string;
  nameAm?: string;
  sku?: string;
  priceSantim: number;
  stock: number;
  lowStockThreshold?: number;
  active?: boolean;
}

/** Wishlist notice kinds, as the wishlist's notify flags and unsubscribe tokens name them. */
export type WishlistNoticeKind = 'sale' | 'stock';

/** What happened; the outbox decides who is told, in which language, and whether the switches allow it. */
export type NotificationEvent =
  /** `reserved`: the products after the order took their stock (for low-stock alerts). */
  | { type: 'order.placed'; order: OrderLike; reserved?: { product: ProductLike; quantity: number }[] }
  /** The order after a status change (shipped, delivered, cancelled tell the customer). */
  | { type: 'order.status'; order: OrderLike }
  | { type: 'payment.paid'; order: OrderLike }
  | { type: 'payment.failed'; order: OrderLike; txRef: string }
  /** Staff recorded a refund of `amountSantim` (the order after it): the customer is told. */
  | { type: 'payment.refunded'; order: OrderLike; refundId: string; amountSantim: number }
  | { type: 'contact.received'; contact: ContactLike }
  /** A staff reply to a contact message, emailed to the sender in `reply.language`. */
  | {
      type: 'contact.reply';
      contact: ContactLike & { createdAt?: Date };
      reply: { _id: unknown; text: string; authorName: string; language: string; at: Date };
    }
  /** A product's stock went down (`cause` names the change, e.g. the order that took the stock). */
  | { type: 'stock.changed'; before: ProductLike; after: ProductLike; cause: string }
  /**
   * A wished product's price dropped (`sale`, `wasSantim` the price before) or it came back in stock
   * (`stock`), told to the customers who chose that notice; `cause` names the change (one message
   * per change and customer).
   */
  | {
      type: 'wishlist.notice';
      kind: WishlistNoticeKind;
      product: ProductLike;
      wasSantim?: number;
      cause: string;
      userIds: string[];
    }
  /** A 6-digit code proving the account's phone (SMS, never shown to staff). */
  | { type: 'phone.verify'; requestId: string; phone: string; language?: string; code: string }
  /** A 6-digit phone sign-in code (SMS, never shown to staff): docs/decisions/0064-phone-sign-in.md. */
  | { type: 'phone.signin'; requestId: string; phone: string; language?: string; code: string }
  | {
      type: 'password.reset';
      requestId: string;
      user: { _id: unknown; name: string; email?: string; phone?: string; language?: string };
      channel: NotificationChannel;
      link?: string;
      code?: string;
    };

/** One message of an event, rendered, as the outbox stores it (the worker's fields are the schema's defaults). */
export interface OutboxMessage {
  eventKey: string;
  channel: NotificationChannel;
  to: string;
  template: string;
  language: Language;
  subject: string;
  text: string;
  html?: string;
  sensitive?: boolean;
}

/** What a caller of `enqueue` read already in the same request. */
export interface KnownContext {
  settings?: SiteSettings;
  /** The customer's chosen language (null: none chosen), for a message to the order's own customer. */
  customerLanguage?: string | null;
}
