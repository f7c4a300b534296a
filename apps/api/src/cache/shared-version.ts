import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectModel, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Changes } from '../common/changes';
import { isDuplicateKeyError } from '../common/mongo';
import { APP_CONFIG, type AppConfig } from '../config';
import { isPublicData } from './invalidation';

/**
 * The version of every public-data cache, shared by every API instance over the database: each
 * instance increments it once after its public-data changes (at its next tick), and reads it every
 * eighth of HOT_CACHE_TTL_MS; when another instance moved it, this instance's caches forget.
 */
@Schema({ collection: 'cacheversions', versionKey: false })
export class CacheVersion {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) v!: number;
}
export const CacheVersionSchema = SchemaFactory.createForClass(CacheVersion);
const PUBLIC_DATA = 'public';

/**
 * The shared version and this instance's view of it. Writes made by another instance show within
 * `ttlMs` (HOT_CACHE_TTL_MS, default 2 s; 0 turns the caches off): what is kept is vouched for only
 * while the version was confirmed unchanged less than a quarter of the TTL ago (it is read every
 * eighth of it), so it can live until the version moves, at most `lifeMs` (HOT_CACHE_MAX_AGE_MS,
 * default 60 s: writes made outside any API instance, by a script, say). Without the version (no
 * database model), things kept live `ttlMs`.
 */
@Injectable()
export class SharedVersion implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('HotCache');
  readonly ttlMs: number;
  readonly maxBytes: number;
  /** Life of a kept answer from when it was stored: `maxAgeMs` with the shared version, `ttlMs` without. */
  readonly lifeMs: number;
  /** Life of things kept until the next change or version move (at least HOT_CACHE_MAX_AGE_MS). */
  readonly maxAgeMs: number;
  /** Whether kept things are tied to the shared version (a database model, and the caches on). */
  readonly versioned: boolean;
  private readonly moved: (() => void)[] = [];
  /** The version as last read (or moved by this instance), and when the read that confirmed it started. */
  private knownVersion?: number;
  private confirmedAt = 0;
  /** A change since the last move of the shared version: the next tick moves it. */
  private unannounced = false;
  private ticking = false;
  private failing = false;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'hotCacheTtlMs' | 'hotCacheMaxBytes' | 'hotCacheMaxAgeMs'>,
    changes: Changes,
    @Optional() @InjectModel(CacheVersion.name) private readonly versions?: Model<CacheVersion>,
  ) {
    this.ttlMs = config.hotCacheTtlMs;
    this.maxBytes = config.hotCacheMaxBytes ?? 64 * 1024 * 1024;
    this.versioned = this.versions !== undefined && this.versions !== null && this.ttlMs > 0;
    this.lifeMs = this.versioned ? Math.max(this.ttlMs, config.hotCacheMaxAgeMs ?? 0) : this.ttlMs;
    this.maxAgeMs = Math.max(this.ttlMs, config.hotCacheMaxAgeMs ?? 60000);
    changes.listen({
      changed: (change) => {
        if (isPublicData(change)) this.announce();
      },
    });
  }

  onModuleInit(): void {
    if (!this.versioned) return;
    // never awaited: a database that is down at start must not hold the start up (nothing is served meanwhile)
    void this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(10, Math.floor(this.ttlMs / 8)));
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** Calls `forget` whenever another instance moved the version (and at the first read). */
  onMoved(forget: () => void): void {
    this.moved.push(forget);
  }

  /** This instance changed public data: the version moves at the next tick (one move for all changes in between). */
  private announce(): void {
    if (this.versioned) this.unannounced = true;
  }

  /** Whether something kept until `expires` may be served now. */
  vouches(expires: number, now: number): boolean {
    if (expires <= now) return false;
    // with the shared version, only while it was confirmed recently (else: the database is unreachable)
    return !this.versioned || now - this.confirmedAt <= this.ttlMs / 4;
  }

  /**
   * Every eighth of the TTL: moves the shared version if this instance changed public data since the
   * last tick, else reads it; forgets everything when another instance moved it. A change here is thus
   * seen by the others within TTL/8 (the move) + TTL/4 (their confirmation window) + round trips.
   */
  private async tick(): Promise<void> {
    if (this.ticking || this.stopped || !this.versions) return;
    this.ticking = true;
    const started = Date.now();
    const moving = this.unannounced;
    this.unannounced = false;
    try {
      const doc = moving
        ? await this.versions
            .findOneAndUpdate(
              { _id: PUBLIC_DATA },
              { $inc: { v: 1 } },
              { upsert: true, new: true, projection: { v: 1 } },
            )
            .lean()
            .exec()
        : await this.versions.findById(PUBLIC_DATA, { v: 1 }).lean().exec();
      const version = doc?.v ?? 0;
      this.failing = false;
      if (moving && this.knownVersion !== undefined && version === this.knownVersion + 1) {
        // only this instance moved it since the last read: nothing else to forget
        this.knownVersion = version;
        this.confirmedAt = started;
      } else if (this.knownVersion === undefined || version > this.knownVersion) {
        // another instance moved it (the first read forgets too: nothing kept before it is vouched for)
        for (const forget of this.moved) forget();
        this.knownVersion = version;
        this.confirmedAt = started;
      } else if (version === this.knownVersion) this.confirmedAt = started;
    } catch (error) {
      // move again at the next tick (two first moves at once meet on the upsert's key; or the database is away)
      if (moving) this.unannounced = true;
      if (!this.failing && !isDuplicateKeyError(error))
        this.logger.warn(
          `Public-data version unavailable (answers are not replayed meanwhile): ${String(error)}`,
        );
      this.failing = !isDuplicateKeyError(error);
    } finally {
      this.ticking = false;
    }
  }
}
