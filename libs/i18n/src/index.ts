import accountAm from './account.am.json';
import accountEn from './account.en.json';
import adminAm from './admin.am.json';
import adminEn from './admin.en.json';
import am from './am.json';
import en from './en.json';
import mailAm from './mail.am.json';
import mailEn from './mail.en.json';
import shopAm from './shop.am.json';
import shopEn from './shop.en.json';
import uiAm from './ui.am.json';
import uiEn from './ui.en.json';

export const LANGUAGES = ['en', 'am'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

type Dictionary = { [key: string]: string | Dictionary };
/**
 * One dictionary per language, assembled from files that each own distinct top-level namespaces:
 * `en.json` (common, nav, footer...), `shop.*` (browsing), `account.*` (buying, accounts), `admin.*`,
 * `mail.*` (the messages the API sends), `ui.*` (storefront chrome: filters drawer, toast, gallery, home
 * sections).
 */
export const dictionaries: Record<Language, Dictionary> = {
  en: { ...en, ...shopEn, ...accountEn, ...adminEn, ...mailEn, ...uiEn },
  am: { ...am, ...shopAm, ...accountAm, ...adminAm, ...mailAm, ...uiAm },
};

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'am';
}

function lookup(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The text for a key: the language's, else English, else the key itself; `{name}` is interpolated. */
export function translate(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  const text = lookup(dictionaries[lang], key) ?? lookup(dictionaries.en, key) ?? key;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

export function createTranslator(lang: Language) {
  return (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
}

/** Every dotted key of a dictionary (used to check that Amharic covers English). */
export function keysOf(dictionary: Dictionary, prefix = ''): string[] {
  return Object.entries(dictionary).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keysOf(v, `${prefix}${k}.`),
  );
}

export { reactAdminAm } from './react-admin.am';
