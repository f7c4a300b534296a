import { getModelToken } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import request from 'supertest';
import { MAX_RANGE_SIZE, parseListQuery } from '../src/common/react-admin-list';
import { Product } from '../src/modules/catalog/schemas/product.schema';
import { Contact } from '../src/modules/contacts/schemas/contact.schema';
import { Review } from '../src/modules/reviews/schemas/review.schema';
import { startTestApp, type TestApp } from './support/test-app';

describe('react-admin query parsing', () => {
  const spec = {
    sortFields: { name: 'name', price: 'priceSantim' },
    filters: ['q', 'active'],
    defaultSort: ['name', 'ASC'] as ['name', 'ASC'],
  };

  it('reads sort, range and filter, mapping public fields to stored ones', () => {
    expect(
      parseListQuery(
        { sort: '["price","DESC"]', range: '[10,19]', filter: '{"q":"serum","active":true}' },
        spec,
      ),
    ).toEqual({
      sort: { priceSantim: -1, _id: -1 },
      skip: 10,
      limit: 10,
      filter: { q: 'serum', active: true },
    });
    expect(parseListQuery({}, spec)).toEqual({ sort: { name: 1, _id: 1 }, skip: 0, limit: 25, filter: {} });
  });

  it('caps a page at 100 records and gives getMany its ids without a range', () => {
    expect(parseListQuery({ range: '[0,9999]' }, spec).limit).toBe(MAX_RANGE_SIZE);
    const ids = Array.from({ length: 40 }, () => new Types.ObjectId().toHexString());
    expect(parseListQuery({ filter: JSON.stringify({ id: ids }) }, spec).limit).toBe(MAX_RANGE_SIZE);
  });

  it('refuses operator objects, unknown fields and malformed JSON', () => {
    for (const query of [
      { filter: '{"q":{"$regex":"."}}' },
      { filter: '{"active":[{"$ne":1}]}' },
      { filter: '{"$where":"1"}' },
      { sort: '["__proto__","ASC"]' },
      { sort: '["constructor","ASC"]' },
      { range: '[0,1.5]' },
      { filter: 'null' },
    ]) {
      expect(() => parseListQuery(query, spec)).toThrow(/Invalid (sort|range|filter) parameter/);
    }
  });
});

describe('admin API: products, contacts and reviews lists', () => {
  let t: TestApp;
  let admin: { token: string; id: string };
  let customer: { token: string; id: string };
  let products: Model<Product>;
  let contacts: Model<Contact>;
  let reviews: Model<Review>;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const asAdmin = () => auth(admin.token);

  beforeAll(async () => {
    t = await startTestApp();
    products = t.app.get(getModelToken(Product.name));
    contacts = t.app.get(getModelToken(Contact.name));
    reviews = t.app.get(getModelToken(Review.name));
    const a = await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Abebe Admin',
        email: 'abebe@shop.et',
        password: 'Admin@12345',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = { token: a.body.token, id: a.body.user._id };
    const c = await request(t.http)
      .post('/api/auth/register')
      .send({ name: 'Hanna Tesfaye', email: 'hanna@example.et', password: 'Buna@2026' })
      .expect(201);
    customer = { token: c.body.token, id: c.body.user._id };
  });

  afterAll(async () => {
    await t.close();
  });

  describe('products', () => {
    let serumId: string;

    it('creates products react-admin style, answering the record with id', async () => {
      const res = await request(t.http)
        .post('/api/admin/products')
        .set(asAdmin())
        .send({
          name: 'Moringa Glow Serum',
          brand: 'Addis Botanicals',
          price: 890,
          stock: 3,
          category: 'skincare',
        })
        .expect(201);
      expect(res.body).toMatchObject({
        id: res.body._id,
        name: 'Moringa Glow Serum',
        price: 890,
        stock: 3,
        countInStock: 3,
        active: true,
      });
      serumId = res.body.id;
      for (const p of [
        { name: 'Shea Butter Soap', brand: 'Harar Naturals', price: 250, stock: 40, category: 'skincare' },
        {
          name: 'Kohl Eyeliner',
          brand: 'Lalibela Colour',
          price: 320,
          stock: 12,
          category: 'makeup',
          sku: 'KOHL-1',
        },
      ]) {
        await request(t.http).post('/api/admin/products').set(asAdmin()).send(p).expect(201);
      }
      await request(t.http)
        .post('/api/admin/products')
        .set(asAdmin())
        .send({ name: 'X', price: -1, stock: 1 })
        .expect(400);
      await request(t.http)
        .post('/api/admin/products')
        .set(asAdmin())
        .send({ name: 'X', price: 1, stock: 1, priceSantim: 5 })
        .expect(400);
      await request(t.http)
        .post('/api/admin/products')
        .set(asAdmin())
        .send([{ name: 'X' }])
        .expect(400);
      await request(t.http)
        .post('/api/admin/products')
        .set(auth(customer.token))
        .send({ name: 'X', price: 1, stock: 1 })
        .expect(403);
      await request(t.http).post('/api/admin/products').send({ name: 'X', price: 1, stock: 1 }).expect(401);
    });

    it('lists, sorts, filters and gets many', async () => {
      const all = await request(t.http)
        .get('/api/admin/products')
        .query({ sort: '["price","ASC"]' })
        .set(asAdmin())
        .expect(200);
      expect(all.body.map((p: { price: number }) => p.price)).toEqual([250, 320, 890]);
      expect(all.headers['content-range']).toBe('products 0-2/3');
      const q = await request(t.http)
        .get('/api/admin/products')
        .query({ filter: '{"q":"harar"}' })
        .set(asAdmin())
        .expect(200);
      expect(q.body.map((p: { name: string }) => p.name)).toEqual(['Shea Butter Soap']);
      const makeup = await request(t.http)
        .get('/api/admin/products')
        .query({ filter: '{"category":"makeup"}' })
        .set(asAdmin())
        .expect(200);
      expect(makeup.body.map((p: { sku: string }) => p.sku)).toEqual(['KOHL-1']);
      const low = await request(t.http)
        .get('/api/admin/products')
        .query({ filter: '{"lowStock":true}' })
        .set(asAdmin())
        .expect(200);
      expect(low.body.map((p: { id: string }) => p.id)).toEqual([serumId]);
      const many = await request(t.http)
        .get('/api/admin/products')
        .query({ filter: JSON.stringify({ id: [serumId] }) })
        .set(asAdmin())
        .expect(200);
      expect(many.body).toHaveLength(1);
      const one = await request(t.http).get(`/api/admin/products/${serumId}`).set(asAdmin()).expect(200);
      expect(one.body).toMatchObject({ id: serumId, name: 'Moringa Glow Serum' });
      await request(t.http)
        .get('/api/admin/products')
        .query({ filter: '{"category":"food"}' })
        .set(asAdmin())
        .expect(400);
      await request(t.http)
        .get('/api/admin/products')
        .query({ filter: '{"active":"maybe"}' })
        .set(asAdmin())
        .expect(400);
      await request(t.http).get('/api/admin/products').set(auth(customer.token)).expect(403);
    });

    it('updates from the whole record react-admin sends back, auditing price and stock', async () => {
      const record = (await request(t.http).get(`/api/admin/products/${serumId}`).set(asAdmin()).expect(200))
        .body;
      const res = await request(t.http)
        .put(`/api/admin/products/${serumId}`)
        .set(asAdmin())
        .send({ ...record, price: 850, countInStock: 7 })
        .expect(200);
      expect(res.body).toMatchObject({ id: serumId, price: 850, stock: 7, countInStock: 7 });
      const audit = await request(t.http)
        .get('/api/admin/audit')
        .query({
          filter: JSON.stringify({ entity: 'product', entityId: serumId }),
          sort: '["createdAt","ASC"]',
        })
        .set(asAdmin())
        .expect(200);
      expect(
        audit.body.map((e: { action: string; from: unknown; to: unknown }) => [e.action, e.from, e.to]),
      ).toEqual([
        ['product.create', undefined, { price: 890, stock: 3 }],
        ['product.price', 890, 850],
        ['product.stock', 3, 7],
      ]);
      await request(t.http)
        .put(`/api/admin/products/${serumId}`)
        .set(asAdmin())
        .send({ ...record, price: 'free' })
        .expect(400);
      await request(t.http)
        .put(`/api/admin/products/${serumId}`)
        .set(asAdmin())
        .send({ ...record, hacked: true })
        .expect(400);
      await request(t.http)
        .put('/api/admin/products/000000000000000000000000')
        .set(asAdmin())
        .send({ name: 'N', price: 1, stock: 1 })
        .expect(404);
    });

    it('withdraws a product on delete, answering the record; it stays listed for admins', async () => {
      const res = await request(t.http).delete(`/api/admin/products/${serumId}`).set(asAdmin()).expect(200);
      expect(res.body).toMatchObject({ id: serumId, active: false });
      await request(t.http).get(`/api/products/${serumId}`).expect(404);
      const inactive = await request(t.http)
        .get('/api/admin/products')
        .query({ filter: '{"active":false}' })
        .set(asAdmin())
        .expect(200);
      expect(inactive.body.map((p: { id: string }) => p.id)).toEqual([serumId]);
      await request(t.http).delete(`/api/admin/products/${serumId}`).set(asAdmin()).expect(404);
    });
  });

  describe('products in both languages, by stock state, in bulk', () => {
    it('keeps Amharic name, description, ingredients and benefits', async () => {
      const created = await request(t.http)
        .post('/api/admin/products')
        .set(asAdmin())
        .send({
          name: 'Teff Scrub',
          nameAm: 'የጤፍ ማጽጃ',
          description: 'Gentle scrub',
          descriptionAm: 'ለስላሳ ማጽጃ',
          ingredients: ['Teff flour', 'Honey'],
          ingredientsAm: ['የጤፍ ዱቄት', 'ማር'],
          benefits: ['Smooth skin'],
          benefitsAm: ['ለስላሳ ቆዳ'],
          price: 300,
          stock: 0,
          category: 'skincare',
        })
        .expect(201);
      const one = await request(t.http).get(`/api/products/${created.body.id}`).expect(200);
      expect(one.body).toMatchObject({ ingredientsAm: ['የጤፍ ዱቄት', 'ማር'], benefitsAm: ['ለስላሳ ቆዳ'] });
      await request(t.http)
        .post('/api/admin/products')
        .set(asAdmin())
        .send({ name: 'Bad', price: 1, stock: 1, ingredientsAm: 'not a list' })
        .expect(400);
    });

    it('filters by stock state: out, low (1 to 5) and in stock', async () => {
      const [out, low, plenty] = await products.create([
        { name: 'Stock Out', priceSantim: 100, stock: 0 },
        { name: 'Stock Low', priceSantim: 100, stock: 5 },
        { name: 'Stock Plenty', priceSantim: 100, stock: 6 },
      ]);
      const idsOf = async (stockState: string) =>
        (
          (
            await request(t.http)
              .get('/api/admin/products')
              .query({ filter: JSON.stringify({ stockState, q: 'Stock ' }) })
              .set(asAdmin())
              .expect(200)
          ).body as { id: string }[]
        ).map((p) => p.id);
      expect(await idsOf('out')).toEqual([String(out._id)]);
      expect(await idsOf('low')).toEqual([String(low._id)]);
      expect(await idsOf('in')).toEqual([String(plenty._id)]);
      await request(t.http)
        .get('/api/admin/products')
        .query({ filter: '{"stockState":"some"}' })
        .set(asAdmin())
        .expect(400);
    });

    it('withdraws and puts back several products at once, auditing each one that changed', async () => {
      const [a, b, c] = await products.create([
        { name: 'Bulk A', priceSantim: 100, stock: 1 },
        { name: 'Bulk B', priceSantim: 100, stock: 1 },
        { name: 'Bulk C', priceSantim: 100, stock: 1, active: false },
      ]);
      const ids = [a, b, c].map((p) => String(p._id));
      const off = await request(t.http)
        .put('/api/admin/products/bulk/active')
        .set(asAdmin())
        .send({ ids, active: false })
        .expect(200);
      expect(off.body).toEqual({ success: true, updated: 2, ids: expect.arrayContaining(ids.slice(0, 2)) });
      expect((await products.find({ _id: { $in: ids } }).lean()).map((p) => p.active)).toEqual([
        false,
        false,
        false,
      ]);
      const audit = await request(t.http)
        .get('/api/admin/audit')
        .query({ filter: JSON.stringify({ action: 'product.active' }) })
        .set(asAdmin())
        .expect(200);
      expect(audit.body.map((e: { entityId: string }) => e.entityId).sort()).toEqual(ids.slice(0, 2).sort());
      expect(audit.body[0]).toMatchObject({ from: true, to: false, actorName: 'Abebe Admin' });

      const on = await request(t.http)
        .put('/api/admin/products/bulk/active')
        .set(asAdmin())
        .send({ ids, active: true })
        .expect(200);
      expect(on.body.updated).toBe(3);
      await request(t.http).get(`/api/products/${ids[2]}`).expect(200);

      for (const bad of [
        {},
        { ids: [], active: true },
        { ids: ['nope'], active: true },
        { ids, active: 'yes' },
        { ids: { $ne: null }, active: true },
      ])
        await request(t.http).put('/api/admin/products/bulk/active').set(asAdmin()).send(bad).expect(400);
      await request(t.http)
        .put('/api/admin/products/bulk/active')
        .set(auth(customer.token))
        .send({ ids, active: false })
        .expect(403);
      expect(await products.countDocuments({ _id: { $in: ids }, active: true })).toBe(3);
    });
  });

  describe('contacts', () => {
    let ids: string[];

    beforeAll(async () => {
      const docs = await contacts.create([
        {
          name: 'Dawit Alemu',
          email: 'dawit@example.et',
          subject: 'Delivery to Hawassa',
          message: 'Do you deliver?',
          ipAddress: '10.0.0.1',
        },
        {
          name: 'Meron Haile',
          email: 'meron@example.et',
          subject: 'Wholesale',
          message: 'Prices for 100 units?',
          status: 'read',
        },
        {
          name: 'Sara Girma',
          email: 'sara@example.et',
          subject: 'Allergy (nuts)',
          message: 'Is the soap nut-free?',
        },
      ]);
      ids = docs.map((d) => String(d._id));
    });

    it('lists with q and status filters and Content-Range', async () => {
      const all = await request(t.http).get('/api/admin/contacts').set(asAdmin()).expect(200);
      expect(all.headers['content-range']).toBe('contacts 0-2/3');
      expect(all.body[0]).toMatchObject({ id: all.body[0]._id, status: expect.any(String) });
      const unread = await request(t.http)
        .get('/api/admin/contacts')
        .query({ filter: '{"status":"unread"}' })
        .set(asAdmin())
        .expect(200);
      expect(unread.body).toHaveLength(2);
      const q = await request(t.http)
        .get('/api/admin/contacts')
        .query({ filter: '{"q":"(nuts)"}' })
        .set(asAdmin())
        .expect(200);
      expect(q.body.map((c: { name: string }) => c.name)).toEqual(['Sara Girma']);
      const sorted = await request(t.http)
        .get('/api/admin/contacts')
        .query({ sort: '["name","DESC"]', range: '[0,0]' })
        .set(asAdmin())
        .expect(200);
      expect(sorted.body.map((c: { name: string }) => c.name)).toEqual(['Sara Girma']);
      expect(sorted.headers['content-range']).toBe('contacts 0-0/3');
      const one = await request(t.http).get(`/api/admin/contacts/${ids[0]}`).set(asAdmin()).expect(200);
      expect(one.body).toMatchObject({ id: ids[0], ipAddress: '10.0.0.1' });
      await request(t.http).get('/api/admin/contacts').set(auth(customer.token)).expect(403);
    });

    it('sets the status from the whole record or from { status }, and deletes', async () => {
      const record = (await request(t.http).get(`/api/admin/contacts/${ids[0]}`).set(asAdmin())).body;
      const read = await request(t.http)
        .put(`/api/admin/contacts/${ids[0]}`)
        .set(asAdmin())
        .send({ ...record, status: 'read' })
        .expect(200);
      expect(read.body).toMatchObject({ id: ids[0], status: 'read' });
      const replied = await request(t.http)
        .put(`/api/admin/contacts/${ids[0]}`)
        .set(asAdmin())
        .send({ status: 'replied' })
        .expect(200);
      expect(replied.body.status).toBe('replied');
      await request(t.http)
        .put(`/api/admin/contacts/${ids[0]}`)
        .set(asAdmin())
        .send({ status: 'spam' })
        .expect(400);
      await request(t.http)
        .put(`/api/admin/contacts/${ids[0]}`)
        .set(asAdmin())
        .send({ status: { $ne: 'x' } })
        .expect(400);
      await request(t.http)
        .put(`/api/admin/contacts/${ids[0]}`)
        .set(asAdmin())
        .send({ status: 'read', owner: 'me' })
        .expect(400);
      await request(t.http)
        .put(`/api/admin/contacts/${ids[0]}`)
        .set(auth(customer.token))
        .send({ status: 'read' })
        .expect(403);
      const gone = await request(t.http).delete(`/api/admin/contacts/${ids[1]}`).set(asAdmin()).expect(200);
      expect(gone.body).toMatchObject({ id: ids[1], name: 'Meron Haile' });
      await request(t.http).get(`/api/admin/contacts/${ids[1]}`).set(asAdmin()).expect(404);
      await request(t.http).delete(`/api/admin/contacts/${ids[1]}`).set(asAdmin()).expect(404);
    });
  });

  describe('reviews', () => {
    let productId: Types.ObjectId;
    let lowId: string;

    beforeAll(async () => {
      const product = await products.create({ name: 'Coffee Body Scrub', priceSantim: 45_000, stock: 20 });
      productId = product._id;
      const other = await request(t.http)
        .post('/api/auth/register')
        .send({ name: 'Dawit Alemu', email: 'dawit@example.et', password: 'Buna@2026' })
        .expect(201);
      const docs = await reviews.create([
        {
          user: new Types.ObjectId(customer.id),
          product: productId,
          rating: 5,
          comment: 'Lovely scent, smooth skin',
          title: 'Great',
        },
        {
          user: new Types.ObjectId(other.body.user._id),
          product: productId,
          rating: 3,
          comment: 'Too coarse for my face',
        },
      ]);
      lowId = String(docs[1]._id);
      await products.updateOne({ _id: productId }, { $set: { rating: 4, reviewCount: 2 } });
    });

    it('lists reviews with author and product names, filters and sort', async () => {
      const all = await request(t.http)
        .get('/api/admin/reviews')
        .query({ sort: '["rating","DESC"]' })
        .set(asAdmin())
        .expect(200);
      expect(all.headers['content-range']).toBe('reviews 0-1/2');
      expect(all.body[0]).toMatchObject({
        rating: 5,
        user: { name: 'Hanna Tesfaye' },
        product: { name: 'Coffee Body Scrub' },
        comment: 'Lovely scent, smooth skin',
      });
      const q = await request(t.http)
        .get('/api/admin/reviews')
        .query({ filter: '{"q":"coarse"}' })
        .set(asAdmin())
        .expect(200);
      expect(q.body.map((r: { id: string }) => r.id)).toEqual([lowId]);
      const byRating = await request(t.http)
        .get('/api/admin/reviews')
        .query({ filter: '{"rating":3}' })
        .set(asAdmin())
        .expect(200);
      expect(byRating.body).toHaveLength(1);
      const byProduct = await request(t.http)
        .get('/api/admin/reviews')
        .query({ filter: JSON.stringify({ product: String(productId) }) })
        .set(asAdmin())
        .expect(200);
      expect(byProduct.body).toHaveLength(2);
      await request(t.http)
        .get('/api/admin/reviews')
        .query({ filter: '{"rating":9}' })
        .set(asAdmin())
        .expect(400);
      await request(t.http).get('/api/admin/reviews').set(auth(customer.token)).expect(403);
    });

    it('deletes a review, answering the record, and the product rating follows', async () => {
      const res = await request(t.http).delete(`/api/admin/reviews/${lowId}`).set(asAdmin()).expect(200);
      expect(res.body).toMatchObject({ id: lowId, rating: 3 });
      const product = await products.findById(productId).lean();
      expect(product).toMatchObject({ rating: 5, reviewCount: 1 });
      await request(t.http).get(`/api/admin/reviews/${lowId}`).set(asAdmin()).expect(404);
      await request(t.http).delete(`/api/admin/reviews/${lowId}`).set(asAdmin()).expect(404);
      await request(t.http).delete(`/api/admin/reviews/${lowId}`).set(auth(customer.token)).expect(403);
    });
  });
});
