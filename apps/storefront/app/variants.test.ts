import { describe, expect, it } from 'vitest';
import {
  chosenVariant,
  optionChoices,
  optionsText,
  variantByOptions,
  variantHref,
  variantImages,
  type ProductVariant,
  type VariantProduct,
} from './variants';

const v = (id: string, options: Record<string, string>, stock: number, extra: Partial<ProductVariant> = {}) =>
  ({
    _id: id.padStart(24, '0'),
    sku: `SKU-${id}`,
    options,
    price: 100,
    countInStock: stock,
    lowStockThreshold: 5,
    images: [],
    ...extra,
  }) satisfies ProductVariant;

const lipstick: VariantProduct = {
  options: [{ name: 'Shade', nameAm: 'ቀለም', kind: 'shade', values: ['Coffee', 'Berry', 'Nude'] }],
  variants: [
    v('a1', { Shade: 'Coffee' }, 0, { swatch: '#6f4e37' }),
    v('a2', { Shade: 'Berry' }, 4, { swatch: '#8e2045' }),
    v('a3', { Shade: 'Nude' }, 2, { swatch: '#d8a48f' }),
  ],
  defaultVariantId: 'a2'.padStart(24, '0'),
};

const serum: VariantProduct = {
  options: [
    { name: 'Size', kind: 'size', values: ['30 ml', '50 ml'] },
    { name: 'Scent', kind: 'other', values: ['Rose', 'Plain'] },
  ],
  variants: [
    v('b1', { Size: '30 ml', Scent: 'Rose' }, 3),
    v('b2', { Size: '50 ml', Scent: 'Rose' }, 0),
    v('b3', { Size: '50 ml', Scent: 'Plain' }, 7),
  ],
};

describe('chosenVariant', () => {
  it('takes ?variant= when it is one of the product’s', () => {
    expect(chosenVariant(lipstick, 'a3'.padStart(24, '0'))?.sku).toBe('SKU-a3');
  });
  it('falls back to defaultVariantId for an unknown or missing ?variant=', () => {
    expect(chosenVariant(lipstick, 'ffffffffffffffffffffffff')?.sku).toBe('SKU-a2');
    expect(chosenVariant(lipstick, null)?.sku).toBe('SKU-a2');
  });
  it('without defaultVariantId: the first with stock, else the first', () => {
    expect(chosenVariant(serum, undefined)?.sku).toBe('SKU-b1');
    const allGone = { ...serum, variants: serum.variants!.map((x) => ({ ...x, countInStock: 0 })) };
    expect(chosenVariant(allGone, undefined)?.sku).toBe('SKU-b1');
  });
  it('a product without variants has none', () => {
    expect(chosenVariant({}, 'a1')).toBeNull();
    expect(chosenVariant({ variants: [] }, null)).toBeNull();
  });
});

describe('optionChoices', () => {
  it('marks the sold-out shade, the chosen one and carries swatches', () => {
    const chosen = chosenVariant(lipstick, null)!;
    const choices = optionChoices(lipstick, lipstick.options![0], chosen);
    expect(choices.map((c) => [c.value, c.soldOut, c.selected, c.swatch])).toEqual([
      ['Coffee', true, false, '#6f4e37'],
      ['Berry', false, true, '#8e2045'],
      ['Nude', false, false, '#d8a48f'],
    ]);
    expect(choices[2].variantId).toBe('a3'.padStart(24, '0'));
  });
  it('keeps the other options when the combination exists, else leads to a variant with the value', () => {
    const chosen = chosenVariant(serum, 'b3'.padStart(24, '0'))!; // 50 ml Plain
    const sizes = optionChoices(serum, serum.options![0], chosen);
    // 30 ml Plain does not exist: the 30 ml Rose one
    expect(sizes[0]).toMatchObject({ value: '30 ml', variantId: 'b1'.padStart(24, '0'), soldOut: false });
    expect(sizes[1]).toMatchObject({ value: '50 ml', selected: true, soldOut: false });
    const scents = optionChoices(serum, serum.options![1], chosen);
    // 50 ml Rose exists and is sold out
    expect(scents[0]).toMatchObject({ value: 'Rose', variantId: 'b2'.padStart(24, '0'), soldOut: true });
    expect(scents[0].swatch).toBeUndefined();
  });
  it('a value no variant has is sold out and leads nowhere', () => {
    const p = { ...serum, options: [{ ...serum.options![0], values: ['30 ml', '50 ml', '100 ml'] }] };
    const choices = optionChoices(p, p.options[0], chosenVariant(p, null)!);
    expect(choices[2]).toMatchObject({ value: '100 ml', variantId: null, soldOut: true });
  });
});

describe('words and addresses', () => {
  it('variantByOptions finds the exact combination', () => {
    expect(variantByOptions(serum.variants!, { Size: '50 ml', Scent: 'Plain' })?.sku).toBe('SKU-b3');
    expect(variantByOptions(serum.variants!, { Size: '30 ml', Scent: 'Plain' })).toBeUndefined();
  });
  it('optionsText names each option', () => {
    expect(optionsText({ Shade: 'Coffee' })).toBe('Shade: Coffee');
    expect(optionsText({ Size: '50 ml', Scent: 'Rose' })).toBe('Size: 50 ml · Scent: Rose');
    expect(optionsText(undefined)).toBe('');
    expect(optionsText({ Shade: 'Coffee' }, 'am', lipstick.options)).toBe('ቀለም: Coffee');
    expect(optionsText({ Shade: 'Coffee' }, 'en', lipstick.options)).toBe('Shade: Coffee');
    // an order's snapshot: no Amharic names kept; the usual ones are said in Amharic
    const t = (key: string) => ({ 'product.size': 'መጠን', 'product.shade': 'ቀለም' })[key] ?? key;
    expect(optionsText({ Shade: 'Coffee', Finish: 'Matte' }, 'am', [], t)).toBe(
      'ቀለም: Coffee · Finish: Matte',
    );
    expect(optionsText({ Size: '30 ml' }, 'en', [], t)).toBe('Size: 30 ml');
  });
  it('variantHref sets ?variant= and drops the view and flash parameters', () => {
    expect(variantHref('?view=2&added=1&utm=x', 'abc')).toBe('?utm=x&variant=abc');
  });
  it('variantImages puts the variant’s own images first without repeats', () => {
    expect(variantImages(['p1', 'p2'], { ...lipstick.variants![0], images: ['v1', 'p2'] })).toEqual([
      'v1',
      'p2',
      'p1',
    ]);
    expect(variantImages(['p1'], null)).toEqual(['p1']);
  });
});
