import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSessionUser, shopperSummary } from './session.server';

describe('getSessionUser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const user = { _id: 'u1', name: 'Abebe', email: 'a@b.et', role: 'customer' };
  const stub = (status: number, body: unknown) => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (input: Request) => {
      seen.push(`${input.method} ${new URL(input.url).pathname} ${input.headers.get('Authorization')}`);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
    return seen;
  };

  it('asks the API who the token belongs to', async () => {
    const seen = stub(200, { success: true, user });
    await expect(
      getSessionUser(new Request('http://shop.test/', { headers: { Cookie: 'language=am; token=abc' } })),
    ).resolves.toEqual(user);
    expect(seen).toEqual(['GET /api/auth/me Bearer abc']);
  });

  it('is a guest without a token, with an expired one, or when the API is down', async () => {
    const seen = stub(401, { success: false, statusCode: 401, message: 'Unauthorized' });
    await expect(getSessionUser(new Request('http://shop.test/'))).resolves.toBeNull();
    expect(seen).toEqual([]);
    await expect(
      getSessionUser(new Request('http://shop.test/', { headers: { Cookie: 'token=old' } })),
    ).resolves.toBeNull();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    await expect(
      getSessionUser(new Request('http://shop.test/', { headers: { Cookie: 'token=abc' } })),
    ).resolves.toBeNull();
  });
});

describe("shopperSummary (the header's one call)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const user = { _id: 'u1', name: 'Abebe', email: 'a@b.et', role: 'customer' };
  const empty = { user: null, cartCount: 0, wishlistCount: 0, cartQuantities: {}, wishlistIds: [] };
  const stub = (status: number, body: unknown) => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (input: Request) => {
      seen.push(
        `${input.method} ${new URL(input.url).pathname} ${input.headers.get('Authorization')} ${input.headers.get('X-Cart-Id')}`,
      );
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
    return seen;
  };
  const at = (cookie?: string) =>
    new Request('http://shop.test/', cookie ? { headers: { Cookie: cookie } } : undefined);
  const cartId = 'ab'.repeat(16);

  it("asks GET /api/auth/session once with the token, and adds up a product's lines for its badge", async () => {
    const seen = stub(200, {
      user,
      cart: {
        itemCount: 6,
        lines: [
          { productId: 'p1', quantity: 2 },
          { productId: 'p2', variantId: 'v50', quantity: 1 },
          { productId: 'p2', variantId: 'v100', quantity: 3 },
        ],
      },
      wishlist: { productIds: ['p3', 'p1'] },
    });
    await expect(shopperSummary(at(`language=am; token=abc; cart_id=${cartId}`))).resolves.toEqual({
      user,
      cartCount: 6,
      wishlistCount: 2,
      cartQuantities: { p1: 2, p2: 4 },
      wishlistIds: ['p3', 'p1'],
    });
    // with a token the guest cart id is not sent (the account's cart is the one)
    expect(seen).toEqual(['GET /api/auth/session Bearer abc null']);
  });

  it("asks for a guest's cart by its id, and makes no call for a visitor with neither", async () => {
    const seen = stub(200, {
      user: null,
      cart: { itemCount: 1, lines: [{ productId: 'p1', quantity: 1 }] },
      wishlist: { productIds: [] },
    });
    await expect(shopperSummary(at(`cart_id=${cartId}`))).resolves.toEqual({
      user: null,
      cartCount: 1,
      wishlistCount: 0,
      cartQuantities: { p1: 1 },
      wishlistIds: [],
    });
    expect(seen).toEqual([`GET /api/auth/session null ${cartId}`]);
    await expect(shopperSummary(at('language=en'))).resolves.toEqual(empty);
    await expect(shopperSummary(at())).resolves.toEqual(empty);
    expect(seen).toHaveLength(1);
  });

  it('is a signed-out shopper with nothing in the cart for an invalid token, an API error or an API away', async () => {
    stub(401, {
      success: false,
      statusCode: 401,
      message: 'Invalid or expired token',
      code: 'INVALID_TOKEN',
    });
    await expect(shopperSummary(at(`token=old; cart_id=${cartId}`))).resolves.toEqual(empty);
    stub(500, { success: false, statusCode: 500, message: 'Internal server error' });
    await expect(shopperSummary(at('token=abc'))).resolves.toEqual(empty);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    await expect(shopperSummary(at('token=abc'))).resolves.toEqual(empty);
  });

  it('asks an API older than GET /api/auth/session (404) the three calls it has, with the same answer', async () => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (input: Request) => {
      const path = new URL(input.url).pathname;
      seen.push(`${path} ${input.headers.get('Authorization')} ${input.headers.get('X-Cart-Id')}`);
      const answers: Record<string, [number, unknown]> = {
        '/api/auth/session': [
          404,
          { success: false, statusCode: 404, code: 'NOT_FOUND', message: 'Cannot GET' },
        ],
        '/api/auth/me': [200, { success: true, user }],
        '/api/cart': [
          200,
          {
            success: true,
            itemCount: 3,
            products: [
              { product: { _id: 'p1' }, quantity: 2 },
              { product: { _id: 'p1' }, variantId: 'v2', quantity: 1 },
            ],
          },
        ],
        '/api/wishlist': [200, { success: true, products: [{ product: { _id: 'p9' } }, { product: null }] }],
      };
      const [status, body] = answers[path];
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
    await expect(shopperSummary(at('token=abc'))).resolves.toEqual({
      user,
      cartCount: 3,
      wishlistCount: 1,
      cartQuantities: { p1: 3 },
      wishlistIds: ['p9'],
    });
    expect(seen.sort()).toEqual([
      '/api/auth/me Bearer abc null',
      '/api/auth/session Bearer abc null',
      '/api/cart Bearer abc null',
      '/api/wishlist Bearer abc null',
    ]);
    // a guest with a cart: no account, no wishlist
    seen.length = 0;
    await expect(shopperSummary(at(`cart_id=${cartId}`))).resolves.toEqual({
      user: null,
      cartCount: 3,
      wishlistCount: 0,
      cartQuantities: { p1: 3 },
      wishlistIds: [],
    });
    expect(seen.sort()).toEqual([`/api/auth/session null ${cartId}`, `/api/cart null ${cartId}`]);
  });
});
