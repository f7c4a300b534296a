import request from 'supertest';
import { DEMO_ACCOUNTS, SeedService } from '../../src/seed/seed.service';
import { auth, loginAs } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * docs/product.md §7, row by row, as a client written to it calls the API: the payload exactly as the
 * spec's client sends it (client-only fields included), through `/api` and, where the spec is unsure
 * of its base (orders, contacts), through the doubled `/api/api` too; every field of the 'Answer
 * read' column is asserted. The points the spec leaves open are settled in
 * docs/decisions/0012-spec-clients-work-unchanged.md.
 */
const PREFIXES = ['/api', '/api/api'] as const;
const ID = /^[a-f0-9]{24}$/;

describe('section 7 of docs/product.md: a client written to the specification works unchanged', () => {
  let t: TestApp;
  let admin: string;
  let origin: string;
  let counter = 0;

  /** The sign-up form's full payload (docs/product.md §5 and §7). */
  const signUpForm = (over: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      name: `Spec Client ${counter}`,
      email: `spec.client${counter}@example.et`,
      password: 'Buna@2026',
      confirmPassword: 'Buna@2026',
      role: 'customer',
      adminSecret: '',
      ...over,
    };
  };
  const newCustomer = async () => {
    const form = signUpForm();
    const res = await request(t.http).post('/api/auth/register').send(form).expect(201);
    return { token: res.body.token as string, id: res.body.user._id as string, ...form };
  };
  /** The back office's product form (docs/product.md §5): countInStock numeric, one image as a list. */
  const newProduct = async (over: Record<string, unknown> = {}) => {
    counter += 1;
    const res = await request(t.http)
      .post('/api/products')
      .set(auth(admin))
      .send({
        name: `Spec Soap ${counter}`,
        brand: 'Spec Naturals',
        description: 'Olive oil soap',
        price: 120,
        stock: 30,
        countInStock: 30,
        images: ['/api/assets/products/x.svg'],
        ...over,
      })
      .expect(201);
    return res.body.product._id as string;
  };
  const fill = (token: string, productId: string, quantity = 1) =>
    request(t.http).post('/api/cart/add').set(auth(token)).send({ productId, quantity }).expect(200);
  /** The checkout payload a client of docs/product.md §7 sends, exactly (no phone, paymentMethod 'none'). */
  const checkout = {
    shippingAddress: {
      street: 'Bole Road, House 12',
      city: 'Addis Ababa',
      state: 'Addis Ababa',
      zipCode: '1000',
      country: 'Ethiopia',
    },
    paymentMethod: 'none',
  };
  const placeOrder = async (token: string, prefix = '/api') => {
    await fill(token, await newProduct());
    const res = await request(t.http).post(`${prefix}/orders`).set(auth(token)).send(checkout).expect(201);
    return res.body.order._id as string;
  };
  /** Pays the order on the test provider's checkout: fulfilment follows payment (docs/decisions/0080). */
  const pay = async (token: string, orderId: string) => {
    const init = await request(t.http)
      .post('/api/payments/initialize')
      .set(auth(token))
      .send({ orderId })
      .expect(201);
    await request(t.http)
      .post(`/api/payments/test/${init.body.txRef}/complete`)
      .set(auth(token))
      .send({ outcome: 'success' })
      .expect(200);
  };
  const expectAbsolute = (url: unknown) => expect(url).toMatch(new RegExp(`^${origin}/api/`));

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_API_URL: 'https://api.shop.example' });
    origin = 'https://api.shop.example';
    await t.app.get(SeedService).seed();
    admin = await loginAs(t, DEMO_ACCOUNTS.admin);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('Authentication', () => {
    it('POST /auth/register takes the whole sign-up form and answers success, token, user, message', async () => {
      const form = signUpForm();
      const res = await request(t.http).post('/api/auth/register').send(form).expect(201);
      expect(res.body).toMatchObject({
        success: true,
        token: expect.any(String),
        user: { _id: expect.stringMatching(ID), name: form.name, email: form.email, role: 'customer' },
        message: expect.any(String),
      });
      // the token it stores works
      await request(t.http).get('/api/auth/me').set(auth(res.body.token)).expect(200);
    });

    it('POST /auth/register with role admin and the secret is the admin registration, with its rules', async () => {
      const wrong = await request(t.http)
        .post('/api/auth/register')
        .send(signUpForm({ role: 'admin', adminSecret: 'not-the-secret' }))
        .expect(403);
      expect(wrong.body.message).toBe('Admin registration failed');
      const missing = await request(t.http)
        .post('/api/auth/register')
        .send(signUpForm({ role: 'admin', adminSecret: '' }))
        .expect(400);
      expect(missing.body.message).toBe('Admin secret key is required');
      const form = signUpForm({ role: 'admin', adminSecret: t.config.adminSecretKey });
      const res = await request(t.http).post('/api/auth/register').send(form).expect(201);
      expect(res.body).toMatchObject({ success: true, token: expect.any(String), user: { role: 'admin' } });
      // a customer's form with a secret typed in stays a customer
      const customer = await request(t.http)
        .post('/api/auth/register')
        .send(signUpForm({ adminSecret: t.config.adminSecretKey }))
        .expect(201);
      expect(customer.body.user.role).toBe('customer');
    });

    it('POST /auth/register still refuses fields no spec client sends, and mismatched passwords', async () => {
      const unknown = await request(t.http)
        .post('/api/auth/register')
        .send({ ...signUpForm(), isAdmin: true })
        .expect(400);
      expect(JSON.stringify(unknown.body)).toContain('isAdmin');
      const mismatch = await request(t.http)
        .post('/api/auth/register')
        .send(signUpForm({ confirmPassword: 'Other@2026' }))
        .expect(400);
      expect(mismatch.body.message).toBe('Passwords do not match');
    });

    it('POST /auth/login answers success, token, user, message', async () => {
      const customer = await newCustomer();
      const res = await request(t.http)
        .post('/api/auth/login')
        .send({ email: customer.email, password: customer.password, role: 'customer' })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        token: expect.any(String),
        user: { _id: customer.id, email: customer.email },
        message: expect.any(String),
      });
    });

    it('POST /auth/logout (no payload) removes the token cookie', async () => {
      const res = await request(t.http).post('/api/auth/logout').expect(200);
      expect(res.body.success).toBe(true);
      expect(String(res.headers['set-cookie'])).toMatch(/token=;.*Expires=Thu, 01 Jan 1970/);
    });

    it('GET /auth/me answers success, user', async () => {
      const customer = await newCustomer();
      const res = await request(t.http).get('/api/auth/me').set(auth(customer.token)).expect(200);
      expect(res.body).toMatchObject({ success: true, user: { _id: customer.id, email: customer.email } });
    });

    it('POST /auth/register-admin takes the registration plus the admin secret key', async () => {
      const res = await request(t.http)
        .post('/api/auth/register-admin')
        .send(signUpForm({ role: 'admin', adminSecretKey: t.config.adminSecretKey, adminSecret: '' }))
        .expect(201);
      expect(res.body).toMatchObject({ success: true, user: { role: 'admin' } });
    });
  });

  describe('Cart', () => {
    it('GET /cart answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      await fill(customer.token, product, 2);
      const res = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
      expect(res.body.products).toEqual([
        expect.objectContaining({ product: expect.objectContaining({ _id: product }), quantity: 2 }),
      ]);
      expectAbsolute(res.body.products[0].product.images[0]);
    });

    it('POST /cart/add takes productId and quantity (default 1) and answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      const res = await request(t.http)
        .post('/api/cart/add')
        .set(auth(customer.token))
        .send({ productId: product })
        .expect(200);
      expect(res.body.products).toEqual([
        expect.objectContaining({
          product: expect.objectContaining({ _id: product, price: 120 }),
          quantity: 1,
        }),
      ]);
    });

    it('PATCH /cart/update/{productId} takes quantity and answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      await fill(customer.token, product);
      const res = await request(t.http)
        .patch(`/api/cart/update/${product}`)
        .set(auth(customer.token))
        .send({ quantity: 3 })
        .expect(200);
      expect(res.body.products[0]).toMatchObject({ product: { _id: product }, quantity: 3 });
    });

    it('DELETE /cart/remove/{productId} answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      await fill(customer.token, product);
      const res = await request(t.http)
        .delete(`/api/cart/remove/${product}`)
        .set(auth(customer.token))
        .expect(200);
      expect(res.body.products).toEqual([]);
    });

    it.each(['clear', 'clearAllFromCart'])('DELETE /cart/%s empties the cart', async (path) => {
      const customer = await newCustomer();
      await fill(customer.token, await newProduct());
      const res = await request(t.http).delete(`/api/cart/${path}`).set(auth(customer.token)).expect(200);
      expect(res.body.success).toBe(true);
      const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
      expect(cart.body.products).toEqual([]);
    });
  });

  describe('Wishlist', () => {
    it('GET /wishlist answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      await request(t.http).post(`/api/wishlist/add/${product}`).set(auth(customer.token)).expect(200);
      const res = await request(t.http).get('/api/wishlist').set(auth(customer.token)).expect(200);
      expect(res.body.products).toEqual([
        expect.objectContaining({ product: expect.objectContaining({ _id: product }) }),
      ]);
      expectAbsolute(res.body.products[0].product.images[0]);
    });

    it('POST /wishlist/add/{productId} takes an optional options body and answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      const res = await request(t.http)
        .post(`/api/wishlist/add/${product}`)
        .set(auth(customer.token))
        .send({ notifyOnSale: true, notifyOnStock: false })
        .expect(200);
      expect(res.body.products[0]).toMatchObject({ product: { _id: product }, notifyOnSale: true });
    });

    it('DELETE /wishlist/remove/{productId} answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      await request(t.http).post(`/api/wishlist/add/${product}`).set(auth(customer.token)).expect(200);
      const res = await request(t.http)
        .delete(`/api/wishlist/remove/${product}`)
        .set(auth(customer.token))
        .expect(200);
      expect(res.body.products).toEqual([]);
    });

    it('POST /wishlist/move-to-cart/{productId} takes quantity (default 1)', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      await request(t.http).post(`/api/wishlist/add/${product}`).set(auth(customer.token)).expect(200);
      const res = await request(t.http)
        .post(`/api/wishlist/move-to-cart/${product}`)
        .set(auth(customer.token))
        .send({ quantity: 2 })
        .expect(200);
      expect(res.body.success).toBe(true);
      const cart = await request(t.http).get('/api/cart').set(auth(customer.token)).expect(200);
      expect(cart.body.products[0]).toMatchObject({ product: { _id: product }, quantity: 2 });
    });

    it('PATCH /wishlist/notifications/{productId} takes the preferences and answers products', async () => {
      const customer = await newCustomer();
      const product = await newProduct();
      await request(t.http).post(`/api/wishlist/add/${product}`).set(auth(customer.token)).expect(200);
      const res = await request(t.http)
        .patch(`/api/wishlist/notifications/${product}`)
        .set(auth(customer.token))
        .send({ notifyOnSale: true, notifyOnStock: true })
        .expect(200);
      expect(res.body.products[0]).toMatchObject({ notifyOnSale: true, notifyOnStock: true });
    });
  });

  describe('Catalogue and reviews', () => {
    it('GET /products with page, limit, search, minPrice, maxPrice answers products, totalPages, totalProducts', async () => {
      const id = await newProduct({ name: 'Spec Catalogue Rosewater', price: 450 });
      const res = await request(t.http)
        .get('/api/products')
        .query({ page: 1, limit: 20, search: 'rosewater', minPrice: 100, maxPrice: 500 })
        .expect(200);
      expect(res.body).toMatchObject({ totalPages: 1, totalProducts: 1 });
      expect(res.body.products).toEqual([expect.objectContaining({ _id: id, price: 450 })]);
      expectAbsolute(res.body.products[0].images[0]);
    });

    it('GET /products/{id} answers the product itself, its images absolute', async () => {
      const id = await newProduct({ name: 'Spec Detail Serum' });
      const res = await request(t.http).get(`/api/products/${id}`).expect(200);
      expect(res.body).toMatchObject({ _id: id, name: 'Spec Detail Serum', price: 120, stock: 30 });
      expect(res.body.images).toEqual([`${origin}/api/assets/products/x.svg`]);
    });

    it('POST /products takes the product form (stock as countInStock, one image as a list)', async () => {
      const res = await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({
          name: 'Spec Form Oil',
          price: 89.5,
          countInStock: 7,
          images: ['https://cdn.example.et/oil.png'],
        })
        .expect(201);
      expect(res.body).toMatchObject({
        success: true,
        product: { name: 'Spec Form Oil', price: 89.5, stock: 7 },
      });
      expect(res.body.product.images).toEqual(['https://cdn.example.et/oil.png']);
    });

    it('PUT /products/{id} takes the product body; an image sent back absolute is stored relative', async () => {
      const id = await newProduct();
      const read = await request(t.http).get(`/api/products/${id}`).expect(200);
      const res = await request(t.http)
        .put(`/api/products/${id}`)
        .set(auth(admin))
        .send({ name: read.body.name, price: 130, countInStock: 12, images: read.body.images })
        .expect(200);
      expect(res.body).toMatchObject({ success: true, product: { price: 130, stock: 12 } });
      expect(res.body.product.images).toEqual([`${origin}/api/assets/products/x.svg`]);
      const { getModelToken } = await import('@nestjs/mongoose');
      const stored = await t.app.get(getModelToken('Product')).findById(id).lean();
      expect(stored.images).toEqual(['/api/assets/products/x.svg']);
    });

    it('DELETE /products/{id} withdraws the product', async () => {
      const id = await newProduct();
      const res = await request(t.http).delete(`/api/products/${id}`).set(auth(admin)).expect(200);
      expect(res.body.success).toBe(true);
      await request(t.http).get(`/api/products/${id}`).expect(404);
    });

    it('POST /reviews/product/{id}, GET /reviews/product/{id}, PATCH and DELETE /reviews/{id}', async () => {
      const customer = await newCustomer();
      const id = await newProduct();
      const created = await request(t.http)
        .post(`/api/reviews/product/${id}`)
        .set(auth(customer.token))
        .send({ rating: 5, comment: 'Gentle on my skin' })
        .expect(201);
      expect(created.body.success).toBe(true);
      const list = await request(t.http).get(`/api/reviews/product/${id}`).expect(200);
      expect(list.body.success).toBe(true);
      const reviewId = list.body.reviews[0]._id as string;
      expect(list.body.reviews[0]).toMatchObject({ rating: 5, comment: 'Gentle on my skin' });
      const patched = await request(t.http)
        .patch(`/api/reviews/${reviewId}`)
        .set(auth(customer.token))
        .send({ rating: 4, comment: 'Still gentle' })
        .expect(200);
      expect(patched.body.success).toBe(true);
      const removed = await request(t.http)
        .delete(`/api/reviews/${reviewId}`)
        .set(auth(customer.token))
        .expect(200);
      expect(removed.body.success).toBe(true);
    });

    it('GET /reviews/recent with an optional limit answers reviews', async () => {
      const customer = await newCustomer();
      const id = await newProduct();
      await request(t.http)
        .post(`/api/reviews/product/${id}`)
        .set(auth(customer.token))
        .send({ rating: 5, comment: 'Lovely scent' })
        .expect(201);
      const res = await request(t.http).get('/api/reviews/recent').query({ limit: 3 }).expect(200);
      expect(res.body.reviews.length).toBeGreaterThan(0);
      expect(res.body.reviews.length).toBeLessThanOrEqual(3);
      expect(res.body.reviews[0]).toMatchObject({
        rating: expect.any(Number),
        user: { name: expect.any(String) },
      });
    });
  });

  describe('Orders', () => {
    it.each(PREFIXES)(
      'POST %s/orders takes the checkout payload (paymentMethod none, no phone) and answers order._id',
      async (prefix) => {
        const customer = await newCustomer();
        await fill(customer.token, await newProduct());
        const res = await request(t.http)
          .post(`${prefix}/orders`)
          .set(auth(customer.token))
          .send(checkout)
          .expect(201);
        expect(res.body.order._id).toMatch(ID);
        expect(res.body.order).toMatchObject({ paymentMethod: 'chapa', paymentStatus: 'unpaid' });
      },
    );

    it('POST /orders without a payment method places the order too (chapa, unpaid)', async () => {
      const customer = await newCustomer();
      await fill(customer.token, await newProduct());
      const res = await request(t.http)
        .post('/api/orders')
        .set(auth(customer.token))
        .send({ shippingAddress: checkout.shippingAddress })
        .expect(201);
      expect(res.body.order).toMatchObject({ paymentMethod: 'chapa', paymentStatus: 'unpaid' });
    });

    it.each(PREFIXES)('GET %s/orders/my-orders lists the orders', async (prefix) => {
      const customer = await newCustomer();
      const id = await placeOrder(customer.token);
      const res = await request(t.http)
        .get(`${prefix}/orders/my-orders`)
        .set(auth(customer.token))
        .expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.orders.map((o: { _id: string }) => o._id)).toEqual([id]);
    });

    it.each(PREFIXES)(
      'GET %s/orders/{id} answers the order itself, each line with the product as bought',
      async (prefix) => {
        const customer = await newCustomer();
        const product = await newProduct({ name: 'Spec Bought Balm', nameAm: 'የተገዛ ቅባት', price: 75 });
        await fill(customer.token, product, 2);
        const placed = await request(t.http)
          .post('/api/orders')
          .set(auth(customer.token))
          .send(checkout)
          .expect(201);
        // the product changes after purchase: the order keeps what was bought
        await request(t.http)
          .put(`/api/products/${product}`)
          .set(auth(admin))
          .send({ name: 'Renamed Balm', price: 99, countInStock: 5 })
          .expect(200);
        const res = await request(t.http)
          .get(`${prefix}/orders/${placed.body.order._id}`)
          .set(auth(customer.token))
          .expect(200);
        const order = res.body;
        expect(order).not.toHaveProperty('success');
        expect(order._id).toBe(placed.body.order._id);
        expect(order.shippingAddress.street).toBe('Bole Road, House 12');
        expect(order.totalAmount).toBe(placed.body.order.totalAmount);
        expect(order.orderItems[0]).toMatchObject({
          name: 'Spec Bought Balm',
          priceAtPurchase: 75,
          quantity: 2,
          product: { _id: product, name: 'Spec Bought Balm', nameAm: 'የተገዛ ቅባት', price: 75 },
        });
        expect(order.orderItems[0].product.images).toEqual([`${origin}/api/assets/products/x.svg`]);
      },
    );

    it.each(PREFIXES)('PATCH %s/orders/{id}/cancel cancels a pending order', async (prefix) => {
      const customer = await newCustomer();
      const id = await placeOrder(customer.token);
      const res = await request(t.http)
        .patch(`${prefix}/orders/${id}/cancel`)
        .set(auth(customer.token))
        .expect(200);
      expect(res.body).toMatchObject({ success: true, order: { status: 'cancelled' } });
    });

    it.each(PREFIXES)('PATCH %s/orders/{id}/status takes status and trackingNumber', async (prefix) => {
      const customer = await newCustomer();
      const id = await placeOrder(customer.token);
      await pay(customer.token, id);
      await request(t.http)
        .patch(`${prefix}/orders/${id}/status`)
        .set(auth(admin))
        .send({ status: 'processing' })
        .expect(200);
      const res = await request(t.http)
        .patch(`${prefix}/orders/${id}/status`)
        .set(auth(admin))
        .send({ status: 'shipped', trackingNumber: 'ET123456789' })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        order: { status: 'shipped', trackingNumber: 'ET123456789' },
      });
    });
  });

  describe('Contacts', () => {
    let ip = 0;
    const submit = (prefix: string) =>
      request(t.http).post(`${prefix}/contacts/submit`).set('X-Forwarded-For', `203.0.113.${++ip}`).send({
        name: 'Hana Tesfaye',
        email: 'hana@example.et',
        subject: 'Shea butter',
        message: 'Dry skin?',
      });

    it.each(PREFIXES)('POST %s/contacts/submit answers success, message', async (prefix) => {
      const res = await submit(prefix).expect(201);
      expect(res.body).toMatchObject({ success: true, message: expect.any(String) });
    });

    it.each(PREFIXES)('GET %s/contacts answers success, contacts, and one contact by id', async (prefix) => {
      await submit(prefix).expect(201);
      const res = await request(t.http).get(`${prefix}/contacts`).set(auth(admin)).expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.contacts[0]).toMatchObject({ _id: expect.stringMatching(ID), subject: 'Shea butter' });
      const one = await request(t.http)
        .get(`${prefix}/contacts/${res.body.contacts[0]._id}`)
        .set(auth(admin))
        .expect(200);
      expect(one.body.success).toBe(true);
    });

    it.each(PREFIXES)(
      'PATCH %s/contacts/{id}/status and DELETE of the contact answer success',
      async (prefix) => {
        await submit(prefix).expect(201);
        const list = await request(t.http).get(`${prefix}/contacts`).set(auth(admin)).expect(200);
        const id = list.body.contacts[0]._id as string;
        const status = await request(t.http)
          .patch(`${prefix}/contacts/${id}/status`)
          .set(auth(admin))
          .send({ status: 'read' })
          .expect(200);
        expect(status.body.success).toBe(true);
        const removed = await request(t.http).delete(`${prefix}/contacts/${id}`).set(auth(admin)).expect(200);
        expect(removed.body.success).toBe(true);
      },
    );
  });

  describe('Admin', () => {
    it('GET /admin/dashboard/stats answers the stats fields, lowStockProducts and recentOrders[].user', async () => {
      const customer = await newCustomer();
      await placeOrder(customer.token);
      await newProduct({ name: 'Spec Nearly Gone', countInStock: 2, stock: 2 });
      const res = await request(t.http).get('/api/admin/dashboard/stats').set(auth(admin)).expect(200);
      const stats = res.body;
      for (const field of ['totalOrders', 'totalRevenue', 'itemsSold', 'totalUsers', 'totalProducts'])
        expect(typeof stats[field]).toBe('number');
      expect(stats.salesData[0]).toEqual(
        expect.objectContaining({ _id: expect.any(String), totalSales: expect.any(Number) }),
      );
      expect(stats.lowStockProducts).toEqual(stats.lowStockItems);
      expect(stats.lowStockProducts.map((p: { name: string }) => p.name)).toContain('Spec Nearly Gone');
      expect(stats.recentOrders[0].user).toEqual({
        _id: customer.id,
        name: customer.name,
        email: customer.email,
      });
    });

    it('GET /admin/orders with the spec query answers { orders } with user name and email', async () => {
      const customer = await newCustomer();
      const id = await placeOrder(customer.token);
      const res = await request(t.http)
        .get('/api/admin/orders')
        .query({ search: customer.email, status: 'pending', page: 1, limit: 10 })
        .set(auth(admin))
        .expect(200);
      expect(res.body).toMatchObject({ success: true, total: 1, page: 1, pages: 1 });
      expect(res.body.orders).toEqual([
        expect.objectContaining({
          _id: id,
          user: { _id: customer.id, name: customer.name, email: customer.email },
        }),
      ]);
      const none = await request(t.http).get('/api/admin/orders').set(auth(admin)).expect(200);
      expect(Array.isArray(none.body.orders)).toBe(true);
      expect(none.body.total).toBeGreaterThan(0);
    });

    it('PUT /admin/orders/{id}/status takes status', async () => {
      const customer = await newCustomer();
      const id = await placeOrder(customer.token);
      await pay(customer.token, id);
      const res = await request(t.http)
        .put(`/api/admin/orders/${id}/status`)
        .set(auth(admin))
        .send({ status: 'processing' })
        .expect(200);
      expect(res.body).toMatchObject({ success: true, order: { status: 'processing' } });
    });

    it('GET /admin/products with search and status answers { products }', async () => {
      const id = await newProduct({ name: 'Spec Admin Lookup Cream' });
      const res = await request(t.http)
        .get('/api/admin/products')
        .query({ search: 'admin lookup', status: 'active' })
        .set(auth(admin))
        .expect(200);
      expect(res.body).toMatchObject({ success: true, total: 1, page: 1, pages: 1 });
      expect(res.body.products).toEqual([expect.objectContaining({ _id: id })]);
      expectAbsolute(res.body.products[0].images[0]);
    });

    it('GET /admin/users answers { users }', async () => {
      const customer = await newCustomer();
      const res = await request(t.http)
        .get('/api/admin/users')
        .query({ search: customer.email })
        .set(auth(admin))
        .expect(200);
      expect(res.body).toMatchObject({ success: true, total: 1 });
      expect(res.body.users).toEqual([expect.objectContaining({ _id: customer.id, email: customer.email })]);
    });

    it('PUT /admin/users/{id}/role takes role; PUT /admin/users/{id}/active takes isActive', async () => {
      const customer = await newCustomer();
      const role = await request(t.http)
        .put(`/api/admin/users/${customer.id}/role`)
        .set(auth(admin))
        .send({ role: 'admin' })
        .expect(200);
      expect(role.body).toMatchObject({ success: true, user: { role: 'admin' } });
      const active = await request(t.http)
        .put(`/api/admin/users/${customer.id}/active`)
        .set(auth(admin))
        .send({ isActive: false })
        .expect(200);
      expect(active.body).toMatchObject({ success: true, user: { isActive: false } });
    });

    it('PUT /admin/users/{id} edits name, email, role and active', async () => {
      const customer = await newCustomer();
      const res = await request(t.http)
        .put(`/api/admin/users/${customer.id}`)
        .set(auth(admin))
        .send({ name: 'Edited Name', email: 'edited.spec@example.et', role: 'customer', isActive: true })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        user: { _id: customer.id, name: 'Edited Name', email: 'edited.spec@example.et' },
      });
    });

    it('DELETE /admin/users/{id} deletes the user', async () => {
      const customer = await newCustomer();
      const res = await request(t.http)
        .delete(`/api/admin/users/${customer.id}`)
        .set(auth(admin))
        .expect(200);
      expect(res.body.success).toBe(true);
      await request(t.http).get('/api/auth/me').set(auth(customer.token)).expect(401);
    });

    it('GET /admin/settings answers settings; PUT /admin/settings takes the full settings object', async () => {
      const read = await request(t.http).get('/api/admin/settings').set(auth(admin)).expect(200);
      expect(read.body.settings).toMatchObject({ currency: 'ETB', timezone: expect.any(String) });
      const full = {
        siteName: 'Spec Beauty',
        siteDescription: 'Natural beauty',
        adminEmail: 'admin@beauty.et',
        currency: 'ETB',
        language: 'am',
        timezone: 'Africa/Addis_Ababa',
        emailNotifications: true,
        orderNotifications: true,
        lowStockAlerts: false,
        maintenanceMode: false,
      };
      await request(t.http).put('/api/admin/settings').set(auth(admin)).send(full).expect(200);
      const after = await request(t.http).get('/api/admin/settings').set(auth(admin)).expect(200);
      expect(after.body.settings).toMatchObject(full);
    });
  });
});
