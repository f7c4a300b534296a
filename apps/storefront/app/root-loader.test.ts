import { afterEach, describe, expect, it, vi } from 'vitest';
import { loader } from './root';
import { TEMPLATE_KEY } from './personal-slots';
import { PAGE_TEMPLATE } from './shopper-fields.server';

/**
 * Every page's root loader asks the API about the shopper once (GET /api/auth/session,
 * docs/decisions/0105-shopper-summary.md), not three times (auth/me, cart, wishlist), and not at all for a
 * visitor with no session and no cart.
 */
describe('the root loader: the header in one personal call', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const user = { _id: 'u1', name: 'Hanna', email: 'h@example.et', role: 'customer' };
  const answer = (session: [number, unknown]) => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (input: Request) => {
      const path = new URL(input.url).pathname;
      seen.push(path);
      const [status, body] =
        path === '/api/auth/session'
          ? session
          : path === '/api/settings/public'
            ? [200, { success: true, settings: {} }]
            : [404, { message: 'Not found' }];
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
    return seen;
  };
  const load = async (cookie?: string) => {
    const request = new Request(
      `http://shop.test/${Math.random().toString(36).slice(2)}`,
      cookie ? { headers: { Cookie: cookie } } : undefined,
    );
    const res = (await loader({ request, params: {}, context: {} })) as Response;
    return (await res.json()) as Record<string, unknown>;
  };
  const personal = (seen: string[]) => seen.filter((p) => p !== '/api/settings/public');

  it('a signed-in shopper: one call gives the user, the counts, the badges and the hearts', async () => {
    const seen = answer([
      200,
      {
        user,
        cart: {
          itemCount: 5,
          lines: [
            { productId: 'p1', quantity: 2 },
            { productId: 'p2', variantId: 'v1', quantity: 3 },
          ],
        },
        wishlist: { productIds: ['p2'] },
      },
    ]);
    const data = await load('token=abc');
    expect(personal(seen)).toEqual(['/api/auth/session']);
    expect(data).toMatchObject({
      user,
      cartCount: 5,
      wishlistCount: 1,
      cartQuantities: { p1: 2, p2: 3 },
      wishlistIds: ['p2'],
    });
  });

  it('a guest with a cart: one call; a visitor with nothing: none', async () => {
    const seen = answer([
      200,
      {
        user: null,
        cart: { itemCount: 1, lines: [{ productId: 'p1', quantity: 1 }] },
        wishlist: { productIds: [] },
      },
    ]);
    expect(await load(`cart_id=${'cd'.repeat(16)}`)).toMatchObject({
      user: null,
      cartCount: 1,
      wishlistCount: 0,
    });
    expect(personal(seen)).toEqual(['/api/auth/session']);
    expect(await load()).toMatchObject({ user: null, cartCount: 0, wishlistCount: 0, cartQuantities: {} });
    expect(personal(seen)).toEqual(['/api/auth/session']);
  });

  it('an invalid token: signed out with empty counts, the page still renders', async () => {
    answer([
      401,
      { success: false, statusCode: 401, message: 'Invalid or expired token', code: 'INVALID_TOKEN' },
    ]);
    expect(await load('token=old')).toMatchObject({
      user: null,
      cartCount: 0,
      wishlistCount: 0,
      cartQuantities: {},
      wishlistIds: [],
      maintenance: false,
    });
  });

  it('the template of a kept page: no shopper asked, a token where their fields go (docs/decisions/0107)', async () => {
    const seen = answer([200, { user, cart: { itemCount: 1, lines: [] }, wishlist: { productIds: [] } }]);
    const request = new Request('http://shop.test/products', { headers: { Cookie: 'token=abc' } });
    const asTemplate = (await loader({
      request,
      params: {},
      context: { [PAGE_TEMPLATE]: true },
    })) as Response;
    const data = (await asTemplate.json()) as Record<string, unknown>;
    expect(personal(seen)).toEqual([]);
    expect(data[TEMPLATE_KEY]).toBe(1);
    for (const field of ['backPath', 'user', 'cartCount', 'wishlistCount', 'cartQuantities', 'wishlistIds'])
      expect(data, field).not.toHaveProperty(field);
    // in the order the shopper's fields have (personal-page.server.ts writes them there)
    expect(Object.keys(data).slice(3, 6)).toEqual(['langCookie', TEMPLATE_KEY, 'publicSettings']);
    // a context that only looks like it (a string key, not the page cache's symbol) is a shopper's request
    const lookalike = (await loader({
      request,
      params: {},
      context: { 'shop.pageTemplate': true },
    })) as Response;
    expect(((await lookalike.json()) as Record<string, unknown>).user).toEqual(user);
    expect(personal(seen)).toEqual(['/api/auth/session']);
  });
});
