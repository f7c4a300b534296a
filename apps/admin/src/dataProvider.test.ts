import { describe, expect, it, vi } from 'vitest';

async function load() {
  // react-admin's hotkeys listen on window at import
  vi.stubGlobal('window', {
    __SHOP_CONFIG__: { apiUrl: 'http://127.0.0.1:4999/api' },
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  });
  return (await import('./dataProvider')).productPayload;
}

describe('productPayload', () => {
  it('keeps only writable fields with a value, numbers as numbers and image URLs only', async () => {
    const productPayload = await load();
    const record = {
      id: 'p1',
      _id: 'p1',
      createdAt: '2026-01-01',
      rating: 4.5,
      name: 'Moringa serum',
      brand: '',
      nameAm: null,
      price: '450',
      stock: '7',
      originalPrice: undefined,
      images: ['https://example.et/a.png', '', null],
      ingredientsAm: ['ማር', ' '],
      descriptionAm: '',
      isFeatured: false,
      active: true,
    };
    expect(productPayload(record)).toEqual({
      name: 'Moringa serum',
      price: 450,
      stock: 7,
      images: ['https://example.et/a.png'],
      ingredientsAm: ['ማር'],
      descriptionAm: '',
      isFeatured: false,
      active: true,
    });
  });

  it('sends a sub-category or size cleared in the form as null (left out, the API keeps them)', async () => {
    const productPayload = await load();
    const base = { name: 'Moringa serum', price: 450, stock: 7 };
    expect(productPayload({ ...base, subCategory: '', size: null })).toMatchObject({
      subCategory: null,
      size: null,
    });
    expect(productPayload({ ...base, subCategory: 'serums', size: '30 ml' })).toMatchObject({
      subCategory: 'serums',
      size: '30 ml',
    });
    expect(productPayload(base)).not.toHaveProperty('subCategory');
  });
});
