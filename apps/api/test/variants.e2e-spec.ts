import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Clock } from '../src/common/clock';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { PromotionsService } from '../src/modules/promotions/promotions.service';
import { DEMO_ACCOUNTS, SeedService } from '../src/seed/seed.service';
import { auth, customerFactory, loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-12-01T09:00:00Z');
const at = (ms: number) => new Date(ms).toISOString();
const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa' };

interface VariantView {
  _id: string;
  sku: string;
  options: Record<string, string>;
  price: number;
  originalPrice?: number;
  compareAtPrice?: number;
  promotion?: unknown;
  countInStock: number;
  lowStockThreshold: number;
  images: string[];
  swatch?: string;
}

/** Product variants (docs/decisions/0098-product-variants.md), on the real engine. */
describe('product variants', () => {
  let t: TestApp;
  let admin: string;
  let clock: Clock;
  let products: Model<Product>;
  const newCustomer = customerFactory(() => t, 'variant', 'Variant Customer');
  let serial = 0;
  const unique = () => `${Date.now().toString(36)}${++serial}`.toUpperCase();

  const sizes = { name: 'Size', nameAm: 'መጠን', kind: 'size', values: ['30 ml', '50 ml', '100 ml'] };
  const serumBody = (prefix = unique()) => ({
    name: `Moringa Serum ${prefix}`,
    brand: 'Habesha Naturals',
    category: 'skincare',
    images: ['/api/assets/products/x.svg'],
    options: [sizes],
    variants: [
      { sku: `SER-${prefix}-30`, options: { Size: '30 ml' }, price: 450, stock: 0 },
      { sku: `SER-${prefix}-50`, options: { Size: '50 ml' }, price: 650, originalPrice: 700, stock: 4 },
      { sku: `SER-${prefix}-100`, options: { Size: '100 ml' }, price: 1100, stock: 6, lowStockThreshold: 2 },
    ],
  });
  const create = (body: Record<string, unknown>) =>
    request(t.http).post('/api/products').set(auth(admin)).send(body);
  const makeSerum = async () => {
    const res = await create(serumBody()).expect(201);
    return res.body.product as Record<string, unknown> & { _id: string; variants: VariantView[] };
  };
  const stored = async (id: string) => (await products.findById(id).lean())!;
  const detail = async (id: string) => (await request(t.http).get(`/api/products/${id}`).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
    clock = t.app.get(Clock);
    products = t.app.get(getModelToken(Product.name));
  });

  afterAll(async () => {
    clock.set(undefined);
    await t.close();
  });

  describe('writing and answering', () => {
    it("creates a product with variants: stock is their sum, price the default variant's", async () => {
      const product = await makeSerum();
      expect(product.options).toEqual([sizes]);
      expect(product.variants).toHaveLength(3);
      const [v30, v50, v100] = product.variants;
      // the default variant: the first with stock (30 ml has none)
      expect(product.defaultVariantId).toBe(v50._id);
      expect(product.countInStock).toBe(10);
      expect(product.price).toBe(650);
      expect(product.originalPrice).toBe(700);
      expect(v30).toMatchObject({ options: { Size: '30 ml' }, price: 450, countInStock: 0, images: [] });
      expect(v50).toMatchObject({ price: 650, originalPrice: 700, compareAtPrice: 700, countInStock: 4 });
      expect(v100).toMatchObject({ price: 1100, countInStock: 6, lowStockThreshold: 2 });
      // the product's own threshold where the variant has none
      expect(v30.lowStockThreshold).toBe(5);
      const doc = await stored(product._id);
      expect(doc.stock).toBe(10);
      expect(doc.priceSantim).toBe(65000);
      expect(doc.variants!.map((v) => v.priceSantim)).toEqual([45000, 65000, 110000]);
      // the public answer says the same
      const pub = await detail(product._id);
      expect(pub.variants.map((v: VariantView) => v._id)).toEqual(product.variants.map((v) => v._id));
      expect(pub.defaultVariantId).toBe(v50._id);
    });

    it('answers a product without variants exactly as before (no options, variants or defaultVariantId)', async () => {
      const res = await create({ name: `Plain Soap ${unique()}`, price: 90, stock: 3 }).expect(201);
      const product = res.body.product;
      expect(product).not.toHaveProperty('options');
      expect(product).not.toHaveProperty('variants');
      expect(product).not.toHaveProperty('defaultVariantId');
      const doc = await stored(product._id);
      expect(doc).not.toHaveProperty('variants');
      expect(doc).not.toHaveProperty('options');
    });

    it('a PUT of the answered product unchanged changes nothing, variant ids kept (also during a sale)', async () => {
      clock.set(T0);
      const product = await makeSerum();
      const sale = await request(t.http)
        .post('/api/admin/promotions')
        .set(auth(admin))
        .send({
          name: { en: 'Serum week', am: 'የሴረም ሳምንት' },
          kind: 'percent',
          value: 20,
          productIds: [product._id],
          startsAt: at(T0 - HOUR),
          endsAt: at(T0 + 5 * HOUR),
        });
      expect(sale.status).toBe(201);
      await t.app.get(PromotionsService).sync();
      const before = await stored(product._id);
      const answered = await detail(product._id);
      // the sale applies to every variant as to the product
      expect(answered.variants[1]).toMatchObject({ price: 520, compareAtPrice: 700 });
      expect(answered.variants[1].promotion).toBeDefined();
      expect(answered.variants[2]).toMatchObject({ price: 880, compareAtPrice: 1100 });
      // the spec's PUT and the back office's record, each sent back as answered
      await request(t.http).put(`/api/products/${product._id}`).set(auth(admin)).send(answered).expect(200);
      const admin1 = (
        await request(t.http).get(`/api/admin/products/${product._id}`).set(auth(admin)).expect(200)
      ).body;
      await request(t.http)
        .put(`/api/admin/products/${product._id}`)
        .set(auth(admin))
        .send(admin1)
        .expect(200);
      const after = await stored(product._id);
      expect(after.variants).toEqual(before.variants);
      expect(after.options).toEqual(before.options);
      expect(after.priceSantim).toBe(before.priceSantim);
      expect(after.originalPriceSantim).toBe(before.originalPriceSantim);
      expect(after.stock).toBe(before.stock);
      clock.set(undefined);
    });

    it('edits variants: stock per variant (countInStock too), a new one added, one left out removed, ids kept', async () => {
      const product = await makeSerum();
      const [v30, v50, v100] = product.variants;
      const body = {
        ...product,
        variants: [
          { ...v100, countInStock: 1 },
          { ...v30, stock: 7 },
          { sku: `NEW-${unique()}`, options: { Size: '50 ml' }, price: 600, stock: 2 },
        ],
      };
      void v50;
      const res = await request(t.http)
        .put(`/api/products/${product._id}`)
        .set(auth(admin))
        .send(body)
        .expect(200);
      const answer = res.body.product;
      expect(answer.variants.map((v: VariantView) => v._id).slice(0, 2)).toEqual([v100._id, v30._id]);
      expect(answer.variants.map((v: VariantView) => v.countInStock)).toEqual([1, 7, 2]);
      expect(answer.countInStock).toBe(10);
      // the default is now the first in the new order with stock: 100 ml
      expect(answer.defaultVariantId).toBe(v100._id);
      expect(answer.price).toBe(1100);
      // a spec client's PUT without variants keeps them (and the derived price and stock)
      const spec = { name: answer.name, price: 1, stock: 999 };
      const kept = await request(t.http)
        .put(`/api/products/${product._id}`)
        .set(auth(admin))
        .send(spec)
        .expect(200);
      expect(kept.body.product.variants).toHaveLength(3);
      expect(kept.body.product.countInStock).toBe(10);
      expect(kept.body.product.price).toBe(1100);
      // variants: null makes it a plain product again (price and stock from the form)
      const cleared = await request(t.http)
        .put(`/api/products/${product._id}`)
        .set(auth(admin))
        .send({ ...spec, variants: null, options: null })
        .expect(200);
      expect(cleared.body.product).not.toHaveProperty('variants');
      expect(cleared.body.product.countInStock).toBe(999);
    });

    it('refuses bad variants with codes, writing nothing', async () => {
      const product = await makeSerum();
      const before = await stored(product._id);
      const body = serumBody();
      // the fourth value: not sent as a PUT of `product` (its own SKUs are free for its own new variants)
      const cases: [Record<string, unknown>, number, string, boolean?][] = [
        [
          { ...body, variants: [body.variants[0], { ...body.variants[1], options: { Size: '30 ml' } }] },
          400,
          'DUPLICATE_VARIANT',
        ],
        [
          { ...body, variants: [{ ...body.variants[1], originalPrice: 600 }] },
          400,
          'INVALID_COMPARE_AT_PRICE',
        ],
        [
          { ...body, variants: [{ ...body.variants[0], options: { Size: '20 ml' } }] },
          400,
          'INVALID_VARIANTS',
        ],
        [{ ...body, variants: [{ ...body.variants[0], options: {} }] }, 400, 'INVALID_VARIANTS'],
        [{ ...body, options: [] }, 400, 'INVALID_VARIANTS'],
        [{ ...body, options: [sizes, { ...sizes }] }, 400, 'INVALID_VARIANTS'],
        [{ ...body, options: [{ ...sizes, values: ['30 ml', '30 ml'] }] }, 400, 'INVALID_VARIANTS'],
        [{ ...body, variants: [{ ...body.variants[0], price: 0 }] }, 400, 'INVALID_VARIANTS'],
        [{ ...body, variants: [{ ...body.variants[0], stock: -1 }] }, 400, 'INVALID_VARIANTS'],
        [{ ...body, variants: [{ ...body.variants[0], swatch: 'red' }] }, 400, 'INVALID_VARIANTS'],
        [
          { ...body, variants: [{ ...body.variants[0], _id: '665f1c2e9b1d8c0012345678' }] },
          400,
          'INVALID_VARIANTS',
        ],
        [{ ...body, price: 10, stock: 1, variants: [], options: [sizes] }, 400, 'INVALID_VARIANTS'],
        [
          { ...body, variants: [body.variants[0], { ...body.variants[1], sku: body.variants[0].sku }] },
          409,
          'DUPLICATE_SKU',
        ],
        // another product's variant SKU, and another product's own SKU
        [
          { ...body, variants: [{ ...body.variants[0], sku: product.variants[2].sku }] },
          409,
          'DUPLICATE_SKU',
          true,
        ],
        [{ ...body, sku: product.variants[0].sku }, 409, 'DUPLICATE_SKU', true],
        [{ ...body, sku: body.variants[0].sku }, 409, 'DUPLICATE_SKU'],
      ];
      const count = await products.countDocuments();
      for (const [input, status, code, createOnly] of cases) {
        const res = await create(input);
        expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
        if (createOnly) continue;
        const put = await request(t.http).put(`/api/products/${product._id}`).set(auth(admin)).send(input);
        expect({ status: put.status, code: put.body.code }).toEqual({ status, code });
      }
      expect(await products.countDocuments()).toBe(count);
      expect(await stored(product._id)).toEqual(before);
      // a plain product may not take a variant's SKU either
      const plain = await create({
        name: `Plain ${unique()}`,
        price: 10,
        stock: 1,
        sku: product.variants[1].sku,
      });
      expect({ status: plain.status, code: plain.body.code }).toEqual({ status: 409, code: 'DUPLICATE_SKU' });
      // and a variant may not take a plain product's SKU
      const sku = `PLAIN-${unique()}`;
      await create({ name: `Plain ${unique()}`, price: 10, stock: 1, sku }).expect(201);
      const clash = await create({ ...body, variants: [{ ...body.variants[0], sku }] });
      expect({ status: clash.status, code: clash.body.code }).toEqual({ status: 409, code: 'DUPLICATE_SKU' });
      // an unknown product
      await request(t.http)
        .put('/api/products/665f1c2e9b1d8c0012345678')
        .set(auth(admin))
        .send(body)
        .expect(404);
    });

    it('finds a product by a variant SKU through the variants.sku index (the engine indexes arrays)', async () => {
      const product = await makeSerum();
      const found = await products.find({ 'variants.sku': product.variants[2].sku }, { _id: 1 }).lean();
      expect(found.map((p) => String(p._id))).toEqual([product._id]);
    });
  });

  describe('carts', () => {
    type CartLine = { product: { _id: string }; quantity: number; variantId?: string; variant?: VariantView };
    const add = (token: string, body: Record<string, unknown>) =>
      request(t.http).post('/api/cart/add').set(auth(token)).send(body);
    const cartOf = async (token: string) =>
      (await request(t.http).get('/api/cart').set(auth(token)).expect(200)).body as {
        products: CartLine[];
        total: number;
        notices?: { productId: string; variantId?: string; code: string; params: Record<string, unknown> }[];
      };

    it('a line per (product, variant); no variantId: the default variant; prices and stock per variant', async () => {
      const product = await makeSerum();
      const [v30, v50, v100] = product.variants;
      const { token } = await newCustomer();
      // a client of the spec sends no variantId: the default variant (50 ml, 30 ml has none)
      const first = await add(token, { productId: product._id, quantity: 1 }).expect(200);
      expect(first.body.products).toHaveLength(1);
      expect(first.body.products[0]).toMatchObject({
        variantId: v50._id,
        quantity: 1,
        variant: { price: 650 },
      });
      await add(token, { productId: product._id, variantId: v100._id, quantity: 2 }).expect(200);
      const again = await add(token, { productId: product._id, variantId: v50._id }).expect(200);
      expect(again.body.products.map((l: CartLine) => [l.variantId, l.quantity])).toEqual([
        [v50._id, 2],
        [v100._id, 2],
      ]);
      // the line's unit price is the variant's
      expect(again.body.total).toBe(2 * 650 + 2 * 1100);
      // the variant's stock, named "Name — 50 ml": 4 of 50 ml, 2 in the cart
      const over = await add(token, { productId: product._id, variantId: v50._id, quantity: 3 }).expect(409);
      expect(over.body.code).toBe('INSUFFICIENT_STOCK');
      expect(over.body.message).toContain(`${product.name as string} — 50 ml`);
      const soldOut = await add(token, { productId: product._id, variantId: v30._id }).expect(409);
      expect(soldOut.body.code).toBe('OUT_OF_STOCK');
      // a variant not of the product, a variant of a product without variants, a malformed one
      const plain = (await create({ name: `Plain ${unique()}`, price: 10, stock: 5 }).expect(201)).body
        .product;
      const other = await makeSerum();
      for (const [productId, variantId] of [
        [product._id, other.variants[0]._id],
        [plain._id, v50._id],
        [product._id, 'not-an-id'],
      ]) {
        const res = await add(token, { productId, variantId }).expect(404);
        expect(res.body.code).toBe('VARIANT_NOT_FOUND');
      }
      // update and remove name the line with ?variantId=
      const updated = await request(t.http)
        .patch(`/api/cart/update/${product._id}?variantId=${v100._id}`)
        .set(auth(token))
        .send({ quantity: 5 })
        .expect(200);
      expect(updated.body.products.map((l: CartLine) => l.quantity)).toEqual([2, 5]);
      const tooMany = await request(t.http)
        .patch(`/api/cart/update/${product._id}?variantId=${v100._id}`)
        .set(auth(token))
        .send({ quantity: 7 })
        .expect(409);
      expect(tooMany.body.code).toBe('INSUFFICIENT_STOCK');
      await request(t.http)
        .patch(`/api/cart/update/${product._id}?variantId=${other.variants[1]._id}`)
        .set(auth(token))
        .send({ quantity: 1 })
        .expect(404);
      // without variantId: the default variant's line (two lines of the product)
      const byDefault = await request(t.http)
        .patch(`/api/cart/update/${product._id}`)
        .set(auth(token))
        .send({ quantity: 1 })
        .expect(200);
      expect(byDefault.body.products.map((l: CartLine) => [l.variantId, l.quantity])).toEqual([
        [v50._id, 1],
        [v100._id, 5],
      ]);
      const removed = await request(t.http)
        .delete(`/api/cart/remove/${product._id}?variantId=${v100._id}`)
        .set(auth(token))
        .expect(200);
      expect(removed.body.products.map((l: CartLine) => l.variantId)).toEqual([v50._id]);
      // without variantId and one line left: that line
      const empty = await request(t.http)
        .delete(`/api/cart/remove/${product._id}`)
        .set(auth(token))
        .expect(200);
      expect(empty.body.products).toEqual([]);
    });

    it('a guest cart holds variant lines and merges into the account by (product, variant), capped per variant', async () => {
      const product = await makeSerum();
      const [, v50, v100] = product.variants;
      const first = await request(t.http)
        .post('/api/cart/add')
        .send({ productId: product._id, variantId: v50._id, quantity: 3 })
        .expect(200);
      const cartId = first.body.cartId as string;
      await request(t.http)
        .post('/api/cart/add')
        .set('X-Cart-Id', cartId)
        .send({ productId: product._id, variantId: v100._id, quantity: 1 })
        .expect(200);
      const { token } = await newCustomer();
      await add(token, { productId: product._id, variantId: v50._id, quantity: 2 }).expect(200);
      const merged = await request(t.http)
        .post('/api/cart/merge')
        .set(auth(token))
        .send({ cartId })
        .expect((res) => expect([200, 201]).toContain(res.status));
      expect(merged.body.products.map((l: CartLine) => [l.variantId, l.quantity])).toEqual([
        [v50._id, 4],
        [v100._id, 1],
      ]);
      expect(merged.body.notices).toEqual([
        expect.objectContaining({ productId: product._id, variantId: v50._id, code: 'CART_MERGE_CAPPED' }),
      ]);
    });

    it('a removed variant drops its line with a notice; a variant sold out since drops too; the sale per variant line', async () => {
      clock.set(T0);
      const product = await makeSerum();
      const [v30, v50, v100] = product.variants;
      const sale = await request(t.http)
        .post('/api/admin/promotions')
        .set(auth(admin))
        .send({
          name: { en: 'Short sale', am: 'አጭር ቅናሽ' },
          kind: 'percent',
          value: 10,
          productIds: [product._id],
          startsAt: at(T0 - HOUR),
          endsAt: at(T0 + HOUR),
        })
        .expect(201);
      void sale;
      await t.app.get(PromotionsService).sync();
      const { token } = await newCustomer();
      await add(token, { productId: product._id, variantId: v50._id }).expect(200);
      const onSale = await add(token, { productId: product._id, variantId: v100._id }).expect(200);
      expect(onSale.body.products.map((l: CartLine) => l.variant!.price)).toEqual([585, 990]);
      expect(onSale.body.total).toBe(585 + 990);
      // the sale ends: each variant line is repriced with a notice naming it
      clock.set(T0 + 2 * HOUR);
      await t.app.get(PromotionsService).sync();
      const repriced = await cartOf(token);
      expect(repriced.total).toBe(650 + 1100);
      expect(repriced.notices!.filter((n) => n.code === 'NOTICE_SALE_ENDED').map((n) => n.variantId)).toEqual(
        [v50._id, v100._id],
      );
      expect((await cartOf(token)).notices).toBeUndefined();
      // staff remove 100 ml and sell out 50 ml
      const answered = await detail(product._id);
      await request(t.http)
        .put(`/api/products/${product._id}`)
        .set(auth(admin))
        .send({
          ...answered,
          variants: [answered.variants[0], { ...answered.variants[1], countInStock: 0, stock: 0 }],
        })
        .expect(200);
      const fixed = await cartOf(token);
      expect(fixed.products).toEqual([]);
      expect(fixed.notices!.map((n) => [n.variantId, n.code])).toEqual([
        [v50._id, 'NOTICE_OUT_OF_STOCK_REMOVED'],
        [v100._id, 'NOTICE_UNAVAILABLE_REMOVED'],
      ]);
      void v30;
      clock.set(undefined);
    });
  });

  describe('orders', () => {
    const place = (token: string) =>
      request(t.http)
        .post('/api/orders')
        .set(auth(token))
        .send({ shippingAddress: address, paymentMethod: 'chapa' });

    it('20 buyers race for the last unit of a variant: exactly one order; the other variant untouched, stock = sum', async () => {
      const prefix = unique();
      const res = await create({
        ...serumBody(prefix),
        variants: [
          { sku: `RACE-${prefix}-30`, options: { Size: '30 ml' }, price: 450, stock: 1 },
          { sku: `RACE-${prefix}-50`, options: { Size: '50 ml' }, price: 650, stock: 7 },
        ],
      }).expect(201);
      const product = res.body.product as { _id: string; variants: VariantView[] };
      const [last, other] = product.variants;
      const buyers = await Promise.all(Array.from({ length: 20 }, () => newCustomer()));
      for (const buyer of buyers)
        await request(t.http)
          .post('/api/cart/add')
          .set(auth(buyer.token))
          .send({ productId: product._id, variantId: last._id, quantity: 1 })
          .expect(200);
      const results = await Promise.all(buyers.map((b) => place(b.token)));
      const placed = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status !== 201);
      expect(placed).toHaveLength(1);
      expect(refused.map((r) => [r.status, r.body.code])).toEqual(
        Array.from({ length: 19 }, () => [409, expect.stringMatching(/^(OUT_OF_STOCK|INSUFFICIENT_STOCK)$/)]),
      );
      const doc = await stored(product._id);
      expect(doc.variants!.map((v) => v.stock)).toEqual([0, 7]);
      expect(doc.stock).toBe(7);
      // the line's snapshot: the variant, its SKU and options, its price
      const line = placed[0].body.order.orderItems[0];
      expect(line).toMatchObject({
        variantId: last._id,
        sku: last.sku,
        variantOptions: { Size: '30 ml' },
        priceAtPurchase: 450,
        quantity: 1,
      });
      void other;
    });

    it('orders variants at their prices (no variantId: the default), cancelling gives the stock back to the variant; low stock per variant', async () => {
      const product = await makeSerum();
      const [, v50, v100] = product.variants;
      const { token } = await newCustomer();
      await request(t.http)
        .post('/api/cart/add')
        .set(auth(token))
        .send({ productId: product._id, variantId: v100._id, quantity: 4 })
        .expect(200);
      await request(t.http)
        .post('/api/cart/add')
        .set(auth(token))
        .send({ productId: product._id, quantity: 1 })
        .expect(200);
      const res = await place(token).expect(201);
      const order = res.body.order;
      expect(
        order.orderItems.map((i: { variantId: string; priceAtPurchase: number; sku: string }) => [
          i.variantId,
          i.sku,
          i.priceAtPurchase,
        ]),
      ).toEqual([
        [v100._id, v100.sku, 1100],
        [v50._id, v50.sku, 650],
      ]);
      expect(order.subtotal).toBe(4 * 1100 + 650);
      let doc = await stored(product._id);
      expect(doc.variants!.map((v) => v.stock)).toEqual([0, 3, 2]);
      expect(doc.stock).toBe(5);
      // 100 ml fell from 6 to 2, at its own threshold (2): one alert naming the variant
      const outbox = t.app.get(getModelToken('Notification')) as Model<{
        template: string;
        text: string;
        eventKey: string;
      }>;
      const alerts = await outbox
        .find({ template: 'adminLowStock', eventKey: new RegExp(product._id) })
        .lean();
      expect(alerts.length).toBeGreaterThan(0);
      expect(alerts.every((a) => a.text.includes('— 100 ml'))).toBe(true);
      // the customer cancels: each variant gets its units back
      await request(t.http).patch(`/api/orders/${order._id}/cancel`).set(auth(token)).expect(200);
      doc = await stored(product._id);
      expect(doc.variants!.map((v) => v.stock)).toEqual([0, 4, 6]);
      expect(doc.stock).toBe(10);
    });

    it('a line of a variant removed before the order is placed refuses the order (409 UNAVAILABLE), nothing taken', async () => {
      const product = await makeSerum();
      const [, v50, v100] = product.variants;
      const { token } = await newCustomer();
      await request(t.http)
        .post('/api/cart/add')
        .set(auth(token))
        .send({ productId: product._id, variantId: v100._id, quantity: 1 })
        .expect(200);
      const answered = await detail(product._id);
      await request(t.http)
        .put(`/api/products/${product._id}`)
        .set(auth(admin))
        .send({ ...answered, variants: answered.variants.slice(0, 2) })
        .expect(200);
      const refused = await place(token);
      expect([refused.status, refused.body.code]).toEqual([409, 'UNAVAILABLE']);
      expect((await stored(product._id)).variants!.map((v) => v.stock)).toEqual([0, 4]);
      void v50;
    });
  });

  describe('the back office', () => {
    it('lists a sold-out variant of a well-stocked product among low stock, however many products are low', async () => {
      // more low products without variants than the dashboard shows, each lower than the product's sum
      for (let i = 0; i < 22; i++)
        await create({ name: `Low Balm ${unique()}`, brand: 'Tena Skin', price: 90, stock: 1 }).expect(201);
      const product = await makeSerum(); // 30 ml sold out; the sum is 10
      const res = await request(t.http).get('/api/admin/dashboard/stats').set(auth(admin)).expect(200);
      const rows = res.body.lowStockItems as { _id: string; name: string; stock: number }[];
      expect(rows.length).toBeLessThanOrEqual(20);
      expect(rows).toContainEqual(
        expect.objectContaining({ _id: product._id, name: `${product.name} — 30 ml`, stock: 0 }),
      );
      // fewest first
      expect(rows.map((r) => r.stock)).toEqual([...rows.map((r) => r.stock)].sort((a, b) => a - b));
    });
  });

  describe('the seed', () => {
    it('seeds sizes for two serums and two shampoos, shades with swatches for two lipsticks (one sold out)', async () => {
      const bySku = async (sku: string) => (await products.findOne({ sku }).lean())!;
      for (const key of [
        'moringa-glow-serum',
        'frankincense-renewal-serum',
        'black-seed-shampoo',
        'honey-repair-shampoo',
      ]) {
        const doc = await bySku(key);
        expect(doc.options!.map((o) => o.kind)).toEqual(['size']);
        expect(doc.variants!.length).toBeGreaterThanOrEqual(2);
        expect(doc.stock).toBe(doc.variants!.reduce((sum, v) => sum + v.stock, 0));
        expect(new Set(doc.variants!.map((v) => v.priceSantim)).size).toBe(doc.variants!.length);
      }
      const lipsticks = await products.find({ subCategory: 'lips', 'options.kind': 'shade' }).lean();
      expect(lipsticks.map((p) => p.sku).sort()).toEqual(['berbere-satin-lipstick', 'coffee-matte-lipstick']);
      for (const doc of lipsticks) {
        expect(doc.nameAm).toMatch(/[\u1200-\u137f]/);
        expect(doc.variants!.length).toBeGreaterThanOrEqual(3);
        for (const v of doc.variants!) expect(v.swatch).toMatch(/^#[0-9a-f]{6}$/);
        expect(doc.stock).toBe(doc.variants!.reduce((sum, v) => sum + v.stock, 0));
      }
      const soldOut = lipsticks.flatMap((p) => p.variants!).filter((v) => v.stock === 0);
      expect(soldOut.map((v) => v.options)).toEqual([{ Shade: 'Kolo Plum' }]);
      // the answer: the default shade is the first in stock
      const coffee = lipsticks.find((p) => p.sku === 'coffee-matte-lipstick')!;
      const answer = await detail(String(coffee._id));
      expect(answer.defaultVariantId).toBe(String(coffee.variants![0]._id));
      expect(answer.variants.map((v: VariantView) => v.swatch)).toEqual([
        '#6b3e26',
        '#c19a6b',
        '#a4243b',
        '#5e2a3a',
      ]);
    });
  });
});
