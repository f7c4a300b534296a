import { describe, expect, it } from 'vitest';
import {
  compareAtError,
  discountShown,
  missingCombinations,
  productToForm,
  splitValues,
  subCategoryChoices,
  subCategoryError,
  variantErrors,
  variantsPayload,
  withoutOption,
  type VariantForm,
} from './productFields';

describe('compare-at price', () => {
  it('must be higher than the price', () => {
    expect(compareAtError(900, 900)).toEqual({
      message: 'shop.errors.COMPARE_AT_NOT_ABOVE_PRICE',
      args: { price: 900 },
    });
    expect(compareAtError('850', '900')).toMatchObject({ args: { price: 900 } });
    expect(compareAtError(1080, 900)).toBeUndefined();
  });

  it('is optional: nothing to say when it or the price is empty', () => {
    expect(compareAtError(undefined, 900)).toBeUndefined();
    expect(compareAtError(null, 900)).toBeUndefined();
    expect(compareAtError('', 900)).toBeUndefined();
    expect(compareAtError(500, '')).toBeUndefined();
  });

  it('gives the badge the storefront shows, none when refused or absent', () => {
    expect(discountShown(900, 1080)).toBe(17);
    expect(discountShown(900, 900)).toBe(0);
    expect(discountShown(900, undefined)).toBe(0);
  });
});

describe('sub-category', () => {
  it("offers the category's sub-categories in the page's language", () => {
    expect(subCategoryChoices('haircare', 'am')).toEqual([{ id: 'shampoo', name: 'ሻምፑ' }]);
    expect(subCategoryChoices('makeup', 'en').map((c) => c.id)).toEqual(['lips', 'eyes']);
    expect(subCategoryChoices(undefined, 'en').length).toBeGreaterThan(4);
  });

  it("refuses another category's sub-category", () => {
    expect(subCategoryError('lips', 'skincare')).toBe('shop.errors.SUB_CATEGORY_NOT_IN_CATEGORY');
    expect(subCategoryError('serums', 'skincare')).toBeUndefined();
    expect(subCategoryError('', 'skincare')).toBeUndefined();
  });
});

/** A serum with two sizes as GET /api/admin/products/:id answers it (compareAtPrice is read-only). */
const answered = {
  id: 'p1',
  _id: 'p1',
  name: 'Moringa serum',
  price: 650,
  stock: 7,
  options: [{ name: 'Size', nameAm: 'መጠን', kind: 'size', values: ['30 ml', '50 ml'] }],
  variants: [
    {
      _id: 'v30',
      sku: 'MOR-30',
      options: { Size: '30 ml' },
      price: 650,
      originalPrice: 800,
      compareAtPrice: 800,
      countInStock: 0,
      lowStockThreshold: 5,
      images: ['/api/uploads/a.webp'],
    },
    {
      _id: 'v50',
      sku: 'MOR-50',
      options: { Size: '50 ml' },
      price: 900,
      countInStock: 7,
      lowStockThreshold: 3,
      images: [],
    },
  ],
  defaultVariantId: 'v50',
};

describe('variants: what the form reads and sends', () => {
  it("reads the API's answer into rows whose values follow the options", () => {
    const form = productToForm(answered);
    expect(form.options).toEqual([{ name: 'Size', nameAm: 'መጠን', kind: 'size', values: ['30 ml', '50 ml'] }]);
    expect(form.variants[0]).toEqual({
      _id: 'v30',
      sku: 'MOR-30',
      values: ['30 ml'],
      price: 650,
      originalPrice: 800,
      stock: 0,
      lowStockThreshold: 5,
      images: ['/api/uploads/a.webp'],
      swatch: '',
    });
    expect(form.variants[1]).toMatchObject({ _id: 'v50', stock: 7, originalPrice: null });
    expect(form.name).toBe('Moringa serum');
  });

  it('a form saved unchanged sends back what the API answered (ids, order, options, prices, stock)', () => {
    const sent = variantsPayload(productToForm(answered));
    expect(sent.options).toEqual(answered.options);
    expect(sent.variants).toEqual([
      {
        _id: 'v30',
        sku: 'MOR-30',
        options: { Size: '30 ml' },
        price: 650,
        originalPrice: 800,
        stock: 0,
        lowStockThreshold: 5,
        images: ['/api/uploads/a.webp'],
      },
      {
        _id: 'v50',
        sku: 'MOR-50',
        options: { Size: '50 ml' },
        price: 900,
        stock: 7,
        lowStockThreshold: 3,
        images: [],
      },
    ]);
    // the product's own figures: the sum of the stock, the default variant's (first in stock) price
    expect(sent).toMatchObject({ stock: 7, price: 900, originalPrice: null });
  });

  it('sends the order staff chose and new rows without an id, trimmed', () => {
    const form = productToForm(answered);
    const added: VariantForm = {
      sku: ' MOR-100 ',
      values: ['100 ml'],
      price: 1400,
      originalPrice: null,
      stock: 2,
      lowStockThreshold: null,
      images: [],
      swatch: '',
    };
    form.options[0].values.push('100 ml');
    form.variants = [added, form.variants[1], form.variants[0]];
    const sent = variantsPayload(form) as {
      variants: Record<string, unknown>[];
      price: number;
      stock: number;
    };
    expect(sent.variants.map((v) => v._id ?? v.sku)).toEqual(['MOR-100', 'v50', 'v30']);
    expect(sent.variants[0]).toEqual({
      sku: 'MOR-100',
      options: { Size: '100 ml' },
      price: 1400,
      stock: 2,
      images: [],
    });
    expect(sent).toMatchObject({ price: 1400, stock: 9 });
  });

  it('a renamed option keeps every row’s choice', () => {
    const form = productToForm(answered);
    form.options[0].name = 'Volume';
    const sent = variantsPayload(form) as { variants: { options: unknown }[] };
    expect(sent.variants.map((v) => v.options)).toEqual([{ Volume: '30 ml' }, { Volume: '50 ml' }]);
  });

  it('a product without variants sends no variant keys; one that had them sends empty lists', () => {
    const plain = productToForm({ id: 'p2', name: 'Soap', price: 100, stock: 3 });
    expect(plain.options).toEqual([]);
    expect(plain.variants).toEqual([]);
    expect(variantsPayload(plain)).toEqual({});
    const emptied = { ...productToForm(answered), options: [], variants: [] };
    expect(variantsPayload(emptied)).toEqual({ options: [], variants: [] });
  });

  it('shade swatches are sent, empty ones left out', () => {
    const lipstick = productToForm({
      options: [{ name: 'Shade', kind: 'shade', values: ['Red', 'Nude'] }],
      variants: [
        { _id: 'a', sku: 'L-R', options: { Shade: 'Red' }, price: 300, countInStock: 1, swatch: '#a4243b' },
        { _id: 'b', sku: 'L-N', options: { Shade: 'Nude' }, price: 300, countInStock: 0 },
      ],
    });
    const sent = variantsPayload(lipstick) as { variants: Record<string, unknown>[] };
    expect(sent.variants[0].swatch).toBe('#a4243b');
    expect(sent.variants[1]).not.toHaveProperty('swatch');
  });

  it('reads values typed with Latin or Ethiopic commas', () => {
    expect(splitValues('30 ml, 50 ml ,, 100 ml')).toEqual(['30 ml', '50 ml', '100 ml']);
    expect(splitValues('ቀይ፣ ሮዝ')).toEqual(['ቀይ', 'ሮዝ']);
  });

  it('offers the combinations no row has yet, and drops a removed option’s column', () => {
    const options = [
      { name: 'Size', nameAm: '', kind: 'size' as const, values: ['S', 'M'] },
      { name: 'Shade', nameAm: '', kind: 'shade' as const, values: ['Red', 'Nude'] },
    ];
    const row = { ...productToForm(answered).variants[0], values: ['S', 'Red'] };
    expect(missingCombinations(options, [row])).toEqual([
      ['S', 'Nude'],
      ['M', 'Red'],
      ['M', 'Nude'],
    ]);
    expect(withoutOption([row], 0)[0].values).toEqual(['Red']);
  });
});

describe('variants: the refusals the API would give, said first', () => {
  const valid = () => productToForm(answered);
  const messages = (form: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(variantErrors(form)).map(([k, v]) => [k, v.message.split('.').pop()]));

  it('has nothing to say about a valid product, or one without variants', () => {
    expect(variantErrors(valid())).toEqual({});
    expect(variantErrors(productToForm({ name: 'Soap' }))).toEqual({});
  });

  it('wants a SKU, unique within the product', () => {
    const form = valid();
    form.variants[0].sku = ' ';
    expect(messages(form)).toEqual({ 'variants.0.sku': 'skuRequired' });
    form.variants[0].sku = 'mor-50';
    form.variants = [form.variants[1], form.variants[0]];
    expect(variantErrors(form)['variants.1.sku']).toEqual({
      message: 'shop.admin.products.variants.skuRepeated',
      args: { row: 1 },
    });
  });

  it('refuses a compare-at price below the price (equal is allowed)', () => {
    const form = valid();
    form.variants[0].originalPrice = 600;
    expect(variantErrors(form)['variants.0.originalPrice']).toEqual({
      message: 'shop.admin.products.variants.compareAtBelowPrice',
      args: { price: 650 },
    });
    form.variants[0].originalPrice = 650;
    expect(variantErrors(form)).toEqual({});
  });

  it('wants a value of each option for each variant, and no two variants alike', () => {
    const form = valid();
    form.variants[1].values = [''];
    expect(messages(form)).toEqual({ 'variants.1.values.0': 'valueRequired' });
    form.variants[1].values = ['30 ml'];
    expect(variantErrors(form)['variants.1.values.0']).toEqual({
      message: 'shop.admin.products.variants.variantRepeated',
      args: { row: 1 },
    });
    // a value no longer among the option's values
    form.variants[1].values = ['75 ml'];
    expect(messages(form)).toEqual({ 'variants.1.values.0': 'valueRequired' });
  });

  it('checks options: named, unique names, values given and not repeated; options need a variant', () => {
    const form = valid();
    form.options.push({ name: 'size', nameAm: '', kind: 'other', values: ['a', 'a'] });
    form.variants.forEach((v) => v.values.push('a'));
    expect(messages(form)).toMatchObject({
      'options.1.name': 'optionNameTaken',
      'options.1.values': 'valuesRepeated',
    });
    form.options[1] = { name: 'Scent!', nameAm: '', kind: 'other', values: [] };
    expect(messages(form)).toMatchObject({
      'options.1.name': 'optionNameInvalid',
      'options.1.values': 'valuesRequired',
    });
    expect(messages({ options: [{ name: 'Size', kind: 'size', values: ['S'] }], variants: [] })).toEqual({
      'options.0.values': 'variantRequired',
    });
  });

  it('wants a price above 0 and a whole, non-negative stock', () => {
    const form = valid();
    form.variants[0].price = 0;
    form.variants[1].stock = 1.5;
    form.variants[1].lowStockThreshold = -1;
    expect(messages(form)).toEqual({
      'variants.0.price': 'priceRequired',
      'variants.1.stock': 'stockInvalid',
      'variants.1.lowStockThreshold': 'stockInvalid',
    });
  });
});
