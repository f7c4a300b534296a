import { dictionaries } from '@shop/i18n';

type Tree = { [key: string]: string | Tree };

/** A `t` over the shared dictionaries as the back office sees them (`shop.` prefix, {name} values); unknown keys answer themselves. */
export function translator(lang: 'en' | 'am') {
  return (key: string, options: Record<string, unknown> = {}): string => {
    let node: string | Tree | undefined = dictionaries[lang] as unknown as Tree;
    for (const part of key.replace(/^shop\./, '').split('.')) {
      node = typeof node === 'object' ? node[part] : undefined;
    }
    if (typeof node !== 'string') return key;
    return node.replace(/\{(\w+)\}/g, (_, k: string) => String(options[k] ?? ''));
  };
}
