import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import { reactAdminAm } from '@shop/i18n';

type Tree = { [key: string]: string | Tree };
const keys = (t: Tree, prefix = ''): string[] =>
  Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keys(v, `${prefix}${k}.`)));
const text = (t: Tree, key: string) =>
  key.split('.').reduce<string | Tree>((n, k) => (n as Tree)[k], t) as string;
const placeholders = (s: string) => (s.match(/%\{\w+\}/g) ?? []).sort();

describe("react-admin's own messages in Amharic", () => {
  const en = englishMessages as unknown as Tree;
  const am = reactAdminAm as unknown as Tree;

  it('has every key of ra-language-english and no other', () => {
    expect(keys(am).sort()).toEqual(keys(en).sort());
  });

  it('writes every text with words in Ethiopic script, keeping placeholders and plural forms', () => {
    for (const key of keys(en)) {
      const english = text(en, key);
      const amharic = text(am, key);
      expect(placeholders(amharic)).toEqual(placeholders(english));
      expect(amharic.split('||||').length).toBe(english.split('||||').length);
      // texts made only of placeholders (e.g. '%{name}') or blank stay as they are
      if (/[A-Za-z]/.test(english.replace(/%\{\w+\}/g, ''))) expect(amharic, key).toMatch(/[\u1200-\u137F]/);
    }
  });
});
