/** Vocabularies the API validates and the back office offers, defined once for both. */
export const SETTINGS_CURRENCIES = ['ETB', 'USD'] as const;
export type SettingsCurrency = (typeof SETTINGS_CURRENCIES)[number];
export const SETTINGS_LANGUAGES = ['en', 'am'] as const;
export type SettingsLanguage = (typeof SETTINGS_LANGUAGES)[number];
/**
 * The shop clock's zones (docs/decisions/0081-replies-shop-clock-reports.md): the shop's own first (the
 * default), its neighbours, and the zones of staff or partners abroad; UTC for a technical view.
 */
export const SETTINGS_TIMEZONES = [
  'Africa/Addis_Ababa',
  'Africa/Nairobi',
  'Africa/Djibouti',
  'Africa/Cairo',
  'Asia/Riyadh',
  'Asia/Dubai',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'UTC',
] as const;
/** The shop clock when none is chosen. */
export const DEFAULT_SHOP_TIMEZONE = 'Africa/Addis_Ababa';
export type SettingsTimezone = (typeof SETTINGS_TIMEZONES)[number];

/** A contact message's state in the back office. */
export const CONTACT_STATUSES = ['unread', 'read', 'replied'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * Image uploads (docs/product.md §5: PNG, JPEG, GIF or WebP photos, under 5 MB; docs/decisions/0093): the API refuses a file of
 * UPLOAD_MAX_BYTES or more and more than UPLOAD_MAX_FILES per request; the back office checks the same
 * before sending.
 */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_FILES = 5;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
