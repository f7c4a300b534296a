import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { ClientSession, Model } from 'mongoose';
import { modelDocument } from '../../common/model-document';
import { isDuplicateKeyError } from '../../common/mongo';
import type {
  KnownContext,
  NotificationEvent,
  OutboxMessage,
  WishlistNoticeKind,
} from './notification-events';
import { NotificationMessages } from './notification-messages';
import { Notification } from './schemas/notification.schema';
import { UnsubscribeTokens } from './unsubscribe-tokens';

export type {
  ContactLike,
  KnownContext,
  NotificationEvent,
  ProductLike,
  WishlistNoticeKind,
} from './notification-events';

/**
 * The outbox. `enqueue(session, event)` is called by other services inside the transaction that
 * makes the change, so the message exists exactly when the change does; the unique `eventKey` makes
 * each event's message once however often it is triggered. NotificationMessages says what each event
 * says to whom; NotificationsWorker delivers; OutboxAdminService shows the outbox to staff.
 */
@Injectable()
export class NotificationsService {
  /** Called after each enqueue so the worker looks soon (set by the worker when it runs). */
  onEnqueued?: () => void;

  constructor(
    @InjectModel(Notification.name) private readonly notifications: Model<Notification>,
    private readonly messages: NotificationMessages,
    private readonly tokens: UnsubscribeTokens,
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
    const messages = await this.messages.messagesFor(event, known);
    if (!messages.length) return;
    const now = new Date();
    const upserts = messages.map((message) => this.upsertOf(message, now));
    if (session) {
      // In a transaction a message that exists already aborts it anyway: every message in one command.
      await this.notifications.collection.bulkWrite(
        upserts.map((updateOne) => ({ updateOne })),
        { session, ordered: true },
      );
    } else {
      for (const { filter, update } of upserts) {
        try {
          await this.notifications.collection.updateOne(filter, update, { upsert: true });
        } catch (error) {
          // two triggers of one event outside a transaction: the unique index already holds its message
          if (!isDuplicateKeyError(error)) throw error;
        }
      }
    }
    this.onEnqueued?.();
  }

  /**
   * A message's upsert on its unique `eventKey`, through the model's collection: a new message is the
   * document the model would store (defaults, timestamps, version key: common/model-document; its
   * `_id` the database's, as on any upsert); one that exists already (the event triggered again) is
   * left as it is but for its `updatedAt`.
   */
  private upsertOf(message: OutboxMessage, now: Date) {
    // due at once: at the moment it was made (the schema's default would read the clock a second time)
    const { _id, updatedAt, ...inserted } = modelDocument(
      this.notifications,
      { ...message, nextAttemptAt: now },
      now,
    );
    return {
      filter: { eventKey: message.eventKey },
      update: { $setOnInsert: inserted, $set: { updatedAt } },
      upsert: true,
    };
  }

  /** Reads a wishlist notice's unsubscribe token; null when it was not made by this shop. */
  readUnsubscribeToken(
    token: string,
  ): { userId: string; productId: string; kind: WishlistNoticeKind } | null {
    return this.tokens.read(token);
  }
}
