import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model, Types } from 'mongoose';
import { ConflictError, NotFoundError } from '../../common/errors/domain-error';
import { findPage, type ListPage, type ListQuery } from '../../common/list-query';
import { parseObjectId } from '../../common/mongo';
import { NotificationsService } from './notifications.service';
import {
  Notification,
  type NotificationChannel,
  type NotificationState,
} from './schemas/notification.schema';

export { NOTIFICATION_CHANNELS, NOTIFICATION_STATES } from './schemas/notification.schema';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/** The back office's filter of the outbox. */
export interface OutboxFilter {
  states?: readonly NotificationState[];
  channels?: readonly NotificationChannel[];
  template?: string;
  /** One recipient, exactly (an email address in any case, or a phone number). */
  to?: string;
}

type Lean<T> = T & { _id: Types.ObjectId };

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

export type NotificationRecord = ReturnType<typeof toRecord>;

/** The outbox as staff see it: the list, one message, and sending a message again. */
@Injectable()
export class OutboxAdminService {
  constructor(
    @InjectModel(Notification.name) private readonly notifications: Model<Notification>,
    private readonly outbox: NotificationsService,
  ) {}

  list(query: ListQuery<OutboxFilter>): Promise<ListPage<NotificationRecord>> {
    const { states, channels, template, to } = query.filter;
    const where: FilterQuery<Notification> = {};
    if (states) where.state = { $in: [...states] };
    if (channels) where.channel = { $in: [...channels] };
    if (template) where.template = template;
    if (to) where.to = to.toLowerCase();
    return findPage(this.notifications, where, query, (rows) => rows.map(toRecord));
  }

  /**
   * How many messages wait (pending, or sending under a worker's lease) or failed for good, by
   * channel: one aggregation over the state index, read at each metrics scrape (docs/operations.md).
   */
  async backlog(): Promise<{ state: NotificationState; channel: NotificationChannel; count: number }[]> {
    const rows = await this.notifications
      .aggregate<{ _id: { state: NotificationState; channel: NotificationChannel }; count: number }>([
        { $match: { state: { $in: ['pending', 'sending', 'failed'] } } },
        { $group: { _id: { state: '$state', channel: '$channel' }, count: { $sum: 1 } } },
      ])
      .exec();
    return rows.map((row) => ({ state: row._id.state, channel: row._id.channel, count: row.count }));
  }

  async getOne(id: string): Promise<NotificationRecord> {
    const row = await this.notifications
      .findById(parseObjectId(id, NOTIFICATION_NOT_FOUND, 'NOTIFICATION_NOT_FOUND'))
      .lean()
      .exec();
    if (!row) throw new NotFoundError(NOTIFICATION_NOT_FOUND, 'NOTIFICATION_NOT_FOUND');
    return toRecord(row);
  }

  /** Staff send a sent or failed message again: it goes back to pending with fresh attempts. */
  async resend(id: string): Promise<NotificationRecord> {
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
        throw new ConflictError(
          'A password reset message cannot be resent; ask for a new one',
          'NOTIFICATION_RESEND_SENSITIVE',
        );
      throw new ConflictError(
        `This message is ${existing.state}; only sent or failed messages can be resent`,
        'NOTIFICATION_NOT_RESENDABLE',
        { state: existing.state },
      );
    }
    this.outbox.onEnqueued?.();
    return toRecord(row);
  }
}
