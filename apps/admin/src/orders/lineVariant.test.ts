import { describe, expect, it } from 'vitest';
import { lineVariant } from './lineVariant';

describe("an order line's variant", () => {
  it('names the options bought and the SKU', () => {
    const line = { sku: 'LIP-RED', variantOptions: { Shade: 'Red', Size: '4 g' } };
    expect(lineVariant(line)).toEqual({ options: 'Shade: Red · Size: 4 g', sku: 'LIP-RED' });
  });

  it('names an option in Amharic when the product names it so', () => {
    const line = {
      sku: 'MOR-30',
      variantOptions: { Size: '30 ml' },
      product: { options: [{ name: 'Size', nameAm: 'መጠን', kind: 'size', values: ['30 ml'] }] },
    };
    expect(lineVariant(line, 'am')).toEqual({ options: 'መጠን: 30 ml', sku: 'MOR-30' });
    expect(lineVariant(line, 'en')?.options).toBe('Size: 30 ml');
  });

  it('says nothing for a line without a variant', () => {
    expect(lineVariant({})).toBeUndefined();
    expect(lineVariant({ variantOptions: {} })).toBeUndefined();
  });
});

describe("an order line's variant in one line", () => {
  it('joins the options and the SKU', async () => {
    const { lineVariantText } = await import('./lineVariant');
    expect(lineVariantText({ sku: 'MOR-30', variantOptions: { Size: '30 ml' } }, 'en', 'SKU')).toBe(
      'Size: 30 ml · SKU: MOR-30',
    );
    expect(lineVariantText({}, 'en', 'SKU')).toBe('');
  });
});
