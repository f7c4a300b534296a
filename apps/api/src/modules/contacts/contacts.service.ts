import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Connection, FilterQuery, Model } from 'mongoose';
import { Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { ConflictError, NotFoundError } from '../../common/errors/domain-error';
import { findPage, type ListPage, type ListQuery } from '../../common/list-query';
import { escapeRegex, parseObjectId, inTransaction } from '../../common/mongo';
import { AuditService } from '../audit/audit.service';
import { NotificationsService } from '../notifications/notifications.service';
import { SettingsService } from '../settings/settings.service';
import {
  Contact,
  CONTACT_MAX_REPLIES,
  type ContactReply,
  type ContactStatus,
} from './schemas/contact.schema';

export { CONTACT_STATUSES, type ContactStatus } from './schemas/contact.schema';
import type { SubmitContactDto } from './dto/contact.dto';

const CONTACT_NOT_FOUND = 'Contact not found';

export interface ContactView {
  _id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactStatus;
  ipAddress?: string;
  /** The page language of the message (absent on messages sent before it was kept). */
  language?: string;
  replies: ContactReplyView[];
  createdAt: Date;
  updatedAt: Date;
}

export interface ContactReplyView {
  _id: string;
  text: string;
  author: string;
  authorName: string;
  language: string;
  at: Date;
}

/** The back office's filter of contact messages. */
export interface ContactFilter {
  /** Text in the name, email or subject (any case). */
  q?: string;
  statuses?: readonly ContactStatus[];
}

type StoredContact = Contact & { _id: unknown };

export function toContactView(contact: StoredContact): ContactView {
  return {
    _id: String(contact._id),
    name: contact.name,
    email: contact.email,
    subject: contact.subject,
    message: contact.message,
    status: contact.status,
    ipAddress: contact.ipAddress,
    language: contact.language,
    replies: (contact.replies ?? []).map((r) => {
      const reply = r as ContactReply & { _id?: unknown };
      return {
        _id: String(reply._id),
        text: reply.text,
        author: String(reply.author),
        authorName: reply.authorName,
        language: reply.language,
        at: reply.at,
      };
    }),
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
  };
}

@Injectable()
export class ContactsService {
  constructor(
    @InjectModel(Contact.name) private readonly contacts: Model<Contact>,
    @InjectConnection() private readonly connection: Connection,
    private readonly notifications: NotificationsService,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
  ) {}

  async submit(
    input: SubmitContactDto,
    sender: { ipAddress?: string; userAgent?: string },
  ): Promise<ContactView> {
    // the message and the admin's notice of it are written together
    return inTransaction(
      this.connection,
      async (session) => {
        const [created] = await this.contacts.create(
          [
            {
              name: input.name,
              email: input.email,
              subject: input.subject,
              message: input.message,
              status: 'unread',
              language: input.language,
              ipAddress: sender.ipAddress,
              userAgent: sender.userAgent?.slice(0, 500),
            },
          ],
          { session },
        );
        await this.notifications.enqueue(session, { type: 'contact.received', contact: created.toObject() });
        return toContactView(created.toObject());
      },
      'Too many requests right now, please try again',
    );
  }

  /**
   * A staff reply: kept on the message's thread, the message marked replied, the email to the sender
   * queued in the outbox in the message's language (the shop's for older messages) and the reply
   * audited, all in one transaction.
   */
  async reply(id: string, text: string, actor: AuthUser): Promise<ContactView> {
    const contactId = parseObjectId(id, CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND');
    const settings = await this.settings.get();
    return inTransaction(
      this.connection,
      async (session) => {
        const current = await this.contacts.findById(contactId).session(session).lean();
        if (!current) throw new NotFoundError(CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND');
        if ((current.replies?.length ?? 0) >= CONTACT_MAX_REPLIES)
          throw new ConflictError(
            `A message keeps at most ${CONTACT_MAX_REPLIES} replies`,
            'CONTACT_REPLIES_LIMIT',
          );
        const language =
          current.language === 'am' || current.language === 'en' ? current.language : settings.language;
        const reply = {
          _id: new Types.ObjectId(),
          text,
          author: new Types.ObjectId(actor.id),
          authorName: actor.name,
          language,
          at: new Date(),
        };
        const updated = await this.contacts
          .findByIdAndUpdate(
            contactId,
            { $push: { replies: reply }, $set: { status: 'replied' } },
            { new: true, session },
          )
          .lean();
        if (!updated) throw new NotFoundError(CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND');
        await this.notifications.enqueue(
          session,
          {
            type: 'contact.reply',
            contact: updated,
            reply: { _id: reply._id, text, authorName: actor.name, language, at: reply.at },
          },
          { settings },
        );
        await this.audit.record(
          actor,
          {
            entity: 'contact',
            entityId: String(contactId),
            action: 'contact.reply',
            from: { status: current.status },
            to: { status: 'replied', reply: String(reply._id), language },
          },
          session,
        );
        return toContactView(updated);
      },
      'Too many requests right now, please try again',
    );
  }

  async list(status?: ContactStatus): Promise<ContactView[]> {
    const filter = status ? { status } : {};
    const rows = await this.contacts.find(filter).sort({ createdAt: -1, _id: -1 }).lean();
    return rows.map((row) => toContactView(row));
  }

  async get(id: string): Promise<ContactView> {
    const contact = await this.contacts
      .findById(parseObjectId(id, CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND'))
      .lean();
    if (!contact) throw new NotFoundError(CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND');
    return toContactView(contact);
  }

  async setStatus(id: string, status: ContactStatus): Promise<ContactView> {
    const contact = await this.contacts
      .findByIdAndUpdate(
        parseObjectId(id, CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND'),
        { $set: { status } },
        { new: true },
      )
      .lean();
    if (!contact) throw new NotFoundError(CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND');
    return toContactView(contact);
  }

  /** Deletes the message and answers it as it was. */
  async remove(id: string): Promise<ContactView> {
    const deleted = await this.contacts
      .findByIdAndDelete(parseObjectId(id, CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND'))
      .lean();
    if (!deleted) throw new NotFoundError(CONTACT_NOT_FOUND, 'CONTACT_NOT_FOUND');
    return toContactView(deleted);
  }

  /** A page of contact messages for the back office. */
  listForAdmin(query: ListQuery<ContactFilter>): Promise<ListPage<ContactView>> {
    const { q, statuses } = query.filter;
    const where: FilterQuery<Contact> = {};
    if (q) {
      const pattern = new RegExp(escapeRegex(q), 'i');
      where.$or = [{ name: pattern }, { email: pattern }, { subject: pattern }];
    }
    if (statuses) where.status = { $in: [...statuses] };
    return findPage(this.contacts, where, query, (docs) => docs.map(toContactView));
  }
}
