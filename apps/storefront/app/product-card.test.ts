import type { Product, ProductList } from '@shop/api-client';
import { describe, expect, it } from 'vitest';
import { cardListOf, cardOf } from './product-card';

const product = {
  _id: 'p1',
  sku: 'shea-butter',
  name: 'Shea Butter',
  nameAm: 'የሺአ ቅቤ',
  brand: 'Abyssinia Naturals',
  description: 'Raw shea butter from Gambela.',
  descriptionAm: 'ከጋምቤላ የመጣ ጥሬ የሺአ ቅቤ።',
  ingredients: ['Shea butter'],
  keyIngredients: ['Shea butter'],
  benefits: ['Soft skin'],
  images: ['https://shop.test/a.webp', 'https://shop.test/b.webp', 'https://shop.test/c.webp'],
  stock: 4,
  discount: 10,
  rating: 4.5,
  reviewCount: 12,
  price: 450,
  originalPrice: 500,
  promotion: { name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' }, endsAt: '2027-01-22T20:59:00.000Z' },
  category: 'skin-care',
  createdAt: '2026-11-01T00:00:00.000Z',
} as unknown as Product;

describe('a product as its card shows it', () => {
  it('keeps what the card shows, its first photo only, and none of the rest', () => {
    expect(cardOf(product)).toEqual({
      _id: 'p1',
      name: 'Shea Butter',
      nameAm: 'የሺአ ቅቤ',
      brand: 'Abyssinia Naturals',
      images: ['https://shop.test/a.webp'],
      stock: 4,
      discount: 10,
      rating: 4.5,
      reviewCount: 12,
      price: 450,
      originalPrice: 500,
      promotion: { name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' }, endsAt: '2027-01-22T20:59:00.000Z' },
    });
    expect(cardOf({ ...product, images: [] }).images).toEqual([]);
  });

  it('keeps a list’s counts and facets, its products as cards', () => {
    const list = {
      success: true,
      products: [product, { ...product, _id: 'p2' }],
      totalProducts: 2,
      totalPages: 1,
    };
    const cards = cardListOf(list as unknown as ProductList);
    expect(cards).toMatchObject({ success: true, totalProducts: 2, totalPages: 1 });
    expect(cards.products.map((p) => p._id)).toEqual(['p1', 'p2']);
    expect(JSON.stringify(cards)).not.toContain('Gambela');
  });
});
