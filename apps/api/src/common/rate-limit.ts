import { Global, Injectable, Logger, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel, MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './mongo';

/**
 * One rate-limit window of one key (a route and client, say), shared by every API instance over the
 * database: `n` hits since the window opened, the window closing at `resetAt`. A TTL index removes
 * the document once its window is over (MongoDB and the embedded engine run their TTL monitor about
 * once a minute; RateCounters also sweeps, as a backstop).
 */
@Schema({ collection: 'ratelimits', versionKey: false })
export class RateLimitWindow {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) n!: number;
  @Prop({ required: true }) resetAt!: Date;
}
export const RateLimitWindowSchema = SchemaFactory.createForClass(RateLimitWindow);
RateLimitWindowSchema.index({ resetAt: 1 }, { expireAfterSeconds: 0 });

export interface RateHit {
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window closes and the count starts again. */
  resetInMs: number;
}

/** How often an instance deletes windows that are over (besides MongoDB's own TTL monitor). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Counters for rate limits kept in MongoDB, so that several API instances count together. A window
 * opens at a key's first hit and lasts `windowMs` (as the in-memory counters did); a hit is one
 * atomic `$inc` on the open window, or one upsert that opens a new one.
 */
@Injectable()
export class RateCounters implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RateLimits');
  private sweepTimer?: NodeJS.Timeout;

  constructor(@InjectModel(RateLimitWindow.name) private readonly windows: Model<RateLimitWindow>) {}

  onModuleInit(): void {
    this.sweepTimer = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_EVERY_MS);
    this.sweepTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
  }

  async hit(key: string, windowMs: number): Promise<RateHit> {
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      // the common case: the window is open, count this hit in it
      const open = await this.windows
        .findOneAndUpdate({ _id: key, resetAt: { $gt: new Date(now) } }, { $inc: { n: 1 } }, { new: true })
        .lean()
        .exec();
      if (open) return { count: open.n, resetInMs: Math.max(0, open.resetAt.getTime() - now) };
      // no open window: open one (or restart the one that is over); two instances racing to insert
      // the same key meet the unique _id, and the loser counts in the winner's window
      const resetAt = new Date(now + windowMs);
      try {
        const opened = await this.windows
          .findOneAndUpdate(
            { _id: key, resetAt: { $lte: new Date(now) } },
            { $set: { n: 1, resetAt } },
            { new: true, upsert: true },
          )
          .lean()
          .exec();
        return { count: opened!.n, resetInMs: windowMs };
      } catch (error) {
        if (!isDuplicateKeyError(error) || attempt >= 3) throw error;
      }
    }
  }

  /**
   * Takes back one hit of the key's open window: a try that turned out not to count (the order
   * lookup counts every try and takes a successful one back).
   */
  async unhit(key: string): Promise<void> {
    await this.windows
      .updateOne({ _id: key, resetAt: { $gt: new Date() }, n: { $gt: 0 } }, { $inc: { n: -1 } })
      .exec();
  }

  /** Deletes windows that closed more than a minute ago; answers how many. */
  async sweep(now = Date.now()): Promise<number> {
    const result = await this.windows.deleteMany({ resetAt: { $lt: new Date(now - 60_000) } }).exec();
    if (result.deletedCount) this.logger.debug?.(`swept ${result.deletedCount} closed rate-limit windows`);
    return result.deletedCount;
  }
}

/**
 * @nestjs/throttler's storage on RateCounters: the throttler keeps its guard, headers and answer
 * (429, Retry-After); only where it counts changes. Over the limit, a key stays blocked until its
 * window closes.
 */
@Injectable()
export class MongoThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly counters: RateCounters) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    const { count, resetInMs } = await this.counters.hit(`throttle:${throttlerName}:${key}`, ttl);
    const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
    const isBlocked = count > limit;
    return { totalHits: count, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 };
  }
}

/** Rate-limit counters in the database for every module (sign-in, password reset, contact form). */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: RateLimitWindow.name, schema: RateLimitWindowSchema }])],
  providers: [RateCounters, MongoThrottlerStorage],
  exports: [RateCounters, MongoThrottlerStorage],
})
export class RateLimitModule {}
