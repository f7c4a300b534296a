import { dictionaries, keysOf } from '@shop/i18n';
import englishMessages from 'ra-language-english';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { amharic } from './amharic';
import { english } from './english';
import { ADMIN_NAMESPACES, type Tree } from './tree';

const src = path.resolve(__dirname, '..');
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });

describe("the back office's dictionaries (only the namespaces it shows)", () => {
  it('has every namespace its screens use: a `shop.<namespace>.` key outside them would show as a raw key', () => {
    const used = new Set<string>();
    for (const file of sources(src)) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/['"`]shop\.([a-zA-Z]+)\./g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(2);
    expect([...used].filter((ns) => !(ADMIN_NAMESPACES as readonly string[]).includes(ns))).toEqual([]);
  });

  it('carries those namespaces whole, in English and in Amharic, with polyglot placeholders', () => {
    const shopEn = english.shop as Tree;
    const shopAm = amharic.shop as Tree;
    for (const ns of ADMIN_NAMESPACES) {
      const keys = keysOf(dictionaries.en[ns] as Tree).sort();
      expect(keysOf(shopEn[ns] as Tree).sort(), ns).toEqual(keys);
      expect(keysOf(shopAm[ns] as Tree).sort(), ns).toEqual(keys);
    }
    expect(Object.keys(shopEn).sort()).toEqual([...ADMIN_NAMESPACES].sort());
    // {name} of the shared dictionaries is polyglot's %{name}
    expect(JSON.stringify(shopEn)).not.toMatch(/[^%]\{\w+\}/);
    expect(JSON.stringify(shopAm)).not.toMatch(/[^%]\{\w+\}/);
  });

  it('has every English text in Amharic on its own (no English underneath to fall back on), and in Amharic', () => {
    expect(keysOf(amharic).sort()).toEqual(keysOf(english).sort());
    expect(keysOf(amharic.ra as Tree).sort()).toEqual(keysOf(englishMessages.ra as unknown as Tree).sort());
    expect((amharic.ra as Tree).action).not.toEqual((english.ra as Tree).action);
    expect(((amharic.shop as Tree).admin as Tree).menu).toEqual(
      JSON.parse(JSON.stringify((dictionaries.am.admin as Tree).menu).replace(/\{(\w+)\}/g, '%{$1}')),
    );
  });
});
