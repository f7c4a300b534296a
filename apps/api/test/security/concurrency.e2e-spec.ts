import request from 'supertest';
import { ADDRESS, startSecurityShop, type SecurityShop } from './support';

/**
 * Every route that changes an array inside a document, fired in parallel: each acknowledged write
 * is still there afterwards, and the limits (20 addresses, one default, the stock) hold.
 */
describe('concurrent array writes (issue 16)', () => {
  let shop: SecurityShop;
  beforeAll(async () => {
    shop = await startSecurityShop();
  });
  afterAll(() => shop.close());

  const parallel = <T>(n: number, make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => make(i)));

  type StoredAddress = { id: number; street: string; city: string; isDefault: boolean };
  const addressesOf = async (id: string) =>
    ((await shop.model('User').findById(id).lean()) as unknown as { addresses: StoredAddress[] }).addresses;

  it('keeps every acknowledged address of 25 parallel adds, and never more than 20', async () => {
    const customer = await shop.customer();
    const answers = await parallel(25, (i) =>
      request(shop.t.http)
        .post('/api/users/addresses')
        .set(shop.auth(customer.token))
        .send({ ...ADDRESS, street: `Street ${i}` }),
    );
    const accepted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(accepted).toHaveLength(20);
    for (const r of refused) expect([r.status, r.body.code]).toEqual([400, 'ADDRESS_LIMIT']);
    const stored = await addressesOf(customer.id);
    expect(stored).toHaveLength(20);
    expect(new Set(stored.map((a) => a.id)).size).toBe(20);
    expect(stored.map((a) => a.street).sort()).toEqual(accepted.map((r) => r.body.address.street).sort());
    expect(stored.filter((a) => a.isDefault)).toHaveLength(1);
  });

  it('keeps every field of parallel updates of different addresses and of one address', async () => {
    const customer = await shop.customer();
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await request(shop.t.http)
        .post('/api/users/addresses')
        .set(shop.auth(customer.token))
        .send({ ...ADDRESS, street: `Old ${i}` })
        .expect(201);
      ids.push(res.body.address.id);
    }
    const answers = await Promise.all([
      ...ids.map((id) =>
        request(shop.t.http)
          .put(`/api/users/addresses/${id}`)
          .set(shop.auth(customer.token))
          .send({ street: `New ${id}` }),
      ),
      // a second field of the first address, at the same time
      request(shop.t.http)
        .put(`/api/users/addresses/${ids[0]}`)
        .set(shop.auth(customer.token))
        .send({ city: 'Adama' }),
    ]);
    for (const r of answers) expect(r.status).toBe(200);
    const stored = await addressesOf(customer.id);
    expect(stored.map((a) => a.street)).toEqual(ids.map((id) => `New ${id}`));
    expect(stored[0].city).toBe('Adama');
  });

  it('leaves exactly one default when several addresses are made default at once, and adds survive deletes', async () => {
    const customer = await shop.customer();
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await request(shop.t.http)
        .post('/api/users/addresses')
        .set(shop.auth(customer.token))
        .send({ ...ADDRESS, street: `S ${i}` })
        .expect(201);
      ids.push(res.body.address.id);
    }
    const answers = await Promise.all([
      ...ids
        .slice(0, 4)
        .map((id) =>
          request(shop.t.http)
            .put(`/api/users/addresses/${id}`)
            .set(shop.auth(customer.token))
            .send({ isDefault: true }),
        ),
      ...ids
        .slice(4)
        .map((id) =>
          request(shop.t.http).delete(`/api/users/addresses/${id}`).set(shop.auth(customer.token)),
        ),
      ...[0, 1, 2].map((i) =>
        request(shop.t.http)
          .post('/api/users/addresses')
          .set(shop.auth(customer.token))
          .send({ ...ADDRESS, street: `Added ${i}`, isDefault: i === 0 }),
      ),
    ]);
    for (const r of answers) expect(r.status).toBeLessThan(300);
    const stored = await addressesOf(customer.id);
    expect(stored.map((a) => a.street).sort()).toEqual([
      'Added 0',
      'Added 1',
      'Added 2',
      'S 0',
      'S 1',
      'S 2',
      'S 3',
    ]);
    expect(stored.filter((a) => a.isDefault)).toHaveLength(1);
  });

  it('accepts every parallel add of one product when the stock allows them all (no false 409)', async () => {
    for (let round = 0; round < 3; round++) {
      const customer = await shop.customer();
      const product = await shop.product({ stock: 50 });
      const answers = await parallel(12, () =>
        request(shop.t.http)
          .post('/api/cart/add')
          .set(shop.auth(customer.token))
          .send({ productId: product, quantity: 2 }),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
      const cart = (await shop.model('Cart').findOne({ user: customer.id }).lean()) as unknown as {
        items: { quantity: number }[];
      };
      expect(cart.items).toEqual([expect.objectContaining({ quantity: 24 })]);
    }
  });

  it('accepts parallel adds of one product while the stock allows them, and refuses the rest', async () => {
    const customer = await shop.customer();
    const product = await shop.product({ stock: 5 });
    const answers = await parallel(8, () =>
      request(shop.t.http)
        .post('/api/cart/add')
        .set(shop.auth(customer.token))
        .send({ productId: product, quantity: 1 }),
    );
    const accepted = answers.filter((r) => r.status === 200 || r.status === 201);
    expect(accepted).toHaveLength(5);
    for (const r of answers.filter((a) => !accepted.includes(a))) expect(r.status).toBe(409);
    const cart = (await shop.model('Cart').findOne({ user: customer.id }).lean()) as unknown as {
      items: { quantity: number }[];
    };
    expect(cart.items).toEqual([expect.objectContaining({ quantity: 5 })]);
  });

  it('keeps every line of parallel cart adds of different products and parallel wishlist adds', async () => {
    const customer = await shop.customer();
    const products = await Promise.all(Array.from({ length: 6 }, () => shop.product({ stock: 9 })));
    const answers = await Promise.all([
      ...products.map((productId) =>
        request(shop.t.http)
          .post('/api/cart/add')
          .set(shop.auth(customer.token))
          .send({ productId, quantity: 2 }),
      ),
      ...products.map((productId) =>
        request(shop.t.http).post(`/api/wishlist/add/${productId}`).set(shop.auth(customer.token)).send({}),
      ),
    ]);
    for (const r of answers) expect(r.status).toBeLessThan(300);
    const cart = (await shop.model('Cart').findOne({ user: customer.id }).lean()) as unknown as {
      items: { product: unknown; quantity: number }[];
    };
    expect(cart.items.map((i) => String(i.product)).sort()).toEqual([...products].sort());
    expect(cart.items.every((i) => i.quantity === 2)).toBe(true);
    const wishlist = (await shop.model('Wishlist').findOne({ user: customer.id }).lean()) as unknown as {
      items: { product: unknown }[];
    };
    expect(wishlist.items.map((i) => String(i.product)).sort()).toEqual([...products].sort());
    // parallel quantity changes and removals of different lines: each one lands
    const changes = await Promise.all(
      products.map((productId, i) =>
        i % 2
          ? request(shop.t.http)
              .patch(`/api/cart/update/${productId}`)
              .set(shop.auth(customer.token))
              .send({ quantity: 7 })
          : request(shop.t.http).delete(`/api/cart/remove/${productId}`).set(shop.auth(customer.token)),
      ),
    );
    for (const r of changes) expect(r.status).toBe(200);
    const after = (await shop.model('Cart').findOne({ user: customer.id }).lean()) as unknown as {
      items: { product: unknown; quantity: number }[];
    };
    expect(after.items.map((i) => [String(i.product), i.quantity]).sort()).toEqual(
      products
        .filter((_, i) => i % 2)
        .map((p) => [p, 7])
        .sort(),
    );
  });
});
