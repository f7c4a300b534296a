import { Mongoose, Types, type Model, type Schema } from 'mongoose';
import { modelDocument, modelSubdocument } from '../src/common/model-document';
import { CartSchema, GuestCartSchema } from '../src/modules/cart/schemas/cart.schema';
import { NotificationSchema } from '../src/modules/notifications/schemas/notification.schema';
import { OrderRequestSchema } from '../src/modules/orders/schemas/order-request.schema';
import { OrderSchema } from '../src/modules/orders/schemas/order.schema';
import { ProductSchema } from '../src/modules/catalog/schemas/product.schema';
import { ReviewSchema } from '../src/modules/reviews/schemas/review.schema';
import { SEED_PRODUCTS } from '../src/seed/data/products';
import { seedProductFields } from '../src/seed/seed.service';

/**
 * modelDocument builds, without Mongoose, the document a model would store. For each model built
 * with it: the result is exactly what Mongoose makes of the same fields (its defaults, subdocument
 * ids, timestamps), Mongoose would add or change nothing in it, and nothing in it is undefined or
 * null. A model used with modelDocument gets a case here.
 */
const mongoose = new Mongoose();
const model = (name: string, schema: Schema) => mongoose.model(name, schema) as Model<unknown>;
const Order = model('Order', OrderSchema);
const OrderRequest = model('OrderRequest', OrderRequestSchema);
const Cart = model('Cart', CartSchema);
const GuestCart = model('GuestCart', GuestCartSchema);
const Notification = model('Notification', NotificationSchema);
const Product = model('Product', ProductSchema);
const Review = model('Review', ReviewSchema);

const oid = () => new Types.ObjectId();
const now = new Date('2026-11-26T10:00:00.000Z');

/**
 * What `new Model(fields).save()` sends to the database, taken from the model's collection: Mongoose's
 * own validation, save hooks (timestamps) and version key. No database is involved.
 */
async function asMongoose(m: Model<unknown>, fields: object): Promise<Record<string, unknown>> {
  let inserted: Record<string, unknown> | undefined;
  const collection = m.collection as unknown as {
    insertOne: (doc: Record<string, unknown>) => Promise<unknown>;
  };
  collection.insertOne = (doc) => {
    inserted = doc;
    return Promise.resolve({ acknowledged: true, insertedId: doc._id });
  };
  await new m(fields).save();
  return inserted!;
}

/** Generated values (ids, times taken at build) replaced by placeholders so that two builds compare. */
function generic(value: unknown, key?: string): unknown {
  if (key === '_id' && value instanceof Types.ObjectId) return '<id>';
  if (value instanceof Date) return Math.abs(value.getTime() - Date.now()) < 60_000 ? '<now>' : value;
  if (Array.isArray(value)) return value.map((v) => generic(v));
  if (value && typeof value === 'object' && !(value instanceof Types.ObjectId))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, generic(v, k)]));
  return value;
}

async function expectAsMongoose(m: Model<unknown>, fields: object) {
  const built = modelDocument(m, fields) as unknown as Record<string, unknown>;
  // Mongoose, given the built document, adds nothing and changes nothing
  expect(new m(built).toObject()).toEqual(built);
  // the same fields saved through Mongoose: the same document (up to the generated ids and times)
  expect(generic(built)).toEqual(generic(await asMongoose(m, fields)));
  // no field undefined, none null
  const shown = JSON.stringify(built, (_key, v: unknown) => (v === undefined || v === null ? 'MISSING' : v));
  expect(shown).not.toContain('MISSING');
  expect(Object.keys(built)).toEqual(expect.arrayContaining(['_id']));
  return built;
}

describe('modelDocument', () => {
  const order = () => ({
    orderNumber: 'AN-10001',
    user: oid(),
    customer: { name: 'Abebe Kebede', email: 'abebe@example.et' },
    orderItems: [
      {
        product: oid(),
        name: 'Shea Butter',
        nameAm: 'የሺአ ቅቤ',
        image: '/api/assets/products/x.svg',
        quantity: 2,
        priceAtPurchaseSantim: 45_050,
        _id: oid(),
      },
      {
        product: oid(),
        name: 'Lip Balm',
        nameAm: undefined,
        image: undefined,
        quantity: 1,
        priceAtPurchaseSantim: 10_000,
      },
    ],
    shippingAddress: {
      street: 'Bole Road',
      city: 'Addis Ababa',
      state: 'Addis Ababa',
      phone: '+251911223344',
    },
    paymentMethod: 'chapa',
    subtotalSantim: 100_100,
    shippingCostSantim: 15_000,
    taxSantim: 15_015,
    totalAmountSantim: 130_115,
    pricesIncludeTax: undefined,
    statusHistory: [{ status: 'pending', by: oid(), at: now }],
    idempotencyKey: 'key-1',
    idempotencyFingerprint: 'abc',
  });

  it('Order: defaults (address country, shipping method, currency, states), line ids, timestamps, __v', async () => {
    const fields = order();
    const built = await expectAsMongoose(Order, fields);
    expect(built).toMatchObject({
      shippingMethod: 'standard',
      currency: 'ETB',
      status: 'pending',
      paymentStatus: 'unpaid',
      shippingAddress: { country: 'Ethiopia' },
      __v: 0,
    });
    const lines = built.orderItems as { _id: Types.ObjectId; nameAm?: string }[];
    expect(lines[0]._id).toBe(fields.orderItems[0]._id);
    expect(lines[1]._id).toBeInstanceOf(Types.ObjectId);
    expect('nameAm' in lines[1]).toBe(false);
    expect('pricesIncludeTax' in built).toBe(false);
    expect(built.updatedAt).toBe(built.createdAt);
  });

  it('Order: an absent array is its default, an unknown field is left out (strict), a given creation time kept', async () => {
    const { statusHistory: _history, ...fields } = order();
    const built = await expectAsMongoose(Order, { ...fields, createdAt: now, bogus: 1 });
    expect(built.statusHistory).toEqual([]);
    expect('bogus' in built).toBe(false);
    expect(built.createdAt).toBe(now);
    expect(built.updatedAt).toBe(now);
  });

  it('OrderRequest: the claim with its creation default and version key', async () => {
    const built = await expectAsMongoose(OrderRequest, { user: oid(), idempotencyKey: 'key-1' });
    expect(built.createdAt).toBeInstanceOf(Date);
    expect(built.__v).toBe(0);
  });

  it('Cart and GuestCart: lines with their added time, empty carts with their [] default', async () => {
    await expectAsMongoose(Cart, { user: oid(), items: [{ product: oid(), quantity: 2 }] });
    await expectAsMongoose(Cart, { user: oid() });
    await expectAsMongoose(GuestCart, {
      guestId: 'a'.repeat(32),
      items: [{ product: oid(), quantity: 1, addedAt: now }],
      expiresAt: now,
    });
  });

  it('a cart line on its own (modelSubdocument) is the line Mongoose pushes', async () => {
    const product = oid();
    const line = modelSubdocument(Cart, 'items', { product, quantity: 3 });
    const pushed = new Cart({ user: oid(), items: [{ product, quantity: 3 }] }).toObject() as unknown as {
      items: Record<string, unknown>[];
    };
    expect(generic(line)).toEqual(generic(pushed.items[0]));
    expect(Object.keys(line).sort()).toEqual(['addedAt', 'product', 'quantity']);
    expect(() => modelSubdocument(Cart, 'user', {})).toThrow(/not a path of subdocuments/);
  });

  it('Notification: the outbox message with its state, attempts and schedule defaults', async () => {
    const built = await expectAsMongoose(Notification, {
      eventKey: 'order.placed:1:customer',
      channel: 'email',
      to: 'abebe@example.et',
      template: 'order.placed',
      language: 'am',
      text: 'ትዕዛዝዎ ደርሷል',
      html: undefined,
    });
    expect(built).toMatchObject({ subject: '', sensitive: false, state: 'pending', attempts: 0 });
    expect(built.nextAttemptAt).toBeInstanceOf(Date);
  });

  it('Product: every demo product as the seed stores it (defaults, the hidden search words, __v)', async () => {
    expect(SEED_PRODUCTS.length).toBeGreaterThan(0);
    for (const p of SEED_PRODUCTS) {
      const built = await expectAsMongoose(Product, seedProductFields(p, now));
      expect(built).toMatchObject({ currency: 'ETB', active: true, rating: 0, reviewCount: 0, __v: 0 });
      expect('originalPriceSantim' in built).toBe(p.originalPrice !== undefined);
    }
  });

  it('Review: a review as the seed stores it, with its verified default and timestamps', async () => {
    const built = await expectAsMongoose(Review, {
      user: oid(),
      product: oid(),
      rating: 4,
      comment: 'ለስላሳ ቆዳ',
      createdAt: now,
    });
    expect(built).toMatchObject({ verified: false, createdAt: now, updatedAt: now, __v: 0 });
    expect('title' in built).toBe(false);
  });
});
