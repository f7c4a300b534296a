import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ClientSession, FilterQuery, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { NotFoundError } from '../../common/errors/domain-error';
import { parseObjectId } from '../../common/mongo';
import {
  filterEnum,
  filterObjectIds,
  filterText,
  parseListQuery,
  type ReactAdminListQuery,
} from '../admin/list/react-admin';
import { AUDIT_ENTITIES, AuditEntry, type AuditEntity } from './schemas/audit-entry.schema';

export interface AuditChange {
  entity: AuditEntity;
  entityId: string;
  action: string;
  from?: unknown;
  to?: unknown;
  /** What made the change when no one signed in did (payments: webhook, verify, reverify, test). */
  source?: string;
}

type AuditRecord = AuditEntry & { _id: unknown; __v?: number };

export function toAuditView(doc: AuditRecord) {
  return {
    id: String(doc._id),
    _id: String(doc._id),
    entity: doc.entity,
    entityId: doc.entityId,
    action: doc.action,
    from: doc.from,
    to: doc.to,
    actor: doc.actor ? String(doc.actor) : null,
    actorEmail: doc.actorEmail ?? null,
    actorName: doc.actorName ?? null,
    source: doc.source ?? null,
    createdAt: doc.createdAt,
  };
}

/** The audit trail of DECISIONS/issue 10: order status, role, activation, product price and stock, settings. */
@Injectable()
export class AuditService {
  constructor(@InjectModel(AuditEntry.name) private readonly entries: Model<AuditEntry>) {}

  /** Records one change by an actor (undefined for the system, e.g. a payment webhook). */
  async record(
    actor: (Pick<AuthUser, 'id' | 'email'> & { name?: string }) | undefined,
    change: AuditChange,
    session?: ClientSession,
  ): Promise<void> {
    const entry = {
      ...change,
      actor: actor ? new Types.ObjectId(actor.id) : undefined,
      actorEmail: actor?.email,
      actorName: actor?.name || undefined,
    };
    // inside the caller's transaction when given one: the entry exists exactly when the change does
    if (session) await this.entries.create([entry], { session });
    else await this.entries.create(entry);
  }

  /** The react-admin list: newest first by default; filters entity, entityId, action, actor. */
  async list(query: ReactAdminListQuery) {
    const { sort, skip, limit, filter } = parseListQuery(query, {
      sortFields: { createdAt: 'createdAt', entity: 'entity', action: 'action', actorEmail: 'actorEmail' },
      filters: ['entity', 'entityId', 'action', 'actor'],
      defaultSort: ['createdAt', 'DESC'],
    });
    const where: FilterQuery<AuditEntry> = {};
    const ids = filterObjectIds(filter);
    if (ids) where._id = { $in: ids };
    const entities = filterEnum(filter, 'entity', AUDIT_ENTITIES);
    if (entities) where.entity = { $in: entities };
    const entityId = filterText(filter, 'entityId');
    if (entityId) where.entityId = entityId;
    const action = filterText(filter, 'action');
    if (action) where.action = action;
    const actors = filterObjectIds(filter, 'actor');
    if (actors) where.actor = { $in: actors };
    const [docs, total] = await Promise.all([
      this.entries.find(where).sort(sort).skip(skip).limit(limit).lean().exec(),
      this.entries.countDocuments(where).exec(),
    ]);
    return { records: docs.map((d) => toAuditView(d as AuditRecord)), skip, total };
  }

  async getOne(id: string) {
    const doc = await this.entries
      .findById(parseObjectId(id, 'Audit entry not found', 'AUDIT_ENTRY_NOT_FOUND'))
      .lean()
      .exec();
    if (!doc) throw new NotFoundError('Audit entry not found', 'AUDIT_ENTRY_NOT_FOUND');
    return toAuditView(doc as AuditRecord);
  }
}
