import type { Settings as SiteSettings } from './schemas/settings.schema';

/**
 * The settings read that may be answered from what this instance read a moment ago: the settings
 * module declares it and reads through it, the cache module (apps/api/src/cache/settings-reads.ts)
 * supplies it and forgets on the settings changes the module publishes. Without a cache module,
 * `READ_SETTINGS_EACH_TIME` reads each time.
 */
export interface SettingsReads {
  settings(read: () => Promise<SiteSettings>): Promise<SiteSettings>;
}

/** The injection token of the settings read (provided by the cache module). */
export const SETTINGS_READS = 'SettingsReads';

export const READ_SETTINGS_EACH_TIME: SettingsReads = { settings: (read) => read() };
