import { Inject, Injectable } from '@nestjs/common';
import { isLanguage, type Language } from '@shop/i18n';
import { formatShopDateTime, isPayOnDelivery, storefrontPaths, storefrontUrl } from '@shop/shared';
import { APP_CONFIG, type AppConfig } from '../../config';
import { SettingsService, type SiteSettings as Settings } from '../settings/settings.service';
import { AccountsService } from '../users/accounts.service';
import type { KnownContext, NotificationEvent, OutboxMessage, ProductLike } from './notification-events';
import { compose, money, orderNumberOf, orderSummary, type Block, type OrderLike } from './templates';
import { UnsubscribeTokens } from './unsubscribe-tokens';
import { messageLanguage, shopName, tr } from './message-words';
import { Changes } from '../../common/changes';

/** Customer-facing order messages by status. */
const STATUS_TEMPLATES: Record<string, string | undefined> = {
  shipped: 'shipped',
  delivered: 'delivered',
  cancelled: 'cancelled',
};

/**
 * What each event says, to whom: the recipients (the customer in their language, the shop's admin in
 * the shop's), the switches of the settings that allow each message, and the rendered texts.
 */
@Injectable()
export class NotificationMessages {
  constructor(
    private readonly users: AccountsService,
    private readonly settings: SettingsService,
    private readonly tokens: UnsubscribeTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    changes: Changes,
  ) {
    // an account changed (its language, role, email or state): read the admin's language again
    changes.listen({
      changed: (change) => {
        const known = this.staffLanguage;
        if (change.kind !== 'account' || !known) return;
        // the admin account itself, or one that may have just become it (no such account was found)
        if (!known.id || !change.ids || change.ids.includes(known.id)) this.staffLanguage = undefined;
      },
    });
  }

  /** The event's messages, rendered, for the recipients the switches allow (none when all are off). */
  async messagesFor(event: NotificationEvent, known: KnownContext = {}): Promise<OutboxMessage[]> {
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
          ...(await this.toAdmin(
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
                    // a guest may have given only a phone
                    email: event.order.customer?.email || event.order.customer?.phone || '',
                  }),
                  ...orderSummary(event.order, lang),
                  `${this.config.adminUrl}/admin/orders/${String(event.order._id)}/show`,
                ],
              );
            },
          )),
          ...(
            await Promise.all(
              (event.reserved ?? []).map(({ product, quantity }) =>
                this.lowStock(
                  settings,
                  { ...product, stock: product.stock + quantity },
                  product,
                  `order:${event.order._id}`,
                ),
              ),
            )
          ).flat(),
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
      case 'payment.refunded':
        return this.toCustomer(
          settings,
          event.order,
          'refunded',
          `payment.refunded:${String(event.order._id)}:${event.refundId}`,
          undefined,
          event.amountSantim,
        );
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
      case 'contact.reply': {
        // transactional: an answer the customer asked for, sent whatever the marketing switches say
        const lang = messageLanguage(event.reply.language, settings);
        const t = tr(lang);
        const c = event.contact;
        const sent = c.createdAt ? formatShopDateTime(c.createdAt, lang, settings.timezone) : '';
        return [
          {
            eventKey: `contact.reply:${String(event.reply._id)}`,
            channel: 'email',
            to: c.email,
            template: 'contactReply',
            language: lang,
            ...compose(
              lang,
              t('mail.contactReply.subject', { subject: c.subject, shop: shopName(settings, lang) }),
              [
                t('mail.greeting', { name: c.name }),
                event.reply.text,
                t('mail.contactReply.closing', {
                  name: event.reply.authorName,
                  shop: shopName(settings, lang),
                }),
                { heading: t('mail.contactReply.yourMessage', { date: sent }) },
                c.message,
              ],
            ),
          },
        ];
      }
      case 'stock.changed':
        return this.lowStock(settings, event.before, event.after, event.cause);
      case 'wishlist.notice':
        return this.wishlistNotices(settings, event);
      case 'password.reset':
        return [this.passwordReset(settings, event)];
      case 'phone.verify':
      case 'phone.signin': {
        const lang = messageLanguage(event.language, settings);
        const template = event.type === 'phone.verify' ? 'phoneVerify' : 'phoneSignIn';
        return [
          {
            eventKey: `${event.type}:${event.requestId}`,
            channel: 'sms',
            to: event.phone,
            template,
            language: lang,
            subject: '',
            text: tr(lang)(`mail.${template}.sms`, { shop: shopName(settings, lang), code: event.code }),
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
  ): Promise<OutboxMessage[]> {
    if (!settings.emailNotifications || !event.userIds.length) return [];
    const recipients = await this.users.recipientsByIds(event.userIds);
    const product = event.product;
    const productId = String(product._id);
    const template = event.kind === 'sale' ? 'onSale' : 'backInStock';
    const messages: OutboxMessage[] = [];
    for (const userId of event.userIds) {
      const user = recipients.get(userId);
      if (!user?.email) continue;
      const lang = messageLanguage(user.language, settings);
      const t = tr(lang);
      const name = (lang === 'am' && product.nameAm) || product.name;
      // the page opens in the message's language (it sets the storefront's language cookie)
      const unsubscribe = this.link(
        storefrontPaths.unsubscribe(this.tokens.make(userId, productId, event.kind), lang),
        lang,
      );
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
          t('mail.productLink', { link: this.link(storefrontPaths.product(productId), lang) }),
          t('mail.signature', { shop: shopName(settings, lang) }),
          t('mail.unsubscribe', { link: unsubscribe }),
        ]),
      });
    }
    return messages;
  }

  /** The admin's alert when a product's stock crosses its low-stock threshold (lowStockAlerts). */
  private async lowStock(
    settings: Settings,
    before: ProductLike,
    after: ProductLike,
    cause: string,
  ): Promise<OutboxMessage[]> {
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
  ): OutboxMessage {
    const lang = messageLanguage(event.user.language, settings);
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
        text: t('mail.passwordReset.sms', { shop: shopName(settings, lang), code: event.code ?? '' }),
      };
    }
    const rendered = compose(lang, t('mail.passwordReset.subject'), [
      t('mail.greeting', { name: event.user.name }),
      t('mail.passwordReset.intro'),
      event.link ?? '',
      t('mail.passwordReset.ignore'),
    ]);
    return { ...base, channel: 'email', to: event.user.email ?? '', ...rendered };
  }

  /**
   * A customer's order message, in their language: by email if email and order notifications are on
   * and the order has an email; and, for a guest's order (no account), by SMS to its phone if order
   * notifications are on (docs/decisions/0062-guest-checkout-and-order-lookup.md).
   */
  private async toCustomer(
    settings: Settings,
    order: OrderLike,
    template: string,
    eventKey: string,
    /** The customer's chosen language when the caller knows it (null: none chosen); read otherwise. */
    customerLanguage?: string | null,
    /** 'refunded': the amount given back. */
    amountSantim?: number,
  ): Promise<OutboxMessage[]> {
    if (!settings.orderNotifications) return [];
    const email = settings.emailNotifications ? order.customer?.email : undefined;
    const smsTo = !order.user ? order.customer?.phone : undefined;
    if (!email && !smsTo) return [];
    // the order's language (docs/decisions/0077-links-and-message-language.md), else the account's
    const chosen = isLanguage(order.language)
      ? order.language
      : customerLanguage !== undefined
        ? (customerLanguage ?? undefined)
        : order.user
          ? await this.users.languageOf(String(order.user))
          : undefined;
    const lang = messageLanguage(chosen, settings);
    const t = tr(lang);
    const number = orderNumberOf(order);
    // a guest has no account page: its messages link to the order lookup (number filled in; the
    // guest gives the phone there), docs/decisions/0062; a customer's to the order's page (signed out:
    // sign-in first, then the page), docs/decisions/0077
    const orderLink = this.link(
      order.user ? storefrontPaths.order(String(order._id)) : storefrontPaths.orderLookup(number),
      lang,
    );
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
      case 'refunded':
        subject = t('mail.refunded.subject', { number });
        blocks.push(t('mail.refunded.intro', { number, amount: money(amountSantim ?? 0, lang) }));
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
    // what to have ready for the rider: an unpaid pay-on-delivery order's total
    const collect =
      isPayOnDelivery(order.paymentMethod) && order.paymentStatus === 'unpaid' && order.status !== 'cancelled'
        ? t('mail.payOnDelivery', { amount: money(order.totalAmountSantim, lang) })
        : undefined;
    if (collect) blocks.push(collect);
    blocks.push(...orderSummary(order, lang));
    if (template !== 'paymentFailed') blocks.push(t('mail.viewOrder', { link: orderLink }));
    blocks.push(t('mail.signature', { shop: shopName(settings, lang) }));
    const messages: OutboxMessage[] = [];
    if (email)
      messages.push({
        eventKey,
        channel: 'email',
        to: email,
        template,
        language: lang,
        ...compose(lang, subject, blocks),
      });
    if (smsTo)
      messages.push({
        eventKey: `${eventKey}:sms`,
        channel: 'sms',
        to: smsTo,
        template,
        language: lang,
        subject: '',
        text: t('mail.sms', {
          shop: shopName(settings, lang),
          text: [subject, collect, orderLink].filter(Boolean).join('. '),
        }),
      });
    return messages;
  }

  /** The admin email's account language, as last read, and when (ms since the epoch). */
  private staffLanguage?: { email: string; id?: string; language?: string; readAt: number };

  /**
   * The language the shop's admin account chose, kept between orders: every order writes a staff
   * message inside its transaction, and a database read per order for a choice that changes once in a
   * while is not worth its round trip (docs/decisions/0077). Forgotten when an account changes on this
   * instance, and read again after a minute at most (a change made through another instance).
   */
  private async staffLanguageOf(email: string): Promise<string | undefined> {
    const now = Date.now();
    const known = this.staffLanguage;
    if (known && known.email === email && now - known.readAt < STAFF_LANGUAGE_MS) return known.language;
    const { id, language } = await this.users.staffLanguageOf(email);
    this.staffLanguage = { email, id, language, readAt: now };
    return language;
  }

  /**
   * An absolute storefront address of a path of the route table (libs/shared storefront-routes), in the
   * message's language: an Amharic message links the Amharic page, `/am/…` (docs/decisions/0092).
   */
  private link(path: string, lang: string): string {
    return storefrontUrl(this.config.storefrontUrl, path, lang);
  }

  /**
   * A message to the shop's admin email if email notifications and `switchOn` allow: in the language
   * of the staff account with that email when it chose one, else the shop's.
   */
  private async toAdmin(
    settings: Settings,
    switchOn: boolean,
    eventKey: string,
    template: string,
    render: (lang: Language) => ReturnType<typeof compose>,
  ): Promise<OutboxMessage[]> {
    if (!settings.emailNotifications || !switchOn || !settings.adminEmail) return [];
    const chosen = await this.staffLanguageOf(settings.adminEmail);
    const lang = messageLanguage(chosen, settings);
    return [
      { eventKey, channel: 'email', to: settings.adminEmail, template, language: lang, ...render(lang) },
    ];
  }
}

/** How long the admin account's language is kept between reads (NotificationMessages.staffLanguageOf). */
const STAFF_LANGUAGE_MS = 60_000;
