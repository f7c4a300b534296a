import request from 'supertest';
import { ADDRESS, PASSWORD, startSecurityShop, type SecurityShop } from './support';

interface StoredUser {
  role: string;
  isActive: boolean;
}
interface StoredProduct {
  rating: number;
  reviewCount: number;
  priceSantim: number;
}
interface StoredOrder {
  totalPriceSantim?: number;
  paymentStatus: string;
  status: string;
}

/** OWASP API3:2023 Broken Object Property Level Authorization: clients cannot set properties that are the server's to decide. */
describe('API3 property level authorization (mass assignment)', () => {
  let shop: SecurityShop;

  beforeAll(async () => {
    shop = await startSecurityShop();
  });

  afterAll(() => shop.close());

  /** Either refused with 400 or accepted with the property ignored; never applied. */
  const refusedOrIgnored = (status: number) => expect([200, 201, 400]).toContain(status);

  it('never makes an admin or an inactive account through registration', async () => {
    const users = shop.model<StoredUser>('User');
    const attempts = [
      { role: 'admin' },
      { isAdmin: true },
      { isActive: false },
      { role: 'admin', isActive: true, _id: '0123456789abcdef01234567' },
      { passwordHash: 'x' },
    ];
    for (const [i, extra] of attempts.entries()) {
      const email = `mass${i}@example.et`;
      const res = await request(shop.t.http)
        .post('/api/auth/register')
        .send({ name: 'Mass Assigner', email, password: PASSWORD, confirmPassword: PASSWORD, ...extra });
      refusedOrIgnored(res.status);
      const stored = await users.findOne({ email }).lean();
      if (res.status === 400) expect(stored).toBeNull();
      else expect(stored).toMatchObject({ role: 'customer', isActive: true });
    }
  });

  it('ignores or refuses role, isActive and email verification in a profile update', async () => {
    const customer = await shop.customer();
    const users = shop.model<StoredUser>('User');
    for (const extra of [
      { role: 'admin' },
      { isActive: false },
      { isAdmin: true },
      { role: 'admin', name: 'Promoted' },
    ]) {
      const res = await request(shop.t.http)
        .put('/api/users/profile')
        .set(shop.auth(customer.token))
        .send(extra);
      refusedOrIgnored(res.status);
      expect(await users.findById(customer.id).lean()).toMatchObject({ role: 'customer', isActive: true });
    }
    await request(shop.t.http).get('/api/admin/users').set(shop.auth(customer.token)).expect(403);
  });

  it('refuses client-sent prices, totals and payment status on an order; the server prices it', async () => {
    const customer = await shop.customer();
    const productId = await shop.product({ price: 500, stock: 10 });
    await request(shop.t.http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .send({ productId, quantity: 2, price: 1 })
      .expect((r) => refusedOrIgnored(r.status));
    await request(shop.t.http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .send({ productId, quantity: 2 })
      .expect(200);
    const orders = shop.model<StoredOrder>('Order');
    const forged = [
      { totalPrice: 1 },
      { itemsPrice: 1, taxPrice: 0, shippingPrice: 0 },
      { paymentStatus: 'paid' },
      { isPaid: true, paidAt: new Date().toISOString() },
      { status: 'delivered' },
      { orderItems: [{ product: productId, quantity: 2, price: 1 }] },
      { items: [{ product: productId, quantity: 2, priceAtPurchase: 1 }] },
    ];
    for (const extra of forged) {
      const res = await request(shop.t.http)
        .post('/api/orders')
        .set(shop.auth(customer.token))
        .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard', ...extra });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect(await orders.countDocuments({})).toBe(0);
    const placed = await request(shop.t.http)
      .post('/api/orders')
      .set(shop.auth(customer.token))
      .send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' })
      .expect(201);
    // 2 x 500 = 1000 subtotal (not over 1000, so standard shipping 150) + 15% tax 150.
    expect(placed.body.order).toMatchObject({
      subtotal: 1000,
      shippingCost: 150,
      tax: 150,
      totalAmount: 1300,
    });
    expect(placed.body.order.orderItems[0]).toMatchObject({ quantity: 2, priceAtPurchase: 500 });
    expect(placed.body.order.paymentStatus).toBe('unpaid');
    expect(placed.body.order.status).toBe('pending');
  });

  it("never lets a product's rating or review count be set through the product form", async () => {
    const productId = await shop.product({ price: 300 });
    const products = shop.model<StoredProduct>('Product');
    const create = await request(shop.t.http)
      .post('/api/products')
      .set(shop.auth(shop.admin.token))
      .send({ name: 'Inflated Serum', price: 300, stock: 5, rating: 5, reviewCount: 999 });
    refusedOrIgnored(create.status);
    if (create.status === 201)
      expect(await products.findById(create.body.product._id).lean()).toMatchObject({
        rating: 0,
        reviewCount: 0,
      });
    const update = await request(shop.t.http)
      .put(`/api/products/${productId}`)
      .set(shop.auth(shop.admin.token))
      .send({ name: 'Shea', price: 300, stock: 5, rating: 5, reviewCount: 999, priceSantim: 1 });
    refusedOrIgnored(update.status);
    expect(await products.findById(productId).lean()).toMatchObject({
      rating: 0,
      reviewCount: 0,
      priceSantim: 30000,
    });
  });

  it('refuses a review that claims to be verified or written by someone else', async () => {
    const [author, other] = [await shop.customer(), await shop.customer()];
    const productId = await shop.product();
    const res = await request(shop.t.http)
      .post(`/api/reviews/product/${productId}`)
      .set(shop.auth(author.token))
      .send({ rating: 4, comment: 'Nice', verified: true, user: other.id, helpful: 100 });
    refusedOrIgnored(res.status);
    if (res.status === 201) {
      expect(res.body.review.verified).toBe(false);
      expect(String(res.body.review.user?._id ?? res.body.review.user)).toBe(author.id);
    }
  });
});
