import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { NotificationsWorker } from '../notifications/notifications.worker';
import { GracefulShutdown } from './graceful-shutdown.service';

/** A readiness ping gives the database this long (a load balancer asks every second or so). */
export const READY_PING_TIMEOUT_MS = 1000;

export type ReadinessCheck = 'database' | 'indexes' | 'outbox' | 'shutdown';
export type CheckState = 'ok' | 'off' | 'failing';

export interface Readiness {
  ready: boolean;
  checks: Record<ReadinessCheck, CheckState>;
  failing: ReadinessCheck[];
}

/**
 * Whether this instance should be sent requests (docs/decisions/0073-liveness-and-readiness.md): the
 * database answers a ping within a second, every model's indexes are built, the outbox worker runs
 * (when this instance is configured to run one) and the process is not shutting down.
 */
@Injectable()
export class ReadinessService implements OnApplicationBootstrap {
  private indexes?: Promise<unknown>;
  private indexesBuilt = false;
  private worker?: NotificationsWorker;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly shutdown: GracefulShutdown,
    private readonly moduleRef: ModuleRef,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = this.moduleRef.get(NotificationsWorker, { strict: false });
    this.watchIndexes();
  }

  /** Mongoose builds each model's indexes at start (autoIndex); a failed build is tried again here. */
  private watchIndexes(retry = false): void {
    const models = Object.values(this.connection.models);
    const building = Promise.all(models.map((model) => (retry ? model.createIndexes() : model.init())));
    this.indexes = building;
    building.then(
      () => {
        if (this.indexes === building) this.indexesBuilt = true;
      },
      () => {
        if (this.indexes === building) this.indexes = undefined;
      },
    );
  }

  async check(): Promise<Readiness> {
    const checks: Record<ReadinessCheck, CheckState> = {
      database: (await this.ping()) ? 'ok' : 'failing',
      indexes: this.indexesBuilt ? 'ok' : 'failing',
      outbox: !this.worker?.enabled ? 'off' : this.worker.active ? 'ok' : 'failing',
      shutdown: this.shutdown.shuttingDown ? 'failing' : 'ok',
    };
    if (!this.indexesBuilt && !this.indexes && checks.database === 'ok') this.watchIndexes(true);
    const failing = (Object.keys(checks) as ReadinessCheck[]).filter((name) => checks[name] === 'failing');
    return { ready: failing.length === 0, checks, failing };
  }

  private async ping(): Promise<boolean> {
    const db = this.connection.db;
    if (!db || this.connection.readyState !== 1) return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.command({ ping: 1 }),
        new Promise(
          (_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), READY_PING_TIMEOUT_MS)),
        ),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
