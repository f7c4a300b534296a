import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isLanguage, translate, type Language } from '@shop/i18n';
import type { ClientSession, Model, Types } from 'mongoose';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../common/errors/domain-error';
import { definedFields, isDuplicateKeyError, parseObjectId } from '../../common/mongo';
import { filterEnum, filterText, parseListQuery, type ReactAdminListQuery } from '../admin/list/react-admin';
import { APP_CONFIG, type AppConfig } from '../../config';
import { SettingsService, type SiteSettings as Settings } from '../settings/settings.service';
import { AccountsService } from '../users/accounts.service';
import {
  Notification,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_STATES,
  type NotificationChannel,
} from './schemas/notification.schema';
import { compose, money, orderNumberOf, orderSummary, type Block, type OrderLike } from './templates';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

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
  | { type: 'contact.received'; contact: ContactLike }
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
  | {
      type: 'password.reset';
      requestId: string;
      user: { _id: unknown; name: string; email: string; phone?: string; language?: string };
      channel: NotificationChannel;
      link?: string;
      code?: string;
    };

interface Message {
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

type Lean<T> = T & { _id: Types.ObjectId };

/** What a caller of `enqueue` read already in the same request. */
export interface KnownContext {
  settings?: Settings;
  /** The customer's chosen language (null: none chosen), for a message to the order's own customer. */
  customerLanguage?: string | null;
}

/** Customer-facing order messages by status. */
const STATUS_TEMPLATES: Record<string, string | undefined> = {
  shipped: 'shipped',
  delivered: 'delivered',
  cancelled: 'cancelled',
};

/**
 * The outbox. `enqueue(session, event)` is called by other services inside the transaction that
 * makes the change, so the message exists exactly when the change does; the unique `eventKey` makes
 * each event's message once however often it is triggered. NotificationsWorker delivers.
 */
@Injectable()
export class NotificationsService {
  private readonly logger = new Logger('Notifications');
  /** Called after each enqueue so the worker looks soon (set by the worker when it runs). */
  onEnqueued?: () => void;

  constructor(
    @InjectModel(Notification.name) private readonly notifications: Model<Notification>,
    private readonly users: AccountsService,
    private readonly settings: SettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Writes the event's messages into the outbox, in the caller's transaction when given a session.
   * `known`: what the caller has read already in this request (the settings; the customer's chosen
   * language, null for none), so that the outbox does not read it again inside the transaction.
   */
  async enqueue(
    session: ClientSession | null | undefined,
    event: NotificationEvent,
    known: KnownContext = {},
  ): Promise<void> {
    const messages = await this.messagesFor(event, known);
    if (session && messages.length) {
      // In a transaction a message that exists already aborts it anyway: every message in one command.
      // through the model's collection, with what the schema would add (defaults, timestamps)
      const now = new Date();
      await this.notifications.collection.bulkWrite(
        messages.map((message) => ({
          updateOne: {
            filter: { eventKey: message.eventKey },
            update: {
              $setOnInsert: {
                ...definedFields(message),
                sensitive: message.sensitive ?? false,
                state: 'pending',
                attempts: 0,
                nextAttemptAt: now,
                createdAt: now,
              },
              $set: { updatedAt: now },
            },
            upsert: true,
          },
        })),
        { session, ordered: true },
      );
      this.onEnqueued?.();
      return;
    }
    for (const message of messages) {
      try {
        await this.notifications
          .updateOne(
            { eventKey: message.eventKey },
            {
              $setOnInsert: {
                ...message,
                state: 'pending',
                attempts: 0,
                nextAttemptAt: new Date(),
              },
            },
            { upsert: true, session: session ?? undefined },
          )
          .exec();
      } catch (error) {
        // two triggers of one event outside a transaction: the unique index already holds its message
        if (!session && isDuplicateKeyError(error)) continue;
        throw error;
      }
    }
    if (messages.length) this.onEnqueued?.();
  }

  // ---- the back office ----

  async list(query: ReactAdminListQuery) {
    const { sort, skip, limit, filter } = parseListQuery(query, {
      sortFields: {
        createdAt: 'createdAt',
        state: 'state',
        attempts: 'attempts',
        sentAt: 'sentAt',
        to: 'to',
        template: 'template',
      },
      filters: ['q', 'state', 'channel', 'template'],
      defaultSort: ['createdAt', 'DESC'],
    });
    const where: Record<string, unknown> = {};
    const states = filterEnum(filter, 'state', NOTIFICATION_STATES);
    if (states) where.state = { $in: states };
    const channels = filterEnum(filter, 'channel', NOTIFICATION_CHANNELS);
    if (channels) where.channel = { $in: channels };
    const template = filterText(filter, 'template');
    if (template) where.template = template;
    const q = filterText(filter, 'q');
    if (q) where.to = q.toLowerCase();
    const [rows, total] = await Promise.all([
      this.notifications.find(where).sort(sort).skip(skip).limit(limit).lean().exec(),
      this.notifications.countDocuments(where).exec(),
    ]);
    return { records: rows.map((r) => toRecord(r as Lean<Notification>)), skip, total };
  }

  async getOne(id: string) {
    const row = await this.notifications
      .findById(parseObjectId(id, NOTIFICATION_NOT_FOUND, 'NOTIFICATION_NOT_FOUND'))
      .lean()
      .exec();
    if (!row) throw new NotFoundError(NOTIFICATION_NOT_FOUND, 'NOTIFICATION_NOT_FOUND');
    return toRecord(row as Lean<Notification>);
  }

  /** Staff send a sent or failed message again: it goes back to pending with fresh attempts. */
  async resend(id: string) {
    const _id = parseObjectId(id, NOTIFICATION_NOT_FOUND, 'NOTIFICATION_NOT_FOUND');
    const row = await this.notifications
      .findOneAndUpdate(
        { _id, state: { $in: ['sent', 'failed'] }, sensitive: { $ne: true } },
        {
          $set: { state: 'pending', attempts: 0, nextAttemptAt: new Date() },
          $unset: { leaseUntil: 1, leaseOwner: 1 },
        },
        { new: true },
      )
      .lean()
      .exec();
    if (!row) {
      const existing = await this.notifications.findById(_id).lean().exec();
      if (!existing) throw new NotFoundError(NOTIFICATION_NOT_FOUND, 'NOTIFICATION_NOT_FOUND');
      if (existing.sensitive)
        throw new ConflictError('A password reset message cannot be resent; ask for a new one');
      throw new ConflictError(
        `This message is ${existing.state}; only sent or failed messages can be resent`,
      );
    }
    this.onEnqueued?.();
    return toRecord(row as Lean<Notification>);
  }

  // ---- unsubscribe links ----

  /** A signed, non-expiring token that stops one kind of wishlist notice for one product. */
  unsubscribeToken(userId: string, productId: string, kind: WishlistNoticeKind): string {
    const payload = `${userId}.${productId}.${kind}`;
    const mac = createHmac('sha256', this.config.jwt.secret)
      .update(`unsubscribe:${payload}`)
      .digest('base64url');
    return `${payload}.${mac}`;
  }

  /** Reads an unsubscribe token; null when it was not made by this shop. */
  readUnsubscribeToken(
    token: string,
  ): { userId: string; productId: string; kind: WishlistNoticeKind } | null {
    const match = /^([a-f0-9]{24})\.([a-f0-9]{24})\.(sale|stock)\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
    if (!match) return null;
    const expected = Buffer.from(this.unsubscribeToken(match[1], match[2], match[3] as 'sale').split('.')[3]);
    const given = Buffer.from(match[4]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { userId: match[1], productId: match[2], kind: match[3] as WishlistNoticeKind };
  }

  // ---- what each event says, to whom ----

  private async messagesFor(event: NotificationEvent, known: KnownContext): Promise<Message[]> {
    const settings = known.settings ?? (await this.settings.get());
    switch (event.type) {
      case 'order.placed':
        return [
          ...(await this.toCustomer(
            settings,
            event.order,
            'orderPlaced',
            `order.placed:${event.order._id}`,
            known.customerLanguage,
          )),
          ...this.toAdmin(
            settings,
            settings.orderNotifications,
            `order.placed:${event.order._id}:admin`,
            'adminNewOrder',
            (lang) => {
              const t = tr(lang);
              const number = orderNumberOf(event.order);
              return compose(
                lang,
                t('mail.adminNewOrder.subject', {
                  number,
                  amount: money(event.order.totalAmountSantim, lang),
                }),
                [
                  t('mail.adminNewOrder.intro', {
                    number,
                    customer: event.order.customer?.name ?? '',
                    email: event.order.customer?.email ?? '',
                  }),
                  ...orderSummary(event.order, lang),
                  `${this.config.adminUrl}/admin/orders/${String(event.order._id)}/show`,
                ],
              );
            },
          ),
          ...(event.reserved ?? []).flatMap(({ product, quantity }) =>
            this.lowStock(
              settings,
              { ...product, stock: product.stock + quantity },
              product,
              `order:${event.order._id}`,
            ),
          ),
        ];
      case 'order.status': {
        const template = STATUS_TEMPLATES[event.order.status];
        if (!template) return [];
        return this.toCustomer(
          settings,
          event.order,
          template,
          `order.status:${event.order._id}:${event.order.status}`,
        );
      }
      case 'payment.paid':
        return this.toCustomer(settings, event.order, 'paymentReceived', `payment.paid:${event.order._id}`);
      case 'payment.failed':
        return this.toCustomer(settings, event.order, 'paymentFailed', `payment.failed:${event.txRef}`);
      case 'contact.received':
        return this.toAdmin(
          settings,
          true,
          `contact.received:${event.contact._id}`,
          'adminContact',
          (lang) => {
            const t = tr(lang);
            const c = event.contact;
            return compose(lang, t('mail.adminContact.subject', { name: c.name, subject: c.subject }), [
              t('mail.adminContact.intro', { name: c.name, email: c.email }),
              c.message,
              `${this.config.adminUrl}/admin/contacts`,
            ]);
          },
        );
      case 'stock.changed':
        return this.lowStock(settings, event.before, event.after, event.cause);
      case 'wishlist.notice':
        return this.wishlistNotices(settings, event);
      case 'password.reset':
        return [this.passwordReset(settings, event)];
      case 'phone.verify': {
        const lang: Language = isLanguage(event.language) ? event.language : languageOf(settings);
        return [
          {
            eventKey: `phone.verify:${event.requestId}`,
            channel: 'sms',
            to: event.phone,
            template: 'phoneVerify',
            language: lang,
            subject: '',
            text: tr(lang)('mail.phoneVerify.sms', { shop: settings.siteName, code: event.code }),
            sensitive: true,
          },
        ];
      }
    }
  }

  /**
   * On-sale and back-in-stock notices: one email per customer who asked, in their language, with a
   * link to the product and a signed link that stops this notice for this product without signing in.
   * Not transactional mail: only while email notifications are on.
   */
  private async wishlistNotices(
    settings: Settings,
    event: Extract<NotificationEvent, { type: 'wishlist.notice' }>,
  ): Promise<Message[]> {
    if (!settings.emailNotifications || !event.userIds.length) return [];
    const recipients = await this.users.recipientsByIds(event.userIds);
    const product = event.product;
    const productId = String(product._id);
    const template = event.kind === 'sale' ? 'onSale' : 'backInStock';
    const messages: Message[] = [];
    for (const userId of event.userIds) {
      const user = recipients.get(userId);
      if (!user?.email) continue;
      const lang: Language = isLanguage(user.language) ? user.language : languageOf(settings);
      const t = tr(lang);
      const name = (lang === 'am' && product.nameAm) || product.name;
      // the page opens in the message's language (it sets the storefront's language cookie)
      const unsubscribe = `${this.config.storefrontUrl}/unsubscribe?token=${this.unsubscribeToken(userId, productId, event.kind)}&lang=${lang}`;
      const intro =
        event.kind === 'sale'
          ? t('mail.onSale.intro', {
              product: name,
              price: money(product.priceSantim, lang),
              was: money(event.wasSantim ?? product.priceSantim, lang),
            })
          : t('mail.backInStock.intro', { product: name });
      messages.push({
        eventKey: `wishlist.${event.kind}:${productId}:${event.cause}:${userId}`,
        channel: 'email',
        to: user.email,
        template,
        language: lang,
        ...compose(lang, t(`mail.${template}.subject`, { product: name }), [
          t('mail.greeting', { name: user.name }),
          intro,
          t('mail.productLink', { link: `${this.config.storefrontUrl}/product/${productId}` }),
          t('mail.signature', { shop: settings.siteName }),
          t('mail.unsubscribe', { link: unsubscribe }),
        ]),
      });
    }
    return messages;
  }

  /** The admin's alert when a product's stock crosses its low-stock threshold (lowStockAlerts). */
  private lowStock(settings: Settings, before: ProductLike, after: ProductLike, cause: string): Message[] {
    const threshold = after.lowStockThreshold ?? 5;
    if (!(before.stock > threshold && after.stock <= threshold)) return [];
    return this.toAdmin(
      settings,
      settings.lowStockAlerts,
      `stock.low:${after._id}:${cause}`,
      'adminLowStock',
      (lang) => {
        const t = tr(lang);
        const product = (lang === 'am' && after.nameAm) || after.name;
        return compose(lang, t('mail.adminLowStock.subject', { product }), [
          t('mail.adminLowStock.intro', { product, sku: after.sku ?? '-', stock: after.stock, threshold }),
          `${this.config.adminUrl}/admin/products/${String(after._id)}`,
        ]);
      },
    );
  }

  private passwordReset(
    settings: Settings,
    event: Extract<NotificationEvent, { type: 'password.reset' }>,
  ): Message {
    const lang: Language = isLanguage(event.user.language) ? event.user.language : languageOf(settings);
    const t = tr(lang);
    const base = {
      eventKey: `password.reset:${event.requestId}`,
      template: 'passwordReset',
      language: lang,
      sensitive: true,
    };
    if (event.channel === 'sms') {
      return {
        ...base,
        channel: 'sms',
        to: event.user.phone ?? '',
        subject: '',
        text: t('mail.passwordReset.sms', { shop: settings.siteName, code: event.code ?? '' }),
      };
    }
    const rendered = compose(lang, t('mail.passwordReset.subject'), [
      t('mail.greeting', { name: event.user.name }),
      t('mail.passwordReset.intro'),
      event.link ?? '',
      t('mail.passwordReset.ignore'),
    ]);
    return { ...base, channel: 'email', to: event.user.email, ...rendered };
  }

  /** A customer's order message, in their language, if email and order notifications are on. */
  private async toCustomer(
    settings: Settings,
    order: OrderLike,
    template: string,
    eventKey: string,
    /** The customer's chosen language when the caller knows it (null: none chosen); read otherwise. */
    customerLanguage?: string | null,
  ): Promise<Message[]> {
    if (!settings.emailNotifications || !settings.orderNotifications) return [];
    const email = order.customer?.email;
    if (!email) return [];
    const chosen =
      customerLanguage !== undefined
        ? (customerLanguage ?? undefined)
        : order.user
          ? await this.users.languageOf(String(order.user))
          : undefined;
    const lang: Language = isLanguage(chosen) ? chosen : languageOf(settings);
    const t = tr(lang);
    const number = orderNumberOf(order);
    const orderLink = `${this.config.storefrontUrl}/account/orders/${String(order._id)}`;
    const blocks: Block[] = [t('mail.greeting', { name: order.customer?.name ?? '' })];
    let subject: string;
    switch (template) {
      case 'paymentFailed':
        subject = t('mail.paymentFailed.subject', { number });
        blocks.push(t('mail.paymentFailed.intro', { number, link: orderLink }));
        break;
      case 'paymentReceived':
        subject = t('mail.paymentReceived.subject', { number });
        blocks.push(
          t('mail.paymentReceived.intro', { number, amount: money(order.totalAmountSantim, lang) }),
        );
        break;
      case 'shipped':
        subject = t('mail.shipped.subject', { number });
        blocks.push(t('mail.shipped.intro', { number }));
        if (order.trackingNumber) blocks.push(t('mail.shipped.tracking', { tracking: order.trackingNumber }));
        break;
      case 'cancelled':
        subject = t('mail.cancelled.subject', { number });
        blocks.push(t('mail.cancelled.intro', { number }));
        if (order.paymentStatus === 'refund_pending' || order.paymentStatus === 'refunded')
          blocks.push(t('mail.cancelled.refund', { amount: money(order.totalAmountSantim, lang) }));
        break;
      default:
        subject = t(`mail.${template}.subject`, { number });
        blocks.push(t(`mail.${template}.intro`, { number }));
    }
    blocks.push(...orderSummary(order, lang));
    if (template !== 'paymentFailed') blocks.push(t('mail.viewOrder', { link: orderLink }));
    blocks.push(t('mail.signature', { shop: settings.siteName }));
    return [
      {
        eventKey,
        channel: 'email',
        to: email,
        template,
        language: lang,
        ...compose(lang, subject, blocks),
      },
    ];
  }

  /** A message to the shop's admin email, in the shop's language, if email notifications and `switchOn` allow. */
  private toAdmin(
    settings: Settings,
    switchOn: boolean,
    eventKey: string,
    template: string,
    render: (lang: Language) => ReturnType<typeof compose>,
  ): Message[] {
    if (!settings.emailNotifications || !switchOn || !settings.adminEmail) return [];
    const lang = languageOf(settings);
    return [
      { eventKey, channel: 'email', to: settings.adminEmail, template, language: lang, ...render(lang) },
    ];
  }
}

const tr = (lang: Language) => (key: string, params?: Record<string, string | number>) =>
  translate(lang, key, params);

function languageOf(settings: Settings): Language {
  return isLanguage(settings.language) ? settings.language : 'en';
}

/** What staff see of a message: never the content of a password reset. */
export function toRecord(row: Lean<Notification>) {
  return {
    id: String(row._id),
    _id: String(row._id),
    eventKey: row.eventKey,
    channel: row.channel,
    to: row.to,
    template: row.template,
    language: row.language,
    subject: row.subject,
    text: row.sensitive ? undefined : row.text,
    html: row.sensitive ? undefined : row.html,
    sensitive: row.sensitive === true,
    state: row.state,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    sentAt: row.sentAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
