import am from './am.json';
import en from './en.json';

export const LANGUAGES = ['en', 'am'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

type Dictionary = { [key: string]: string | Dictionary };
export const dictionaries: Record<Language, Dictionary> = { en, am };

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
