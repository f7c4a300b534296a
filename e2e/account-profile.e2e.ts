import { localePath } from '@shop/shared';
import type { Browser, Page } from 'playwright-core';
import { translate } from '@shop/i18n';
import {
  STRONG_PASSWORD,
  accountSuite,
  apiJson,
  fillAddress,
  productInStock,
  session,
  signedInCustomer,
  uniqueEmail,
} from './account-support';
import type { Stack } from './stack';

// Issue 28, points 6-8 (docs/decisions/0079-prices-account-phone.md), on a 390 px phone: the profile's
// password change and address book, the guest's heart, the VAT words beside prices, phone polish.
const PHONE = { width: 390, height: 844 };
const NEW_PASSWORD = 'Injera#2031';

describe('prices, account and phone polish (390 px)', () => {
  let stack: Stack;
  let browser: Browser;
  let adminToken: string;
  accountSuite((st, br) => {
    stack = st;
    browser = br;
  });
  beforeAll(async () => {
    const login = await apiJson(stack, 'POST', '/auth/login', undefined, {
      email: 'admin@beauty.et',
      password: 'Admin@12345',
    });
    adminToken = login.body.token;
  });

  const phoneSession = async (lang: 'en' | 'am' = 'en') => {
    const s = await session(browser, stack, lang);
    await s.page.setViewportSize(PHONE);
    return s;
  };
  const noOverflow = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  it('a password change on the profile ends the other sessions and keeps this one signed in', async () => {
    const s = await phoneSession();
    const { token: thisToken, email } = await signedInCustomer(stack, s, 'pw-change');
    // another phone signed in to the same account
    const other = await apiJson(stack, 'POST', '/auth/login', undefined, {
      email,
      password: STRONG_PASSWORD,
    });
    expect((await apiJson(stack, 'GET', '/users/profile', other.body.token)).status).toBe(200);
    const { page } = s;
    await page.goto(`${stack.storefront}/profile`);
    const section = page.locator('section[aria-labelledby=password-title]');
    // the rule is shown before anything is typed, and 'Forgot password?' is beside the current password
    expect(await section.getByText(translate('en', 'auth.passwordRule')).isVisible()).toBe(true);
    expect(await section.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    // a wrong current password is refused on its field, nothing changes
    await section.getByLabel('Current password').fill('Wrong#Pass1');
    await section.locator('input[name=newPassword]').fill(NEW_PASSWORD);
    await section.getByLabel('Confirm the new password').fill(NEW_PASSWORD);
    await section.getByRole('button', { name: 'Change password' }).click();
    // the field's own error (the form's error summary repeats it)
    await section
      .locator('#currentPassword-error')
      .filter({ hasText: 'Current password is incorrect' })
      .waitFor();
    expect((await apiJson(stack, 'GET', '/users/profile', other.body.token)).status).toBe(200);

    await section.getByLabel('Current password').fill(STRONG_PASSWORD);
    await section.locator('input[name=newPassword]').fill(NEW_PASSWORD);
    await section.getByLabel('Confirm the new password').fill(NEW_PASSWORD);
    await section.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();
    // the other session and the old token are over
    expect((await apiJson(stack, 'GET', '/users/profile', other.body.token)).status).toBe(401);
    expect((await apiJson(stack, 'GET', '/users/profile', thisToken)).status).toBe(401);
    // this browser stays signed in: a fresh token replaced its cookie
    const cookie = (await s.context.cookies(stack.storefront)).find((c) => c.name === 'token');
    expect(cookie?.value).toBeTruthy();
    expect(cookie?.value).not.toBe(thisToken);
    await page.goto(`${stack.storefront}/profile`);
    expect(new URL(page.url()).pathname).toBe('/profile');
    expect((await apiJson(stack, 'GET', '/users/profile', decodeURIComponent(cookie!.value))).status).toBe(
      200,
    );
    // the new password signs in, the old one does not
    expect(
      (await apiJson(stack, 'POST', '/auth/login', undefined, { email, password: NEW_PASSWORD })).status,
    ).toBe(200);
    expect(
      (await apiJson(stack, 'POST', '/auth/login', undefined, { email, password: STRONG_PASSWORD })).status,
    ).toBe(401);
    await noOverflow(page);
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('the address book adds, edits, makes default and deletes (Amharic page)', async () => {
    const s = await phoneSession('am');
    const { token } = await signedInCustomer(stack, s, 'addr-book');
    const { page } = s;
    const am = (key: string, params?: Record<string, string>) => translate('am', key, params);
    await page.goto(`${stack.storefront}/profile`);
    await page.getByRole('heading', { name: am('profile.addressesTitle') }).waitFor();
    await page.getByText(am('profile.noAddresses')).waitFor();
    // add the first one through the form
    await page.getByRole('link', { name: am('profile.addAddress') }).click();
    const form = page.locator('#address-form');
    await form.locator('input[name=phone]').fill('0911 23 45 67');
    await form.locator('select[name=state]').selectOption('Addis Ababa');
    await form.locator('input[name=city]').fill('Addis Ababa');
    await form.locator('input[name=street]').fill('Bole Road 12');
    await form.locator('input[name=landmark]').fill('Near Edna Mall');
    await form.getByRole('button', { name: am('profile.saveAddress') }).click();
    await page
      .getByRole('status')
      .filter({ hasText: am('profile.addressSaved') })
      .waitFor();
    // a second one (the API's own route), then the page shows both, the first the default
    await apiJson(stack, 'POST', '/users/addresses', token, {
      street: 'Piassa 4',
      city: 'Addis Ababa',
      state: 'Addis Ababa',
      phone: '0911 76 54 32',
    });
    await page.goto(`${stack.storefront}/profile`);
    const cards = page.getByTestId('address-card');
    expect(await cards.count()).toBe(2);
    const bole = cards.filter({ hasText: 'Bole Road 12' });
    const piassa = cards.filter({ hasText: 'Piassa 4' });
    expect(await bole.getAttribute('data-default')).toBe('true');
    expect(await bole.textContent()).toContain(am('profile.isDefault'));
    // the region is named in Amharic
    expect(await bole.textContent()).toContain('አዲስ አበባ');

    // edit: the landmark is cleared, the street changed
    await page.getByRole('link', { name: am('profile.editLabel', { street: 'Bole Road 12' }) }).click();
    await form.getByRole('heading', { name: am('profile.editAddress') }).waitFor();
    await form.locator('input[name=street]').fill('Bole Road 14');
    await form.locator('input[name=landmark]').fill('');
    await form.getByRole('button', { name: am('profile.saveAddress') }).click();
    await page
      .getByRole('status')
      .filter({ hasText: am('profile.addressSaved') })
      .waitFor();
    let saved = (await apiJson(stack, 'GET', '/users/addresses', token)).body.addresses;
    const edited = saved.find((a: { street: string }) => a.street === 'Bole Road 14');
    expect(edited).toMatchObject({ isDefault: true });
    expect(edited.landmark).toBeUndefined();

    // make the other one the default
    await piassa
      .getByRole('button', { name: am('profile.makeDefaultLabel', { street: 'Piassa 4' }) })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: am('profile.defaultChanged') })
      .waitFor();
    saved = (await apiJson(stack, 'GET', '/users/addresses', token)).body.addresses;
    expect(
      saved.filter((a: { isDefault: boolean }) => a.isDefault).map((a: { street: string }) => a.street),
    ).toEqual(['Piassa 4']);
    await page.locator('[data-testid=address-card][data-default=true]', { hasText: 'Piassa 4' }).waitFor();

    // a refused edit keeps the form and says why (a phone that is not Ethiopian)
    await page.getByRole('link', { name: am('profile.editLabel', { street: 'Piassa 4' }) }).click();
    await form.locator('input[name=street][value="Piassa 4"]').waitFor();
    await form.locator('input[name=phone]').fill('12345');
    await form.getByRole('button', { name: am('profile.saveAddress') }).click();
    await form.locator('input[name=phone][aria-invalid=true]').waitFor();
    expect((await apiJson(stack, 'GET', '/users/addresses', token)).body.addresses[1].phone).toBe(
      '+251911765432',
    );

    // delete the default: the other one takes its place
    await page.goto(`${stack.storefront}/profile`);
    await piassa.getByRole('button', { name: am('profile.deleteLabel', { street: 'Piassa 4' }) }).click();
    await page
      .getByRole('status')
      .filter({ hasText: am('profile.addressDeleted') })
      .waitFor();
    saved = (await apiJson(stack, 'GET', '/users/addresses', token)).body.addresses;
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ street: 'Bole Road 14', isDefault: true });
    await cards.filter({ hasText: 'Piassa 4' }).waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(1);
    await noOverflow(page);
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  for (const lang of ['en', 'am'] as const) {
    it(`a guest's heart: told why on sign-in, back on the product with it saved (${lang})`, async () => {
      const product = await productInStock(stack, 1, lang === 'en' ? 4 : 5);
      const email = uniqueEmail(`heart-${lang}`);
      await apiJson(stack, 'POST', '/auth/register', undefined, {
        name: 'Hana',
        email,
        password: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
      });
      const s = await phoneSession(lang);
      const { page } = s;
      await page.goto(`${stack.storefront}/product/${product._id}`);
      await page.locator('.buy-row form.heart-form button').click();
      await page.waitForURL(/\/signin\?redirectTo=.*&reason=wishlist/);
      expect(await page.getByTestId('signin-reason').textContent()).toBe(
        translate(lang, 'auth.reasonWishlist'),
      );
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill(STRONG_PASSWORD);
      await page.locator('form.acc-form button[type=submit]').click();
      await page.waitForURL(`${stack.storefront}${localePath(lang, `/product/${product._id}`)}`);
      // saved: the heart says so, and the wishlist holds it
      await page.locator('.buy-row form.heart-form button[aria-pressed=true]').waitFor();
      const login = await apiJson(stack, 'POST', '/auth/login', undefined, {
        email,
        password: STRONG_PASSWORD,
      });
      const wishlist = await apiJson(stack, 'GET', '/wishlist', login.body.token);
      expect(wishlist.body.products.map((l: { product: { _id: string } }) => l.product._id)).toEqual([
        product._id,
      ]);
      await s.context.close();
      expect(s.errors).toEqual([]);
    });
  }

  const setPricesIncludeTax = async (value: boolean) => {
    const res = await apiJson(stack, 'PUT', '/admin/settings', adminToken, { pricesIncludeTax: value });
    expect(res.status).toBe(200);
  };

  it('the VAT words beside a price follow pricesIncludeTax, on cards and the product page, en and am', async () => {
    const product = await productInStock(stack, 1);
    const s = await phoneSession();
    const { page } = s;
    const vatWords = async (path: string) => {
      await page.goto(`${stack.storefront}${path}`);
      return page.getByTestId('vat-words').first().textContent();
    };
    try {
      expect(await vatWords('/products')).toBe('+ VAT');
      expect(await vatWords(`/product/${product._id}`)).toBe('+ VAT');
      // the sticky bar says it too
      expect(await page.locator('.buy-price').textContent()).toMatch(/\+ VAT$/);
      await setPricesIncludeTax(true);
      expect(await vatWords('/products')).toBe('incl. VAT');
      expect(await vatWords(`/product/${product._id}`)).toBe('incl. VAT');
      await s.context.addCookies([{ name: 'language', value: 'am', url: stack.storefront }]);
      expect(await vatWords('/products')).toBe(translate('am', 'product.inclVat'));
      await setPricesIncludeTax(false);
      expect(await vatWords(`/product/${product._id}`)).toBe(translate('am', 'product.plusVat'));
      // a card's price never wraps: the price with its words is one line
      await page.goto(`${stack.storefront}/products`);
      const heights = await page
        .locator('.card .price-now')
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
      const lineHeight = await page
        .locator('.card .price-now')
        .first()
        .evaluate((el) => parseFloat(getComputedStyle(el.closest('.price')!).lineHeight) || 24);
      for (const h of heights) expect(h).toBeLessThanOrEqual(lineHeight * 1.5);
    } finally {
      await setPricesIncludeTax(false);
    }
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('phone polish: sticky header and add-to-cart bar, sort beside Filters, two wishlist cards a row', async () => {
    const s = await phoneSession();
    const { token } = await signedInCustomer(stack, s, 'phone-polish');
    const { page } = s;
    // catalogue: the sort is beside 'Filters' and applies on change
    await page.goto(`${stack.storefront}/products`);
    const toggle = await page.locator('.filters-toggle').boundingBox();
    const sort = page.getByTestId('phone-sort');
    const sortBox = await sort.boundingBox();
    expect(
      sortBox && toggle && Math.abs(sortBox.y + sortBox.height / 2 - (toggle.y + toggle.height / 2)),
    ).toBeLessThan(12);
    await sort.selectOption('price_asc');
    await page.waitForURL(/sort=price_asc/);
    // the header stays on screen after scrolling
    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => window.scrollY > 500);
    const header = await page.locator('header.header').boundingBox();
    expect(header?.y).toBe(0);
    expect(header!.height).toBeLessThan(120);
    // product page: the add-to-cart bar is at the bottom of the screen from the first paint
    const product = await productInStock(stack, 2);
    await page.goto(`${stack.storefront}/product/${product._id}`);
    const bar = await page.getByTestId('buy-row').boundingBox();
    expect(bar!.y + bar!.height).toBeGreaterThan(PHONE.height - 4);
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(PHONE.height + 1);
    await noOverflow(page);
    // wishlist: two cards a row
    const [a, b] = [await productInStock(stack, 1, 0), await productInStock(stack, 1, 1)];
    await apiJson(stack, 'POST', `/wishlist/add/${a._id}`, token, {});
    await apiJson(stack, 'POST', `/wishlist/add/${b._id}`, token, {});
    await page.goto(`${stack.storefront}/wishlist`);
    const boxes = await page
      .getByTestId('wishlist-card')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y })));
    expect(boxes).toHaveLength(2);
    expect(boxes[0].y).toBe(boxes[1].y);
    expect(boxes[1].x).toBeGreaterThan(boxes[0].x);
    await noOverflow(page);
    await s.context.close();
    expect(s.errors).toEqual([]);
  });
  it('a failed payment says nothing was charged and lays out its actions, one a line (am)', async () => {
    const am = (key: string) => translate('am', key);
    const product = await productInStock(stack, 2, 6);
    const s = await phoneSession('am');
    const { token } = await signedInCustomer(stack, s, 'pay-failed');
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    const { page } = s;
    await page.goto(`${stack.storefront}/checkout`);
    await fillAddress(page);
    await page.getByRole('button', { name: am('checkout.payNow') }).click();
    await page.waitForURL(/\/payment\/test\//);
    await page.getByRole('button', { name: am('payment.testFail') }).click();
    await page.getByTestId('nothing-charged').waitFor({ timeout: 15000 });
    expect(await page.getByTestId('nothing-charged').textContent()).toBe(am('payment.nothingCharged'));
    const pay = await page.getByTestId('pay-now').boundingBox();
    const other = await page.getByText(am('payment.otherWay')).boundingBox();
    const contact = await page.getByTestId('contact-us').boundingBox();
    // pay again, then the other ways under it, then contact: one below the other
    expect(other!.y).toBeGreaterThanOrEqual(pay!.y + pay!.height - 1);
    expect(contact!.y).toBeGreaterThanOrEqual(other!.y + other!.height - 1);
    expect(await page.getByTestId('contact-us').getAttribute('href')).toBe('/am/contact'); // an Amharic page links the Amharic contact page (decision 0092)
    await noOverflow(page);
    await s.context.close();
    expect(s.errors).toEqual([]);
  });
});
