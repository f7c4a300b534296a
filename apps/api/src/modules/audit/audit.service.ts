import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ClientSession, FilterQuery, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { NotFoundError } from '../../common/errors/domain-error';
import { findPage, type ListQuery } from '../../common/list-query';
import { parseObjectId } from '../../common/mongo';
import { AuditEntry, type AuditEntity } from './schemas/audit-entry.schema';

export { AUDIT_ENTITIES, type AuditEntity } from './schemas/audit-entry.schema';

export interface AuditChange {
  entity: AuditEntity;
  entityId: string;
  action: string;
  from?: unknown;
  to?: unknown;
  /** What made the change when no one signed in did (payments: webhook, verify, reverify, test). */
  source?: string;
}

/** The back office's filter of the audit trail. */
export interface AuditFilter {
  entities?: readonly AuditEntity[];
  entityId?: string;
  action?: string;
  /** The actors' user ids (24 hex characters). */
  actors?: readonly string[];
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

/** The audit trail (docs/decisions/0033-back-office-api.md): order status, role, activation, product price and stock, settings. */
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

  /** A page of the trail for the back office. */
  list(query: ListQuery<AuditFilter>) {
    const { entities, entityId, action, actors } = query.filter;
    const where: FilterQuery<AuditEntry> = {};
    if (entities) where.entity = { $in: [...entities] };
    if (entityId) where.entityId = entityId;
    if (action) where.action = action;
    if (actors) where.actor = { $in: actors.map((id) => new Types.ObjectId(id)) };
    return findPage(this.entries, where, query, (docs) => docs.map((d) => toAuditView(d as AuditRecord)));
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
