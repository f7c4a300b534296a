import { afterEach, describe, expect, it, vi } from 'vitest';
import { fillTemplate, personalPage } from './personal-page.server';
import { MARK, TEMPLATE_KEY, TOKEN } from './personal-slots';
import type { ShopperFields } from './shopper-fields.server';

/**
 * Writing a shopper into the template of a kept page (docs/decisions/0107-personal-pages-from-the-kept-page.md).
 * The whole pages are compared with React's own render in e2e/shop-personal-pages.e2e.ts; here, the
 * rules of the writing itself: which form, which values, escaped as React and Remix escape them, and a
 * template that is not one refused (the page is then rendered for the request).
 */
const region = (name: string, ...forms: string[]) =>
  MARK.open + name + MARK.nameEnd + forms.join(MARK.next) + MARK.close;
const root = `<script>window.__remixContext = {"root":{"lang":"en",${JSON.stringify(TEMPLATE_KEY)}:1,"year":"2026"}};</script>`;

const nobody: ShopperFields = {
  backPath: null,
  user: null,
  cartCount: 0,
  wishlistCount: 0,
  cartQuantities: {},
  wishlistIds: [],
};
const hanna = {
  _id: 'u1',
  id: 'u1',
  name: `Hanna <b>& "H" 'K'`,
  email: 'h@example.et',
  role: 'customer',
} as unknown as NonNullable<ShopperFields['user']>;

describe('fillTemplate', () => {
  it("picks each region's form for the shopper and writes its values, escaped as React writes them", () => {
    const template =
      `<a aria-label="${region('cart-label', `Cart, ${TOKEN.count} items`)}">` +
      region('cart-badge', '<!-- -->', `<span class="count">${TOKEN.count}</span>`) +
      '</a>' +
      region(
        'user',
        '<div class="guest-links">Sign in</div>',
        `<details aria-label="Account menu for ${TOKEN.name}"><span>${TOKEN.initial}</span>${TOKEN.name}</details>`,
        `<details>admin ${TOKEN.name}</details>`,
      ) +
      region('in-cart:p1', '<!-- -->', `<span class="in-cart">${TOKEN.count} in cart</span>`) +
      region('in-cart:p2', '<!-- -->', `<span class="in-cart">${TOKEN.count} in cart</span>`) +
      region('heart:p1', 'guest-off', 'guest-on', 'account-off', 'account-on') +
      region('heart:p2', 'guest-off', 'guest-on', 'account-off', 'account-on') +
      root;
    const page = fillTemplate(template, {
      ...nobody,
      user: hanna,
      cartCount: 120,
      cartQuantities: { p2: 3 },
      wishlistIds: ['p1'],
      wishlistCount: 1,
      backPath: '/about?x=<y>&z',
    });
    const name = 'Hanna &lt;b&gt;&amp; &quot;H&quot; &#x27;K&#x27;';
    expect(page).toBe(
      '<a aria-label="Cart, 120 items"><span class="count">99+</span></a>' +
        `<details aria-label="Account menu for ${name}"><span>H</span>${name}</details>` +
        '<span class="in-cart">3 in cart</span>' +
        'account-onaccount-off' +
        '<script>window.__remixContext = {"root":{"lang":"en","backPath":"/about?x=\\u003cy\\u003e\\u0026z",' +
        `"user":{"_id":"u1","id":"u1","name":"Hanna \\u003cb\\u003e\\u0026 \\"H\\" 'K'","email":"h@example.et","role":"customer"},` +
        '"cartCount":120,"wishlistCount":1,"cartQuantities":{"p2":3},"wishlistIds":["p1"],"year":"2026"}};</script>',
    );
  });

  it('gives a guest the guest forms and an admin the admin menu', () => {
    const template =
      region('user', 'guest', `customer ${TOKEN.name}`, `admin ${TOKEN.name}`) +
      region('heart:p1', 'guest-off', 'guest-on', 'account-off', 'account-on') +
      region('wishlist-badge', '', `<b>${TOKEN.count}</b>`) +
      root;
    expect(fillTemplate(template, { ...nobody, wishlistIds: ['p1'] })).toMatch(/^guestguest-on<script>/);
    const admin = { ...hanna, name: '', phone: '+251911000000', role: 'admin' } as typeof hanna;
    expect(fillTemplate(template, { ...nobody, user: admin, wishlistCount: 2 })).toMatch(
      /^admin \+251911000000account-off<b>2<\/b><script>/,
    );
  });

  it("gives a guest the sign-in link, a reviewer their own review's edit form, anyone else the new review's form", () => {
    const template =
      region('review:u9,u1,u1', 'sign-in', 'new', 'edit u9', 'edit u1', 'edit u1 again') + root;
    expect(fillTemplate(template, nobody)).toMatch(/^sign-in<script>/);
    expect(fillTemplate(template, { ...nobody, user: hanna })).toMatch(/^edit u1<script>/);
    const other = { ...hanna, _id: 'u2' } as typeof hanna;
    expect(fillTemplate(template, { ...nobody, user: other })).toMatch(/^new<script>/);
    // a product without reviews: the guest's and the new review's forms only
    expect(fillTemplate(region('review:', 'sign-in', 'new') + root, { ...nobody, user: hanna })).toMatch(
      /^new<script>/,
    );
  });

  it("drops the separators React put between a marker and a text (the shopper's page has no marker there)", () => {
    const template = `<p>Hello<!-- -->${region('in-cart:p1', '<!-- -->', '<i>x</i>')}<!-- -->world</p>${root}`;
    expect(fillTemplate(template, nobody)).toMatch(/^<p>Helloworld<\/p>/);
    expect(fillTemplate(template, { ...nobody, cartQuantities: { p1: 1 } })).toMatch(
      /^<p>Hello<i>x<\/i>world<\/p>/,
    );
  });

  it('refuses a template that is not one: unknown region, unclosed, a form missing, a stray marker, no root fields', () => {
    expect(fillTemplate(region('coupon', 'a') + root, nobody)).toBeNull();
    expect(fillTemplate(MARK.open + 'user' + MARK.nameEnd + 'guest' + root, nobody)).toBeNull();
    expect(fillTemplate(region('cart-badge', '') + root, { ...nobody, cartCount: 2 })).toBeNull();
    expect(fillTemplate(`${TOKEN.count}${root}`, nobody)).toBeNull();
    expect(fillTemplate(region('user', 'guest'), nobody)).toBeNull();
    expect(fillTemplate(region('user', 'guest') + root, nobody)).toMatch(/^guest<script>/);
  });
});

describe('personalPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  const api = (maintenanceMode: boolean) =>
    vi.stubGlobal('fetch', async (input: Request | string) => {
      const path = new URL(typeof input === 'string' ? input : input.url).pathname;
      const body =
        path === '/api/auth/session'
          ? {
              user: { ...hanna, role: 'admin' },
              cart: { itemCount: 2, lines: [{ productId: 'p1', quantity: 2 }] },
              wishlist: { productIds: [] },
            }
          : { success: true, settings: { maintenanceMode } };
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    });

  it("writes the shopper the API names into the template, and refuses while the shop is closed (an admin's page is rendered)", async () => {
    const template = region('cart-badge', '', `<b>${TOKEN.count}</b>`) + root;
    const request = new Request('http://shop.test/products', {
      headers: { Cookie: 'token=abc', Referer: 'http://shop.test/about' },
    });
    api(false);
    const page = await personalPage(template, request);
    expect(page).toMatch(/^<b>2<\/b><script>/);
    expect(page).toContain('"backPath":"/about","user":{');
    expect(page).toContain('"cartQuantities":{"p1":2}');
    api(true);
    expect(
      await personalPage(template, new Request('http://shop.test/m', { headers: { Cookie: 'token=abc' } })),
    ).toBeNull();
  });
});
