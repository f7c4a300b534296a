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

export type Dictionary = { [key: string]: string | Dictionary };
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

/**
 * What the storefront's pages show, in one language: every namespace but the back office's (`admin`,
 * `outbox`) and the API's messages (`mail`). The storefront sends it with the page instead of shipping
 * every dictionary of both languages in its JavaScript.
 */
export function storefrontDictionary(lang: Language): Dictionary {
  return lang === 'am'
    ? { ...am, ...shopAm, ...accountAm, ...uiAm }
    : { ...en, ...shopEn, ...accountEn, ...uiEn };
}

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

/** Keys found per dictionary: a server page asks hundreds of texts, the same ones at every render. */
const found = new WeakMap<Dictionary, Map<string, string | undefined>>();
/** Bound of the keys kept per dictionary (the keys are the code's, a few thousand; a caller's own are not kept past it). */
const MAX_KEPT_KEYS = 20_000;

function keptLookup(dictionary: Dictionary, key: string): string | undefined {
  let kept = found.get(dictionary);
  if (!kept) found.set(dictionary, (kept = new Map()));
  if (kept.has(key)) return kept.get(key);
  const text = lookup(dictionary, key);
  if (kept.size < MAX_KEPT_KEYS) kept.set(key, text);
  return text;
}

/** `{name}` placeholders replaced by their parameters (unknown ones are left as they are). */
function interpolate(text: string, params: Record<string, string | number>): string {
  if (!text.includes('{')) return text;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/**
 * A translator over one dictionary (no fallback language): the text for a key, else the key itself.
 * Pure (it imports no dictionary), so a client bundle that uses only this ships no dictionary.
 */
export function translatorOver(dictionary: Dictionary) {
  return (key: string, params: Record<string, string | number> = {}): string => {
    const text = keptLookup(dictionary, key);
    return text === undefined ? key : interpolate(text, params);
  };
}

/** The text for a key: the language's, else English, else the key itself; `{name}` is interpolated. */
export function translate(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  return interpolate(lookup(dictionaries[lang], key) ?? lookup(dictionaries.en, key) ?? key, params);
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
