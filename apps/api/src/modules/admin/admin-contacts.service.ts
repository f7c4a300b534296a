import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { FilterQuery, Model } from 'mongoose';
import { InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { escapeRegex, parseObjectId } from '../../common/mongo';
import {
  filterEnum,
  filterObjectIds,
  filterText,
  parseListQuery,
  type ReactAdminListQuery,
} from '../../common/react-admin';
import { toContactView } from '../contacts/contacts.service';
import { Contact, CONTACT_STATUSES, type ContactStatus } from '../contacts/schemas/contact.schema';

const CONTACT_NOT_FOUND = 'Contact not found';
/** Fields of a contact record react-admin may send back on update; only status is editable. */
const RECORD_FIELDS = new Set([
  'id',
  '_id',
  'name',
  'email',
  'subject',
  'message',
  'ipAddress',
  'createdAt',
  'updatedAt',
  'status',
]);

type ContactRecord = Contact & { _id: unknown };
const toRecord = (doc: ContactRecord) => ({ id: String(doc._id), ...toContactView(doc) });

/** Contact messages for the back office. */
@Injectable()
export class AdminContactsService {
  constructor(@InjectModel(Contact.name) private readonly contacts: Model<Contact>) {}

  /** react-admin list: filters q (name, email, subject), status, id. */
  async list(query: ReactAdminListQuery) {
    const { sort, skip, limit, filter } = parseListQuery(query, {
      sortFields: {
        createdAt: 'createdAt',
        status: 'status',
        name: 'name',
        email: 'email',
        subject: 'subject',
      },
      filters: ['q', 'status'],
      defaultSort: ['createdAt', 'DESC'],
    });
    const where: FilterQuery<Contact> = {};
    const ids = filterObjectIds(filter);
    if (ids) where._id = { $in: ids };
    const q = filterText(filter, 'q');
    if (q) {
      const pattern = new RegExp(escapeRegex(q), 'i');
      where.$or = [{ name: pattern }, { email: pattern }, { subject: pattern }];
    }
    const statuses = filterEnum(filter, 'status', CONTACT_STATUSES);
    if (statuses) where.status = { $in: statuses };
    const [docs, total] = await Promise.all([
      this.contacts.find(where).sort(sort).skip(skip).limit(limit).lean().exec(),
      this.contacts.countDocuments(where).exec(),
    ]);
    return { records: docs.map(toRecord), skip, total };
  }

  async getOne(id: string) {
    const doc = await this.contacts.findById(parseObjectId(id, CONTACT_NOT_FOUND)).lean().exec();
    if (!doc) throw new NotFoundError(CONTACT_NOT_FOUND);
    return toRecord(doc);
  }

  /** Sets the status; the body may be the whole record (react-admin update) or just `{ status }`. */
  async update(id: string, body: unknown) {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new InvalidDataError('Validation failed');
    const data = body as Record<string, unknown>;
    const unknown = Object.keys(data).filter((k) => !RECORD_FIELDS.has(k));
    if (unknown.length) {
      throw new InvalidDataError(
        'Validation failed',
        unknown.map((field) => ({ field, message: `property ${field} should not exist` })),
      );
    }
    const status = data.status;
    if (typeof status !== 'string' || !(CONTACT_STATUSES as readonly string[]).includes(status)) {
      throw new InvalidDataError('Validation failed', [
        { field: 'status', message: `status must be one of ${CONTACT_STATUSES.join(', ')}` },
      ]);
    }
    const doc = await this.contacts
      .findByIdAndUpdate(
        parseObjectId(id, CONTACT_NOT_FOUND),
        { $set: { status: status as ContactStatus } },
        { new: true },
      )
      .lean()
      .exec();
    if (!doc) throw new NotFoundError(CONTACT_NOT_FOUND);
    return toRecord(doc);
  }

  async remove(id: string) {
    const doc = await this.contacts.findByIdAndDelete(parseObjectId(id, CONTACT_NOT_FOUND)).lean().exec();
    if (!doc) throw new NotFoundError(CONTACT_NOT_FOUND);
    return toRecord(doc);
  }
}
