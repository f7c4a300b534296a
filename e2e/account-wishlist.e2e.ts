import type { Browser } from 'playwright-core';
import {
  STRONG_PASSWORD,
  accountSuite,
  apiJson,
  productInStock,
  session,
  signedInCustomer,
  uniqueEmail,
} from './account-support';
import type { Stack } from './stack';

describe('wishlist flows', () => {
  let stack: Stack;
  let browser: Browser;
  accountSuite((st, br) => {
    stack = st;
    browser = br;
  });

  it('a guest who taps the heart signs in and finds the product in the wishlist', async () => {
    const product = await productInStock(stack, 2);
    const email = uniqueEmail('wish-guest');
    await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'Hana',
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    const s = await session(browser, stack);
    await s.page.goto(`${stack.storefront}/product/${product._id}`);
    await s.page.locator('form.heart-form button').first().click();
    await s.page.waitForURL(/\/signin\?redirectTo=/);
    await s.page.locator('input[name=email]').fill(email);
    await s.page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await s.page.waitForURL(`${stack.storefront}/product/${product._id}`);
    await s.page.goto(`${stack.storefront}/wishlist`);
    await s.page.getByTestId('wishlist-card').filter({ hasText: product.name }).waitFor();
    // The intent cookie is gone: signing in again does not add anything twice.
    expect(
      (await s.context.cookies(stack.storefront)).find((c) => c.name === 'pending_intent'),
    ).toBeUndefined();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('updates notification preferences, moves to cart and removes, with toasts', async () => {
    const [first, second] = [await productInStock(stack, 2, 2), await productInStock(stack, 2, 3)];
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, 'wish');
    await apiJson(stack, 'POST', `/wishlist/add/${first._id}`, token, {});
    await apiJson(stack, 'POST', `/wishlist/add/${second._id}`, token, {});
    const { page } = s;
    await page.goto(`${stack.storefront}/wishlist`);
    const firstCard = page.getByTestId('wishlist-card').filter({ hasText: first.name });
    await firstCard.getByLabel('Notify me when on sale').check();
    await page.getByRole('status').filter({ hasText: 'Preferences updated' }).waitFor();
    const wishlist = await apiJson(stack, 'GET', '/wishlist', token);
    expect(
      wishlist.body.products.find((l: { product: { _id: string } }) => l.product._id === first._id)
        .notifyOnSale,
    ).toBe(true);
    // The toast closes by itself after 3 s.
    await page
      .getByRole('status')
      .filter({ hasText: 'Preferences updated' })
      .waitFor({ state: 'detached', timeout: 6000 });

    await firstCard.getByRole('button', { name: 'Move to cart' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved to cart' }).waitFor();
    await firstCard.waitFor({ state: 'detached' });
    const cart = await apiJson(stack, 'GET', '/cart', token);
    expect(cart.body.products.map((l: { product: { _id: string } }) => l.product._id)).toEqual([first._id]);

    await page
      .getByTestId('wishlist-card')
      .filter({ hasText: second.name })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Removed from wishlist' }).waitFor();
    await page.getByText('Your wishlist is empty.').waitFor();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('the product heart toggles the wishlist for a signed-in customer', async () => {
    const product = await productInStock(stack, 2, 4);
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, 'heart');
    await s.page.goto(`${stack.storefront}/product/${product._id}`);
    const heart = s.page.locator('form.heart-form button').first();
    const toggled = () =>
      s.page.waitForResponse((r) => r.url().includes('/wishlist/toggle') && r.request().method() === 'POST');
    await Promise.all([toggled(), heart.click()]);
    await s.page.locator('form.heart-form button[aria-pressed=true]').first().waitFor();
    await expect(apiJson(stack, 'GET', '/wishlist', token).then((r) => r.body.products.length)).resolves.toBe(
      1,
    );
    await Promise.all([toggled(), heart.click()]);
    await s.page.locator('form.heart-form button[aria-pressed=false]').first().waitFor();
    await expect(apiJson(stack, 'GET', '/wishlist', token).then((r) => r.body.products.length)).resolves.toBe(
      0,
    );
    await s.context.close();
    expect(s.errors).toEqual([]);
  });
});
