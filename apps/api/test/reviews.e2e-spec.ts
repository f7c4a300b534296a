import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { DEMO_ACCOUNTS } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

describe('reviews', () => {
  let t: TestApp;
  let admin: string;
  let meron: string;
  let abel: string;
  let abelId: string;
  let serum: string;
  let butter: string;
  const strong = 'Buna@2026x';
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  const register = async (name: string, email: string) =>
    (await request(t.http).post('/api/auth/register').send({ name, email, password: strong }).expect(201))
      .body;
  const product = async (name: string) =>
    (
      await request(t.http)
        .post('/api/products')
        .set(as(admin))
        .send({ name, price: 500, stock: 10, category: 'skincare' })
        .expect(201)
    ).body.product._id as string;
  const rating = async (id: string) => {
    const p = (await request(t.http).get(`/api/products/${id}`).expect(200)).body;
    return { rating: p.rating, reviewCount: p.reviewCount };
  };

  beforeAll(async () => {
    t = await startTestApp();
    await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: DEMO_ACCOUNTS.admin.name,
        email: DEMO_ACCOUNTS.admin.email,
        password: DEMO_ACCOUNTS.admin.password,
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password })
        .expect(200)
    ).body.token;
    meron = (await register('Meron Alemu', 'meron@example.et')).token;
    const abelReg = await register('Abel Tsegaye', 'abel@example.et');
    abel = abelReg.token;
    abelId = abelReg.user._id;
    serum = await product('Moringa Glow Serum');
    butter = await product('Shea Body Butter');
  });

  afterAll(async () => {
    await t.close();
  });

  it('lets a signed-in customer review a product, accepting text as the comment, and updates the rating', async () => {
    const res = await request(t.http)
      .post(`/api/reviews/product/${serum}`)
      .set(as(meron))
      .send({ rating: 4, text: 'Light and calming', title: 'Nice' })
      .expect(201);
    expect(res.body).toMatchObject({
      success: true,
      review: {
        rating: 4,
        comment: 'Light and calming',
        text: 'Light and calming',
        title: 'Nice',
        verified: false,
        user: { name: 'Meron Alemu' },
        product: { _id: serum, name: 'Moringa Glow Serum' },
      },
      rating: 4,
      reviewCount: 1,
    });
    expect(await rating(serum)).toEqual({ rating: 4, reviewCount: 1 });
  });

  it('marks a review verified when the author has a delivered order with the product', async () => {
    const orders = t.app.get<Model<unknown>>(getModelToken('Order'));
    await orders.create({
      user: abelId,
      customer: { name: 'Abel Tsegaye', email: 'abel@example.et' },
      orderItems: [{ product: serum, name: 'Moringa Glow Serum', quantity: 1, priceAtPurchaseSantim: 50000 }],
      shippingAddress: {
        street: 'Bole',
        city: 'Addis Ababa',
        state: 'Addis Ababa',
        zipCode: '1000',
        country: 'Ethiopia',
      },
      subtotalSantim: 50000,
      shippingCostSantim: 15000,
      taxSantim: 7500,
      totalAmountSantim: 72500,
      status: 'delivered',
    });
    const res = await request(t.http)
      .post(`/api/reviews/product/${serum}`)
      .set(as(abel))
      .send({ rating: 5, comment: 'Best serum' })
      .expect(201);
    expect(res.body.review.verified).toBe(true);
    expect(res.body).toMatchObject({ rating: 4.5, reviewCount: 2 });
    // a pending order does not count
    await orders.create({
      user: abelId,
      customer: { name: 'Abel Tsegaye', email: 'abel@example.et' },
      orderItems: [{ product: butter, name: 'Shea Body Butter', quantity: 1, priceAtPurchaseSantim: 50000 }],
      shippingAddress: {
        street: 'Bole',
        city: 'Addis Ababa',
        state: 'Addis Ababa',
        zipCode: '1000',
        country: 'Ethiopia',
      },
      subtotalSantim: 50000,
      shippingCostSantim: 15000,
      taxSantim: 7500,
      totalAmountSantim: 72500,
      status: 'pending',
    });
    const butterReview = await request(t.http)
      .post(`/api/reviews/product/${butter}`)
      .set(as(abel))
      .send({ rating: 2, comment: 'Too greasy' })
      .expect(201);
    expect(butterReview.body.review.verified).toBe(false);
  });

  it('allows one review per customer per product (409)', async () => {
    const res = await request(t.http)
      .post(`/api/reviews/product/${serum}`)
      .set(as(meron))
      .send({ rating: 1, comment: 'Again' })
      .expect(409);
    expect(res.body).toEqual({
      success: false,
      statusCode: 409,
      message: 'You have already reviewed this product',
      code: 'DUPLICATE_REVIEW',
      params: {},
    });
    expect(await rating(serum)).toEqual({ rating: 4.5, reviewCount: 2 });
  });

  it("lists a product's reviews with author names, rating and count, newest first, paginated", async () => {
    const res = await request(t.http).get(`/api/reviews/product/${serum}`).expect(200);
    expect(res.body).toMatchObject({ success: true, rating: 4.5, reviewCount: 2, page: 1, totalPages: 1 });
    expect(res.body.reviews.map((r: { user: { name: string } }) => r.user.name)).toEqual([
      'Abel Tsegaye',
      'Meron Alemu',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/email|passwordHash/);
    const page2 = await request(t.http).get(`/api/reviews/product/${serum}?page=2&limit=1`).expect(200);
    expect(page2.body).toMatchObject({ page: 2, totalPages: 2 });
    expect(page2.body.reviews.map((r: { user: { name: string } }) => r.user.name)).toEqual(['Meron Alemu']);
  });

  it('lists recent reviews with user and product names, 6 by default and at most 20', async () => {
    const res = await request(t.http).get('/api/reviews/recent').expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.reviews).toHaveLength(3);
    expect(res.body.reviews[0]).toMatchObject({
      user: { name: 'Abel Tsegaye' },
      product: { name: 'Shea Body Butter' },
      rating: 2,
    });
    const one = await request(t.http).get('/api/reviews/recent?limit=1').expect(200);
    expect(one.body.reviews).toHaveLength(1);

    const reviews = t.app.get<Model<unknown>>(getModelToken('Review'));
    const users = t.app.get<Model<{ _id: unknown }>>(getModelToken('User'));
    const many = await users.insertMany(
      Array.from({ length: 25 }, (_, i) => ({
        name: `Reviewer ${i}`,
        email: `r${i}@example.et`,
        passwordHash: 'x',
        role: 'customer',
      })),
    );
    await reviews.insertMany(
      many.map((u) => ({ user: u._id, product: butter, rating: 5, comment: 'Lovely' })),
    );
    expect((await request(t.http).get('/api/reviews/recent').expect(200)).body.reviews).toHaveLength(6);
    expect(
      (await request(t.http).get('/api/reviews/recent?limit=500').expect(200)).body.reviews,
    ).toHaveLength(20);
    await reviews.deleteMany({ user: { $in: many.map((u) => u._id) } });
    await request(t.http).get('/api/reviews/recent?limit=0').expect(400);
    await request(t.http).get('/api/reviews/recent?limit=abc').expect(400);
  });

  it('lets only the author or an admin edit a review, keeping the rating in step', async () => {
    const mine = (await request(t.http).get(`/api/reviews/product/${serum}`)).body.reviews.find(
      (r: { user: { name: string } }) => r.user.name === 'Meron Alemu',
    );
    const forbidden = await request(t.http)
      .patch(`/api/reviews/${mine._id}`)
      .set(as(abel))
      .send({ rating: 1 })
      .expect(403);
    expect(forbidden.body).toMatchObject({ success: false, statusCode: 403 });
    await request(t.http).patch(`/api/reviews/${mine._id}`).send({ rating: 1 }).expect(401);
    const edited = await request(t.http)
      .patch(`/api/reviews/${mine._id}`)
      .set(as(meron))
      .send({ rating: 2, comment: 'Changed my mind' })
      .expect(200);
    expect(edited.body).toMatchObject({
      success: true,
      review: { rating: 2, comment: 'Changed my mind' },
      rating: 3.5,
      reviewCount: 2,
    });
    const byAdmin = await request(t.http)
      .patch(`/api/reviews/${mine._id}`)
      .set(as(admin))
      .send({ title: 'Moderated' })
      .expect(200);
    expect(byAdmin.body.review).toMatchObject({
      title: 'Moderated',
      rating: 2,
      user: { name: 'Meron Alemu' },
    });
    expect(await rating(serum)).toEqual({ rating: 3.5, reviewCount: 2 });
  });

  it('refuses bad review input and writes nothing', async () => {
    const cases = [
      { rating: 6, comment: 'x' },
      { rating: 0, comment: 'x' },
      { rating: 4.5, comment: 'x' },
      { rating: '5', comment: 'x' },
      { rating: 5 },
      { rating: 5, comment: '   ' },
      { rating: 5, comment: { $ne: null } },
      { rating: 5, comment: 'x', verified: true },
      { rating: 5, comment: 'x', user: abelId },
    ];
    const fresh = await register('Liya Kebede', 'liya@example.et');
    for (const body of cases) {
      const res = await request(t.http)
        .post(`/api/reviews/product/${butter}`)
        .set(as(fresh.token))
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400 });
    }
    const huge = await request(t.http)
      .post(`/api/reviews/product/${butter}`)
      .set(as(fresh.token))
      .send({ rating: 5, comment: 'x'.repeat(2 * 1024 * 1024) })
      .expect(413);
    expect(huge.body).toMatchObject({ success: false, statusCode: 413 });
    const long = await request(t.http)
      .post(`/api/reviews/product/${butter}`)
      .set(as(fresh.token))
      .send({ rating: 5, comment: 'x'.repeat(2001) })
      .expect(400);
    expect(long.body.errors[0].field).toBe('comment');
    const comment = await request(t.http)
      .post(`/api/reviews/product/${butter}`)
      .set(as(fresh.token))
      .send({ rating: 5 })
      .expect(400);
    expect(comment.body.errors[0].field).toBe('comment');
    const mine = (await request(t.http).get(`/api/reviews/product/${serum}`)).body.reviews.find(
      (r: { user: { name: string } }) => r.user.name === 'Meron Alemu',
    );
    await request(t.http).patch(`/api/reviews/${mine._id}`).set(as(meron)).send({}).expect(400);
    await request(t.http).patch(`/api/reviews/${mine._id}`).set(as(meron)).send({ rating: 9 }).expect(400);
    await request(t.http)
      .patch(`/api/reviews/${mine._id}`)
      .set(as(meron))
      .send({ product: butter })
      .expect(400);
    expect(await rating(butter)).toEqual({ rating: 2, reviewCount: 1 });
  });

  it('answers 404 for unknown, malformed or withdrawn products and unknown or malformed review ids', async () => {
    for (const id of ['000000000000000000000000', 'nope', '{"$ne":null}']) {
      const list = await request(t.http)
        .get(`/api/reviews/product/${encodeURIComponent(id)}`)
        .expect(404);
      expect(list.body).toEqual({
        success: false,
        statusCode: 404,
        message: 'Product not found',
        code: 'PRODUCT_NOT_FOUND',
        params: {},
      });
      await request(t.http)
        .post(`/api/reviews/product/${encodeURIComponent(id)}`)
        .set(as(meron))
        .send({ rating: 5, comment: 'x' })
        .expect(404);
      const edit = await request(t.http)
        .patch(`/api/reviews/${encodeURIComponent(id)}`)
        .set(as(meron))
        .send({ rating: 5 })
        .expect(404);
      expect(edit.body.message).toBe('Review not found');
      await request(t.http)
        .delete(`/api/reviews/${encodeURIComponent(id)}`)
        .set(as(admin))
        .expect(404);
    }
    const withdrawn = await product('Withdrawn Soap');
    await request(t.http).delete(`/api/products/${withdrawn}`).set(as(admin)).expect(200);
    await request(t.http).get(`/api/reviews/product/${withdrawn}`).expect(404);
    await request(t.http)
      .post(`/api/reviews/product/${withdrawn}`)
      .set(as(meron))
      .send({ rating: 5, comment: 'x' })
      .expect(404);
  });

  it('lets only customers write reviews', async () => {
    await request(t.http)
      .post(`/api/reviews/product/${butter}`)
      .send({ rating: 5, comment: 'x' })
      .expect(401);
    await request(t.http)
      .post(`/api/reviews/product/${butter}`)
      .set(as(admin))
      .send({ rating: 5, comment: 'x' })
      .expect(403);
  });

  it('lets only the author or an admin delete, and recomputes the rating', async () => {
    const reviews = (await request(t.http).get(`/api/reviews/product/${serum}`)).body.reviews;
    const meronReview = reviews.find((r: { user: { name: string } }) => r.user.name === 'Meron Alemu');
    const abelReview = reviews.find((r: { user: { name: string } }) => r.user.name === 'Abel Tsegaye');
    await request(t.http).delete(`/api/reviews/${meronReview._id}`).expect(401);
    await request(t.http).delete(`/api/reviews/${meronReview._id}`).set(as(abel)).expect(403);
    const own = await request(t.http).delete(`/api/reviews/${meronReview._id}`).set(as(meron)).expect(200);
    expect(own.body).toEqual({ success: true, message: 'Review deleted', rating: 5, reviewCount: 1 });
    await request(t.http).delete(`/api/reviews/${meronReview._id}`).set(as(meron)).expect(404);
    const byAdmin = await request(t.http).delete(`/api/reviews/${abelReview._id}`).set(as(admin)).expect(200);
    expect(byAdmin.body).toMatchObject({ rating: 0, reviewCount: 0 });
    expect(await rating(serum)).toEqual({ rating: 0, reviewCount: 0 });
    // after deleting, the customer may review again
    await request(t.http)
      .post(`/api/reviews/product/${serum}`)
      .set(as(meron))
      .send({ rating: 3, comment: 'Second try' })
      .expect(201);
    expect(await rating(serum)).toEqual({ rating: 3, reviewCount: 1 });
  });
});
