import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { ProductsService } from '../src/modules/catalog/products.service';
import { DEMO_ACCOUNTS } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

interface ListedProduct {
  _id: string;
  name: string;
  price: number;
  rating: number;
  reviewCount: number;
  stock: number;
  brand: string;
  isFeatured: boolean;
  createdAt: string;
}

describe('catalogue: listing, search, filters, sorts and the price/stock audit trail', () => {
  let t: TestApp;
  let admin: string;
  let customer: string;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const ids: Record<string, string> = {};

  const list = async (query: string) =>
    (await request(t.http).get(`/api/products?${query}`).expect(200)).body as {
      products: ListedProduct[];
      totalProducts: number;
      totalPages: number;
      page: number;
    };
  const names = (body: { products: ListedProduct[] }) => body.products.map((p) => p.name);

  beforeAll(async () => {
    t = await startTestApp();
    await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Selam Admin',
        email: DEMO_ACCOUNTS.admin.email,
        password: DEMO_ACCOUNTS.admin.password,
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password })
    ).body.token;
    customer = (
      await request(t.http)
        .post('/api/auth/register')
        .send({ name: 'Hanna', email: 'hanna@example.et', password: 'Buna@2026x' })
        .expect(201)
    ).body.token;
    const products = [
      {
        name: 'Moringa Glow Serum',
        nameAm: 'የሞሪንጋ ሴረም',
        brand: 'Habesha Naturals',
        description: 'Brightening serum for dry skin.',
        ingredients: ['Moringa oil', 'Aloe vera'],
        price: 890,
        stock: 12,
        category: 'skincare',
        subCategory: 'serums',
        isFeatured: true,
      },
      {
        name: 'Coffee Body Scrub',
        brand: 'Sidamo Botanicals',
        description: 'Exfoliating scrub (100% natural) with coffee grounds.',
        ingredients: ['Coffee', 'Shea butter'],
        price: 450,
        stock: 0,
        category: 'skincare',
        subCategory: 'masks',
      },
      {
        name: 'Rosemary Hair Oil',
        brand: 'Habesha Naturals',
        description: 'Strengthens hair.',
        ingredients: ['Rosemary', 'Castor oil'],
        price: 620,
        stock: 5,
        category: 'haircare',
        subCategory: 'shampoo',
      },
      {
        name: 'Teff Lip Balm',
        brand: 'Lalibela Beauty',
        description: 'Soft lips all day.',
        ingredients: ['Beeswax', 'Teff extract'],
        price: 150,
        stock: 40,
        category: 'makeup',
        subCategory: 'lips',
      },
      {
        name: 'Frankincense Eau de Parfum',
        brand: 'Axum Scents',
        description: 'Warm resin fragrance.',
        ingredients: ['Frankincense'],
        price: 2400,
        stock: 3,
        category: 'fragrance',
      },
    ];
    for (const p of products) {
      const res = await request(t.http).post('/api/products').set(as(admin)).send(p).expect(201);
      ids[p.name] = res.body.product._id;
    }
    // ratings come from reviews; set two directly for the rating filter and sort
    const model = t.app.get<Model<unknown>>(getModelToken('Product'));
    await model.updateOne({ _id: ids['Moringa Glow Serum'] }, { $set: { rating: 4.6, reviewCount: 9 } });
    await model.updateOne({ _id: ids['Teff Lip Balm'] }, { $set: { rating: 3.2, reviewCount: 20 } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers the spec shape, 20 per page by default, with limit at most 100', async () => {
    const body = await list('');
    expect(body).toMatchObject({ totalProducts: 5, totalPages: 1, page: 1 });
    expect(body.products).toHaveLength(5);
    const paged = await list('limit=2&page=3');
    expect(paged).toMatchObject({ totalProducts: 5, totalPages: 3, page: 3 });
    expect(paged.products).toHaveLength(1);
    await request(t.http).get('/api/products?limit=100').expect(200);
    const tooMany = await request(t.http).get('/api/products?limit=101').expect(400);
    expect(tooMany.body.errors[0].field).toBe('limit');
    await request(t.http).get('/api/products?page=0').expect(400);
    await request(t.http).get('/api/products?limit=-5').expect(400);
  });

  it('never exposes the internal search terms', async () => {
    const body = await list('search=moringa');
    expect(body.products[0]).not.toHaveProperty('searchTerms');
    const one = await request(t.http).get(`/api/products/${ids['Moringa Glow Serum']}`).expect(200);
    expect(one.body).not.toHaveProperty('searchTerms');
  });

  it('searches name, Amharic name, brand, description and ingredients case-insensitively by word prefix', async () => {
    expect(names(await list('search=MORINGA'))).toEqual(['Moringa Glow Serum']);
    expect(names(await list('search=mor'))).toEqual(['Moringa Glow Serum']);
    expect(names(await list(`search=${encodeURIComponent('ሞሪንጋ')}`))).toEqual(['Moringa Glow Serum']);
    expect(names(await list('search=habesha&sort=price_asc'))).toEqual([
      'Rosemary Hair Oil',
      'Moringa Glow Serum',
    ]);
    expect(names(await list('search=exfoliating'))).toEqual(['Coffee Body Scrub']);
    expect(names(await list('search=castor'))).toEqual(['Rosemary Hair Oil']);
    // every word must match
    expect(names(await list('search=habesha%20rosemary'))).toEqual(['Rosemary Hair Oil']);
    expect((await list('search=habesha%20teff')).totalProducts).toBe(0);
  });

  it('treats search text literally: regex characters and operator-like text match nothing special', async () => {
    expect((await list('search=.*')).totalProducts).toBe(0);
    expect((await list(`search=${encodeURIComponent('^Mor')}`)).totalProducts).toBe(1); // the word "mor..." (moringa)
    expect((await list(`search=${encodeURIComponent('(100%')}`)).totalProducts).toBe(1);
    expect((await list(`search=${encodeURIComponent('{"$ne":null}')}`)).totalProducts).toBe(0);
    const operator = await request(t.http).get('/api/products?search[$regex]=.*').expect(400);
    expect(operator.body.success).toBe(false);
    await request(t.http).get('/api/products?minPrice[$gt]=0').expect(400);
    await request(t.http)
      .get(`/api/products?search=${'a'.repeat(101)}`)
      .expect(400);
  });

  it('filters by category, sub-category, brand, price range, minimum rating and availability', async () => {
    expect(names(await list('category=haircare'))).toEqual(['Rosemary Hair Oil']);
    expect(names(await list('subCategory=lips'))).toEqual(['Teff Lip Balm']);
    expect(names(await list('brand=habesha%20naturals&sort=price_desc'))).toEqual([
      'Moringa Glow Serum',
      'Rosemary Hair Oil',
    ]);
    expect((await list('brand=Habesha')).totalProducts).toBe(0); // brand is an exact (case-insensitive) match
    expect(names(await list('minPrice=400&maxPrice=700&sort=price_asc'))).toEqual([
      'Coffee Body Scrub',
      'Rosemary Hair Oil',
    ]);
    expect(names(await list('minRating=4'))).toEqual(['Moringa Glow Serum']);
    expect(names(await list('minRating=3&sort=price_asc'))).toEqual(['Teff Lip Balm', 'Moringa Glow Serum']);
    expect(names(await list('inStock=true&category=skincare'))).toEqual(['Moringa Glow Serum']);
    expect((await list('inStock=false')).totalProducts).toBe(5);
    for (const bad of [
      'category=shoes',
      'subCategory=boots',
      'minRating=6',
      'inStock=maybe',
      'minPrice=-1',
      'maxPrice=abc',
    ]) {
      const res = await request(t.http).get(`/api/products?${bad}`).expect(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400, message: 'Validation failed' });
    }
  });

  it('sorts by featured, price, reviews and newest', async () => {
    expect(names(await list('sort=featured'))[0]).toBe('Moringa Glow Serum');
    const asc = (await list('sort=price_asc')).products.map((p) => p.price);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await list('sort=price_desc')).products.map((p) => p.price);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(names(await list('sort=reviews')).slice(0, 2)).toEqual(['Teff Lip Balm', 'Moringa Glow Serum']);
    expect(names(await list('sort=newest'))[0]).toBe('Frankincense Eau de Parfum');
  });

  it('answers 404 "Product not found" for unknown, malformed and withdrawn ids', async () => {
    for (const id of ['000000000000000000000000', 'nope', '123', encodeURIComponent('{"$ne":null}')]) {
      const res = await request(t.http).get(`/api/products/${id}`).expect(404);
      expect(res.body).toEqual({
        success: false,
        statusCode: 404,
        message: 'Product not found',
        code: 'PRODUCT_NOT_FOUND',
        params: {},
      });
    }
  });

  it('records price and stock changes made with PUT in the audit trail, with the admin as actor', async () => {
    const id = ids['Rosemary Hair Oil'];
    const form = {
      name: 'Rosemary Hair Oil',
      brand: 'Habesha Naturals',
      // without castor oil now: an edit keeps the lists it leaves out, and the search reads what is stored
      ingredients: ['Rosemary'],
      price: 620,
      stock: 5,
      category: 'haircare',
    };
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(as(admin))
      .send({ ...form, description: 'Now with more rosemary.' })
      .expect(200);
    const audit = t.app.get<
      Model<{ action: string; from: unknown; to: unknown; actorEmail?: string; entityId: string }>
    >(getModelToken('AuditEntry'));
    // the creation through the shop route is audited; an edit that changes neither price nor stock adds nothing
    expect(await audit.find({ entityId: id }).distinct('action')).toEqual(['product.create']);

    await request(t.http)
      .put(`/api/products/${id}`)
      .set(as(admin))
      .send({ ...form, price: 580.5, stock: 17 })
      .expect(200);
    const entries = await audit
      .find({ entity: 'product', entityId: id, action: { $ne: 'product.create' } })
      .sort({ action: 1 })
      .lean();
    expect(
      entries.map((e) => ({ action: e.action, from: e.from, to: e.to, actorEmail: e.actorEmail })),
    ).toEqual([
      { action: 'product.price', from: 620, to: 580.5, actorEmail: DEMO_ACCOUNTS.admin.email },
      { action: 'product.stock', from: 5, to: 17, actorEmail: DEMO_ACCOUNTS.admin.email },
    ]);
    // search terms follow the edit
    expect(names(await list('search=castor'))).toEqual([]);
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(as(admin))
      .send({ ...form, description: 'Castor and rosemary.' })
      .expect(200);
    expect(names(await list('search=castor'))).toEqual(['Rosemary Hair Oil']);
  });

  it('audits products created and withdrawn through the shop routes, with the admin as actor', async () => {
    const created = await request(t.http)
      .post('/api/products')
      .set(as(admin))
      .send({ name: 'Audited Soap', price: 95.5, stock: 4 })
      .expect(201);
    const id = created.body.product._id as string;
    await request(t.http).delete(`/api/products/${id}`).set(as(admin)).expect(200);
    const audit = t.app.get<Model<{ action: string; from: unknown; to: unknown; actorEmail?: string }>>(
      getModelToken('AuditEntry'),
    );
    const entries = await audit.find({ entity: 'product', entityId: id }).sort({ action: 1 }).lean();
    expect(entries.map((e) => [e.action, e.from, e.to, e.actorEmail])).toEqual([
      ['product.create', undefined, { price: 95.5, stock: 4 }, DEMO_ACCOUNTS.admin.email],
      ['product.delete', true, false, DEMO_ACCOUNTS.admin.email],
    ]);
    // a second withdrawal is a 404 and audits nothing more
    await request(t.http).delete(`/api/products/${id}`).set(as(admin)).expect(404);
    expect(await audit.countDocuments({ entityId: id })).toBe(2);
  });

  it('keeps customers away from the admin product routes, writing nothing', async () => {
    const id = ids['Teff Lip Balm'];
    await request(t.http)
      .put(`/api/products/${id}`)
      .set(as(customer))
      .send({ name: 'Hacked', price: 1, stock: 1 })
      .expect(403);
    await request(t.http).put(`/api/products/${id}`).send({ name: 'Hacked', price: 1, stock: 1 }).expect(401);
    await request(t.http).delete(`/api/products/${id}`).set(as(customer)).expect(403);
    const product = await request(t.http).get(`/api/products/${id}`).expect(200);
    expect(product.body).toMatchObject({ name: 'Teff Lip Balm', price: 150 });
  });

  it('declares the indexes that keep listing and search off collection scans', async () => {
    const model = t.app.get<Model<unknown>>(getModelToken('Product'));
    await model.init();
    const keys = (await model.listIndexes()).map((i) => JSON.stringify(i.key));
    expect(keys).toEqual(
      expect.arrayContaining([
        JSON.stringify({ searchTerms: 1 }),
        JSON.stringify({ active: 1, isFeatured: -1, rating: -1, createdAt: -1, _id: 1 }),
        JSON.stringify({ active: 1, priceSantim: 1, _id: 1 }),
        JSON.stringify({ active: 1, category: 1, priceSantim: 1, _id: 1 }),
        JSON.stringify({ active: 1, reviewCount: -1, rating: -1, _id: 1 }),
        JSON.stringify({ active: 1, createdAt: -1, _id: -1 }),
      ]),
    );
  });

  it('gives search terms to products written without them (raw imports), once at start', async () => {
    const model = t.app.get<Model<{ name: string; searchTerms?: string[] }>>(getModelToken('Product'));
    await model.collection.insertOne({
      name: 'Imported Shea Soap',
      brand: 'Import',
      description: '',
      ingredients: [],
      priceSantim: 1000,
      stock: 1,
      active: true,
      images: [],
      createdAt: new Date(),
    });
    expect(await t.app.get(ProductsService).backfillSearchTerms()).toBe(1);
    expect(
      (await model.findOne({ name: 'Imported Shea Soap' }, { searchTerms: 1 }).lean())?.searchTerms,
    ).toEqual(expect.arrayContaining(['imported', 'shea', 'soap']));
    // the search index reads stored products, with or without their terms (docs/decisions/0084-search-index.md)
    expect(names(await list('search=imported'))).toEqual(['Imported Shea Soap']);
  });
});
