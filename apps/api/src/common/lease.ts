import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { InjectModel, MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isDuplicateKeyError } from './mongo';

/** Who runs a job that only one API instance may run at a time, and until when. */
@Schema({ collection: 'leases', versionKey: false })
export class Lease {
  /** The job's name. */
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) holder!: string;
  @Prop({ required: true }) until!: Date;
}
export const LeaseSchema = SchemaFactory.createForClass(Lease);

/**
 * Leases on named jobs in the database: `acquire` takes a free or expired lease, or renews this
 * instance's own, with one atomic findOneAndUpdate; `release` gives it back. An instance that dies
 * holding a lease loses it when it expires.
 */
@Injectable()
export class Leases {
  /** This process, as it appears in the `holder` field. */
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(@InjectModel(Lease.name) private readonly leases: Model<Lease>) {}

  /** True when this instance holds the lease for the next `ttlMs` (taken or renewed). */
  async acquire(name: string, ttlMs: number): Promise<boolean> {
    const now = new Date();
    try {
      const lease = await this.leases
        .findOneAndUpdate(
          { _id: name, $or: [{ until: { $lte: now } }, { holder: this.holder }] },
          { $set: { holder: this.holder, until: new Date(now.getTime() + ttlMs) } },
          { new: true, upsert: true },
        )
        .lean()
        .exec();
      return lease?.holder === this.holder;
    } catch (error) {
      // held by another instance: the upsert met the existing _id
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Gives the lease back if this instance holds it (another may take it at once). */
  async release(name: string): Promise<void> {
    await this.leases.deleteOne({ _id: name, holder: this.holder }).exec();
  }

  /** The current holder of a lease that has not expired, or undefined. */
  async holderOf(name: string): Promise<string | undefined> {
    const lease = await this.leases
      .findOne({ _id: name, until: { $gt: new Date() } })
      .lean()
      .exec();
    return lease?.holder;
  }
}

/**
 * Runs `job` every `intervalMs` on whichever instance holds the lease `name`: each tick takes or
 * renews the lease (its lifetime is two intervals, at least `minLeaseMs`), a long run keeps renewing
 * it, and `stop()` releases it so that another instance takes over at its next tick.
 */
export class LeasedJob {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private readonly logger: Logger;
  readonly leaseMs: number;

  constructor(
    private readonly leases: Leases,
    readonly name: string,
    private readonly intervalMs: number,
    private readonly job: () => Promise<void>,
    minLeaseMs = 30_000,
  ) {
    this.leaseMs = Math.max(intervalMs * 2, minLeaseMs);
    this.logger = new Logger(`Lease ${name}`);
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref(); // never keeps the process alive on its own
  }

  /** One tick: runs the job if this instance holds (or could take) the lease. Answers whether it ran. */
  async tick(): Promise<boolean> {
    if (this.running || this.stopped) return false; // a slow run must not stack runs
    let ran = false;
    const run = (async () => {
      if (!(await this.leases.acquire(this.name, this.leaseMs))) return;
      const renew = setInterval(
        () => void this.leases.acquire(this.name, this.leaseMs).catch(() => undefined),
        Math.max(1000, Math.floor(this.leaseMs / 3)),
      );
      renew.unref();
      try {
        ran = true;
        await this.job();
      } finally {
        clearInterval(renew);
      }
    })()
      .catch((error: Error) => this.logger.warn(`run failed: ${error.message}`))
      .finally(() => (this.running = undefined));
    this.running = run;
    await run;
    return ran;
  }

  /** Stops ticking, waits for a run under way, and releases the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.leases.release(this.name).catch(() => undefined);
  }
}

/** Leases for jobs that one instance at a time runs (the payment re-verification). */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: Lease.name, schema: LeaseSchema }])],
  providers: [Leases],
  exports: [Leases],
})
export class LeaseModule {}
