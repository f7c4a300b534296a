import type { Browser, Page } from 'playwright-core';
import {
  STRONG_PASSWORD,
  accountSuite,
  apiJson,
  productInStock,
  session,
  signedInCustomer,
  uniqueEmail,
} from './account-support';
import { seriousViolations } from './shop-support';
import type { Stack } from './stack';

/** Every validation message of the account forms, rendered by the server (the forms work without JavaScript). */
describe('account form validation', () => {
  let stack: Stack;
  let browser: Browser;
  accountSuite((st, br) => {
    stack = st;
    browser = br;
  });

  const alerts = (page: Page) => page.getByRole('alert').allTextContents();
  // a field's error shows twice after a failed submit: beside the field and in the form's error summary
  // (docs/decisions/0078), hence `.first()` below

  it('sign up: required fields, weak password, mismatch, duplicate email, admin secret key', async () => {
    const s = await session(browser, stack);
    const { page } = s;
    await page.goto(`${stack.storefront}/signup`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Name is required').first().waitFor();
    expect(await alerts(page)).toEqual(
      expect.arrayContaining([
        'Name is required',
        'Email is required',
        'Password is required',
        'Please confirm your password',
      ]),
    );

    await page.locator('input[name=name]').fill('Abebe');
    await page.locator('input[name=email]').fill('not-an-email');
    await page.locator('input[name=password]').fill('password');
    await page.getByTestId('password-strength').filter({ hasText: 'weak' }).waitFor();
    await page.locator('input[name=confirmPassword]').fill('password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Please choose a stronger password').first().waitFor();
    await page.getByText('Please enter a valid email address').first().waitFor();
    expect(await page.locator('input[name=name]').inputValue()).toBe('Abebe');

    await page.locator('input[name=email]').fill(uniqueEmail('mismatch'));
    await page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await page.locator('input[name=confirmPassword]').fill(`${STRONG_PASSWORD}x`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Passwords do not match').first().waitFor();

    const taken = uniqueEmail('taken');
    await apiJson(stack, 'POST', '/auth/register', undefined, {
      name: 'First',
      email: taken,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
    await page.locator('input[name=email]').fill(taken);
    await page.locator('input[name=password]').fill(STRONG_PASSWORD);
    await page.locator('input[name=confirmPassword]').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('An account with this email already exists').first().waitFor();

    // Sign-up is for customers only: no account type, no admin key; staff go to the back office.
    expect(await page.locator('input[name=accountType], input[name=adminSecretKey]').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Staff sign-in' }).getAttribute('href')).toBe(
      `${stack.admin}/admin/login`,
    );
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('sign in: required fields and the server message for wrong credentials', async () => {
    const s = await session(browser, stack);
    const { page } = s;
    await page.goto(`${stack.storefront}/signin`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Email is required').first().waitFor();
    await page.getByText('Password is required').first().waitFor();
    await page.locator('input[name=email]').fill('customer@beauty.et');
    await page.locator('input[name=password]').fill('Wrong@12345');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.acc-alert').waitFor();
    expect(await page.locator('.acc-alert').textContent()).toBe('Invalid email or password');
    // The shop's sign-in is for customers: no role choice, a discreet link to the back office for staff.
    expect(await page.locator('input[name=role]').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Staff sign-in' }).getAttribute('href')).toBe(
      `${stack.admin}/admin/login`,
    );
    expect((await s.context.cookies(stack.storefront)).find((c) => c.name === 'token')).toBeUndefined();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('checkout: phone, region, city and street are required, the postal code is not; profile: name and email are required', async () => {
    const product = await productInStock(stack, 2);
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, 'checkout-validation');
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    const { page } = s;
    await page.goto(`${stack.storefront}/checkout`);
    // The country is fixed (delivery only within Ethiopia); a hand-made post with another is refused.
    const country = page.locator('input[name=country]');
    expect(await country.inputValue()).toBe('Ethiopia');
    expect(await country.getAttribute('type')).toBe('hidden');
    await page.getByText('We deliver only within Ethiopia.').waitFor();
    await country.evaluate((input: HTMLInputElement) => {
      input.value = 'Kenya';
    });
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.getByText('Street is required').first().waitFor();
    for (const text of [
      'Phone number is required',
      'City is required',
      'Region / state is required',
      'Delivery is only within Ethiopia',
    ]) {
      await page.getByText(text).first().waitFor();
    }
    expect(await page.getByText('Postal code is required').count()).toBe(0);
    expect((await apiJson(stack, 'GET', '/orders/my-orders', token)).body.orders).toEqual([]);

    await page.goto(`${stack.storefront}/profile?edit=1`);
    await page.locator('input[name=name]').fill('');
    await page.locator('input[name=email]').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Name is required').first().waitFor();
    await page.getByText('Email is required').first().waitFor();
    await page.locator('input[name=name]').fill('Tigist Alemu');
    await page.locator('input[name=email]').fill(uniqueEmail('profile'));
    await page.locator('input[name=phone]').fill('0911234567');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile updated successfully' }).waitFor();
    await page.getByTestId('profile-name').filter({ hasText: 'Tigist Alemu' }).waitFor();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('an empty cart shows the prompt on the cart and a message at checkout', async () => {
    const s = await session(browser, stack);
    await signedInCustomer(stack, s, 'empty');
    await s.page.goto(`${stack.storefront}/cart`);
    await s.page.getByText('Your cart is empty.').waitFor();
    await s.page.getByRole('link', { name: 'Start shopping' }).waitFor();
    await s.page.goto(`${stack.storefront}/checkout`);
    await s.page.getByText('Your cart is empty. Add some products before checking out.').waitFor();
    await s.page.goto(`${stack.storefront}/payment/return`);
    await s.page.getByRole('heading', { name: 'Payment reference not found' }).waitFor();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('the account pages have no serious accessibility violations', async () => {
    const product = await productInStock(stack, 2, 1);
    const guest = await session(browser, stack);
    for (const path of ['/signin', '/signup']) {
      await guest.page.goto(`${stack.storefront}${path}`);
      expect({ path, violations: await seriousViolations(guest.page) }).toEqual({ path, violations: [] });
    }
    await guest.context.close();
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, 'a11y');
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    await apiJson(stack, 'POST', `/wishlist/add/${product._id}`, token, {});
    for (const path of ['/cart', '/checkout', '/wishlist', '/profile', '/profile?tab=orders', '/orders']) {
      await s.page.goto(`${stack.storefront}${path}`);
      expect({ path, violations: await seriousViolations(s.page) }).toEqual({ path, violations: [] });
    }
    await s.context.close();
    expect([...guest.errors, ...s.errors]).toEqual([]);
  });
});
