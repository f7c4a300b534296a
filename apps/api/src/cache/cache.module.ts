import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { SESSION_READS } from '../modules/auth/session-reads';
import { CATALOGUE_READS } from '../modules/catalog/catalogue-reads';
import { CatalogModule } from '../modules/catalog/catalog.module';
import { SETTINGS_READS } from '../modules/settings/settings-reads';
import { AnswerReplay } from './answer-replay';
import { AnswerStore } from './answer-store';
import { CatalogueDoor } from './catalogue-door';
import { CachedCatalogueReads } from './catalogue-reads';
import { EarlyDoor } from './early-door';
import { HttpCapture } from './http-capture';
import { SessionCache } from './session-cache';
import { CachedSettingsReads } from './settings-reads';
import { CacheVersion, CacheVersionSchema, SharedVersion } from './shared-version';

/**
 * Every cache of the API, beside the domain: domain services publish what changed (common/changes)
 * and never call a cache; the caches here listen, as one table says (invalidation.ts):
 * - the HTTP answers of anonymous public reads (answer-store.ts), filled and replayed by two doors,
 *   one before Express (early-door.ts, catalogue-door.ts) and one inside it (http-capture.ts), and
 *   shared across instances by a version in the database (shared-version.ts);
 * - the catalogue's reads (catalogue-reads.ts: listing counts, product fragments, products read
 *   moments ago), which the catalogue reads through (`CATALOGUE_READS`);
 * - the settings (settings-reads.ts, `SETTINGS_READS`);
 * - what a token stood for (session-cache.ts), which the auth module's token lookup reads through
 *   (`SESSION_READS`).
 */
@Global()
@Module({
  imports: [
    MongooseModule.forFeature([{ name: CacheVersion.name, schema: CacheVersionSchema }]),
    CatalogModule,
  ],
  providers: [
    SharedVersion,
    AnswerStore,
    AnswerReplay,
    EarlyDoor,
    HttpCapture,
    CatalogueDoor,
    { provide: CATALOGUE_READS, useClass: CachedCatalogueReads },
    { provide: SETTINGS_READS, useClass: CachedSettingsReads },
    SessionCache,
    { provide: SESSION_READS, useExisting: SessionCache },
  ],
  exports: [
    AnswerStore,
    EarlyDoor,
    HttpCapture,
    CATALOGUE_READS,
    SETTINGS_READS,
    SessionCache,
    SESSION_READS,
  ],
})
export class CacheModule {}
