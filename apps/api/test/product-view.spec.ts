import fc from 'fast-check';
import { Types } from 'mongoose';
import { discountPercent, toBirr } from '@shop/shared';
import { absoluteImageUrls } from '../src/common/absolute-urls.interceptor';
import { toProductView, type Product } from '../src/modules/catalog/schemas/product.schema';

const ORIGIN = 'https://api.example.et';

/** The view as it was built before it became one loop (spread, deletes, appended fields): the reference. */
function referenceView(doc: Product & { _id: unknown }): Record<string, unknown> {
  const { priceSantim, originalPriceSantim, ...rest } = doc as Product & { _id: unknown; __v?: number };
  delete (rest as { __v?: number }).__v;
  delete (rest as { searchTerms?: string[] }).searchTerms;
  const price = toBirr(priceSantim);
  const originalPrice = originalPriceSantim != null ? toBirr(originalPriceSantim) : undefined;
  return {
    ...rest,
    _id: String(doc._id),
    price,
    ...(originalPrice !== undefined ? { originalPrice } : {}),
    discount: discountPercent(price, originalPrice),
    countInStock: doc.stock,
    // issue 30.1: the owner's compare-at price when higher than the price (no sale in these documents)
    ...(originalPriceSantim != null && originalPriceSantim > priceSantim
      ? { compareAtPrice: originalPrice }
      : {}),
  };
}

const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '/api/uploads/a.png',
    '/api/assets/products/x.svg',
    '/api/products',
    'https://cdn.example/i.png',
  ),
  fc.string().map((s) => `/api/uploads/${s}`),
);
const field = fc.oneof(
  text,
  fc.array(text, { maxLength: 4 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(text, fc.array(text, { maxLength: 2 })), {
    maxKeys: 3,
  }),
);
/** Stored documents in any key order, with the schema's fields and unexpected ones (raw imports). */
const storedProduct = fc
  .record(
    {
      name: text,
      images: fc.array(text, { maxLength: 4 }),
      description: text,
      priceSantim: fc.nat(10_000_000),
      originalPriceSantim: fc.nat(10_000_000),
      stock: fc.nat(1000),
      searchTerms: fc.array(fc.string(), { maxLength: 3 }),
      __v: fc.nat(5),
      createdAt: fc.date({ noInvalidDate: true }),
      price: fc.integer(),
      extra: field,
      other: field,
    },
    { requiredKeys: ['name', 'priceSantim', 'stock'] },
  )
  .chain((fields) =>
    fc.shuffledSubarray(Object.keys(fields), { minLength: Object.keys(fields).length }).map((order) => {
      const doc: Record<string, unknown> = { _id: new Types.ObjectId() };
      for (const key of order) doc[key] = (fields as Record<string, unknown>)[key];
      return doc as unknown as Product & { _id: unknown };
    }),
  );

describe('the product view', () => {
  it('has the fields, values and order of the spread-built view it replaced', () => {
    fc.assert(
      fc.property(storedProduct, (doc) => {
        expect(JSON.stringify(toProductView(doc))).toBe(JSON.stringify(referenceView(doc)));
      }),
      { numRuns: 500 },
    );
  });

  it('built with the public origin, is byte for byte what the AbsoluteUrls interceptor makes of it', () => {
    fc.assert(
      fc.property(storedProduct, (doc) => {
        expect(JSON.stringify(toProductView(doc, ORIGIN))).toBe(
          JSON.stringify(absoluteImageUrls(toProductView(doc), `${ORIGIN}/`)),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('makes the API image paths absolute and leaves other strings alone', () => {
    const view = toProductView(
      {
        _id: new Types.ObjectId(),
        name: '/api/uploads/not-an-image-but-a-path',
        images: ['/api/uploads/a.png', 'https://cdn.example/b.png', '/api/assets/products/c.svg'],
        description: 'See /api/uploads/a.png',
        priceSantim: 12_345,
        stock: 2,
      } as unknown as Product & { _id: unknown },
      ORIGIN,
    );
    expect(view).toMatchObject({
      name: `${ORIGIN}/api/uploads/not-an-image-but-a-path`,
      images: [
        `${ORIGIN}/api/uploads/a.png`,
        'https://cdn.example/b.png',
        `${ORIGIN}/api/assets/products/c.svg`,
      ],
      description: 'See /api/uploads/a.png',
      price: 123.45,
      countInStock: 2,
    });
    expect(view).not.toHaveProperty('priceSantim');
  });
});
