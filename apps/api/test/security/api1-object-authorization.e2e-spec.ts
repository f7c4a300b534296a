import request from 'supertest';
import {
  ADDRESS,
  expectErrorShape,
  placeOrder,
  startSecurityShop,
  type Account,
  type SecurityShop,
} from './support';

/** OWASP API1:2023 Broken Object Level Authorization: one customer never reads or changes another's objects. */
describe('API1 object level authorization', () => {
  let shop: SecurityShop;
  let alice: Account;
  let bob: Account;
  let productId: string;

  beforeAll(async () => {
    shop = await startSecurityShop();
    [alice, bob] = [await shop.customer(), await shop.customer()];
    productId = await shop.product({ stock: 50 });
  });

  afterAll(() => shop.close());

  it("answers 404 for another customer's order and cannot cancel or pay it", async () => {
    const placed = await placeOrder(shop, alice, productId, 2);
    expect(placed.status).toBe(201);
    const orderId = placed.body.order._id;
    const http = shop.t.http;

    const read = await request(http).get(`/api/orders/${orderId}`).set(shop.auth(bob.token)).expect(404);
    expectErrorShape(read.body, 404);
    expect(JSON.stringify(read.body)).not.toContain(alice.email);
    const cancel = await request(http)
      .patch(`/api/orders/${orderId}/cancel`)
      .set(shop.auth(bob.token))
      .expect(404);
    expectErrorShape(cancel.body, 404);
    await request(http)
      .post('/api/payments/initialize')
      .set(shop.auth(bob.token))
      .send({ orderId })
      .expect(404);
    const mine = await request(http).get('/api/orders/my-orders').set(shop.auth(bob.token)).expect(200);
    expect(mine.body.orders).toEqual([]);

    const own = await request(http).get(`/api/orders/${orderId}`).set(shop.auth(alice.token)).expect(200);
    expect(own.body.status).toBe('pending');
  });

  it("cannot verify or complete another customer's payment", async () => {
    const http = shop.t.http;
    const placed = await placeOrder(shop, alice, productId, 1);
    const init = await request(http)
      .post('/api/payments/initialize')
      .set(shop.auth(alice.token))
      .send({ orderId: placed.body.order._id })
      .expect(201);
    const txRef = init.body.txRef;
    const verify = await request(http).get(`/api/payments/verify/${txRef}`).set(shop.auth(bob.token));
    expect(verify.status).toBe(404);
    expectErrorShape(verify.body, 404);
    const complete = await request(http)
      .post(`/api/payments/test/${txRef}/complete`)
      .set(shop.auth(bob.token))
      .send({ outcome: 'success' });
    expect(complete.status).toBe(404);
    const own = await request(http)
      .get(`/api/orders/${placed.body.order._id}`)
      .set(shop.auth(alice.token))
      .expect(200);
    expect(own.body.paymentStatus).toBe('unpaid');
  });

  it("never shows or changes another customer's cart", async () => {
    const http = shop.t.http;
    await request(http)
      .post('/api/cart/add')
      .set(shop.auth(alice.token))
      .send({ productId, quantity: 3 })
      .expect(200);
    const bobs = await request(http).get('/api/cart').set(shop.auth(bob.token)).expect(200);
    expect(bobs.body.products).toEqual([]);
    // Bob addresses the same product line: only his own (empty) cart is concerned.
    const update = await request(http)
      .patch(`/api/cart/update/${productId}`)
      .set(shop.auth(bob.token))
      .send({ quantity: 1 });
    expect([200, 404]).toContain(update.status);
    await request(http).delete(`/api/cart/remove/${productId}`).set(shop.auth(bob.token));
    await request(http).delete('/api/cart/clear').set(shop.auth(bob.token));
    const alices = await request(http).get('/api/cart').set(shop.auth(alice.token)).expect(200);
    expect(alices.body.products).toHaveLength(1);
    expect(alices.body.products[0].quantity).toBe(3);
  });

  it("refuses to edit or delete another customer's review, leaving it unchanged", async () => {
    const http = shop.t.http;
    const created = await request(http)
      .post(`/api/reviews/product/${productId}`)
      .set(shop.auth(alice.token))
      .send({ rating: 5, comment: 'Lovely and light' })
      .expect(201);
    const reviewId = created.body.review._id;
    const edit = await request(http)
      .patch(`/api/reviews/${reviewId}`)
      .set(shop.auth(bob.token))
      .send({ rating: 1, comment: 'hijacked' });
    expect([403, 404]).toContain(edit.status);
    expectErrorShape(edit.body, edit.status);
    const remove = await request(http).delete(`/api/reviews/${reviewId}`).set(shop.auth(bob.token));
    expect([403, 404]).toContain(remove.status);
    const listed = await request(http).get(`/api/reviews/product/${productId}`).expect(200);
    const reviews = listed.body.reviews as Array<{ _id: string; rating: number; comment: string }>;
    expect(reviews.find((r) => r._id === reviewId)).toMatchObject({ rating: 5, comment: 'Lovely and light' });
  });

  it("cannot change or delete another customer's address", async () => {
    const http = shop.t.http;
    const added = await request(http)
      .post('/api/users/addresses')
      .set(shop.auth(alice.token))
      .send(ADDRESS)
      .expect(201);
    const addressId = added.body.address.id;
    const change = await request(http)
      .put(`/api/users/addresses/${addressId}`)
      .set(shop.auth(bob.token))
      .send({ ...ADDRESS, street: 'Somewhere else' })
      .expect(404);
    expectErrorShape(change.body, 404);
    await request(http).delete(`/api/users/addresses/${addressId}`).set(shop.auth(bob.token)).expect(404);
    const bobs = await request(http).get('/api/users/addresses').set(shop.auth(bob.token)).expect(200);
    expect(bobs.body.addresses).toEqual([]);
    const alices = await request(http).get('/api/users/addresses').set(shop.auth(alice.token)).expect(200);
    expect(alices.body.addresses).toEqual([
      expect.objectContaining({ id: addressId, street: ADDRESS.street }),
    ]);
  });

  it("keeps each customer's wishlist private", async () => {
    const http = shop.t.http;
    await request(http)
      .post(`/api/wishlist/add/${productId}`)
      .set(shop.auth(alice.token))
      .expect((res) => expect(res.status).toBeLessThan(300));
    const bobs = await request(http).get('/api/wishlist').set(shop.auth(bob.token)).expect(200);
    expect(bobs.body.products).toEqual([]);
    await request(http).delete(`/api/wishlist/remove/${productId}`).set(shop.auth(bob.token));
    const alices = await request(http).get('/api/wishlist').set(shop.auth(alice.token)).expect(200);
    expect(alices.body.products).toHaveLength(1);
  });
});
