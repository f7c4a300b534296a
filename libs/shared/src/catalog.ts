/** Catalogue vocabulary (docs/product.md §3), with English and Amharic names. */
export const CATEGORIES = [
  { slug: 'skincare', name: { en: 'Skincare', am: 'የቆዳ እንክብካቤ' } },
  { slug: 'makeup', name: { en: 'Makeup', am: 'ሜካፕ' } },
  { slug: 'haircare', name: { en: 'Haircare', am: 'የፀጉር እንክብካቤ' } },
  { slug: 'fragrance', name: { en: 'Fragrance', am: 'ሽቶ' } },
] as const;
export type CategorySlug = (typeof CATEGORIES)[number]['slug'];
export const CATEGORY_SLUGS = CATEGORIES.map((c) => c.slug) as CategorySlug[];

export const SUB_CATEGORIES = [
  { slug: 'serums', category: 'skincare', name: { en: 'Serums', am: 'ሴረሞች' } },
  { slug: 'lips', category: 'makeup', name: { en: 'Lips', am: 'ከንፈር' } },
  { slug: 'treatments', category: 'skincare', name: { en: 'Treatments', am: 'ሕክምናዎች' } },
  { slug: 'masks', category: 'skincare', name: { en: 'Masks', am: 'ማስኮች' } },
  { slug: 'eyes', category: 'makeup', name: { en: 'Eyes', am: 'አይን' } },
  { slug: 'shampoo', category: 'haircare', name: { en: 'Shampoo', am: 'ሻምፑ' } },
] as const;
export type SubCategorySlug = (typeof SUB_CATEGORIES)[number]['slug'];
export const SUB_CATEGORY_SLUGS = SUB_CATEGORIES.map((c) => c.slug) as SubCategorySlug[];

export const PRODUCT_SORTS = ['featured', 'price_asc', 'price_desc', 'reviews', 'newest'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** Price filter options of docs/product.md §5, sent as minPrice and maxPrice. */
export const PRICE_RANGES = [
  { key: 'all' },
  { key: '0-100', min: 0, max: 100 },
  { key: '100-500', min: 100, max: 500 },
  { key: '500-1000', min: 500, max: 1000 },
  { key: '1000-2000', min: 1000, max: 2000 },
  { key: '2000-5000', min: 2000, max: 5000 },
  { key: '5000+', min: 5000 },
] as const;

export const ROLES = ['customer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The spec's dictionary says 'user' where the forms say 'customer': both mean customer. */
export function normaliseRole(role: string | undefined | null): Role | undefined {
  if (role === 'user' || role === 'customer') return 'customer';
  if (role === 'admin') return 'admin';
  return undefined;
}

export const LANGUAGES = ['en', 'am'] as const;
export type Language = (typeof LANGUAGES)[number];
