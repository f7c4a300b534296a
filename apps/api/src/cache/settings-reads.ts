import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Changes, type Change } from '../common/changes';
import { APP_CONFIG, type AppConfig } from '../config';
import type { SettingsReads } from '../modules/settings/settings-reads';
import type { SiteSettings } from '../modules/settings/settings.service';
import { forgets } from './invalidation';
import { onModelWrite } from './model-writes';

/**
 * The settings as last read, for HOT_CACHE_TTL_MS (2 s): every order, checkout page and guarded
 * request reads them. Forgotten at once when this instance hears of a settings change, or of a write
 * through the Settings model in this process (model-writes.ts; a read under
 * way then keeps nothing); another instance's save shows within the TTL, as in its kept public
 * settings answer (which is what the checkout page showed the customer). 0 turns it off. One read
 * answers every caller meanwhile; a failed read is not kept.
 */
@Injectable()
export class CachedSettingsReads implements SettingsReads, OnModuleDestroy {
  private memo?: { value: Promise<SiteSettings>; until: number; generation: number };
  private generation = 0;
  private readonly ttlMs: number;
  private readonly unwatch: () => void;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'hotCacheTtlMs'>, changes: Changes) {
    this.ttlMs = config.hotCacheTtlMs;
    const forget = (change: Change) => {
      if (!forgets(change, 'settings')) return;
      this.generation++;
      this.memo = undefined;
    };
    changes.listen({ begin: forget, changed: forget });
    // a write through the Settings model anywhere in this process (a script, a test) is heard too
    this.unwatch = onModelWrite('settings', () => forget({ kind: 'settings' }));
  }

  onModuleDestroy(): void {
    this.unwatch();
  }

  settings(read: () => Promise<SiteSettings>): Promise<SiteSettings> {
    const now = Date.now();
    const memo = this.memo;
    if (memo && memo.until > now && memo.generation === this.generation) return memo.value;
    const value = read();
    if (this.ttlMs > 0) {
      this.memo = { value, until: now + this.ttlMs, generation: this.generation };
      value.catch(() => {
        if (this.memo?.value === value) this.memo = undefined;
      });
    }
    return value;
  }
}
