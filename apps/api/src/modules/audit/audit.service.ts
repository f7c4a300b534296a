import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { AuditEntry, type AuditEntity } from './schemas/audit-entry.schema';

export interface AuditChange {
  entity: AuditEntity;
  entityId: string;
  action: string;
  from?: unknown;
  to?: unknown;
}

/** The audit trail of DECISIONS/issue 10: order status, role, activation, product price and stock. */
@Injectable()
export class AuditService {
  constructor(@InjectModel(AuditEntry.name) private readonly entries: Model<AuditEntry>) {}

  /** Records one change by an actor (undefined for the system, e.g. a payment webhook). */
  async record(actor: Pick<AuthUser, 'id' | 'email'> | undefined, change: AuditChange): Promise<void> {
    await this.entries.create({
      ...change,
      actor: actor ? new Types.ObjectId(actor.id) : undefined,
      actorEmail: actor?.email,
    });
  }
}
