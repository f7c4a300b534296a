import { Global, Module } from '@nestjs/common';
import { SessionCache } from './session-cache';

/**
 * Every cache of the API, beside the domain: domain services publish what changed (common/changes)
 * and never call a cache; the caches here listen.
 */
@Global()
@Module({
  providers: [SessionCache],
  exports: [SessionCache],
})
export class CacheModule {}
