/** Vocabularies the API validates and the back office offers, defined once for both. */
export const SETTINGS_CURRENCIES = ['ETB', 'USD'] as const;
export type SettingsCurrency = (typeof SETTINGS_CURRENCIES)[number];
export const SETTINGS_LANGUAGES = ['en', 'am'] as const;
export type SettingsLanguage = (typeof SETTINGS_LANGUAGES)[number];
export const SETTINGS_TIMEZONES = ['UTC', 'Africa/Addis_Ababa', 'America/New_York', 'Europe/London'] as const;
export type SettingsTimezone = (typeof SETTINGS_TIMEZONES)[number];

/** A contact message's state in the back office. */
export const CONTACT_STATUSES = ['unread', 'read', 'replied'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
