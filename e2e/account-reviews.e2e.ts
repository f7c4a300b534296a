import type { Browser } from 'playwright-core';
import {
  accountSuite,
  apiJson,
  fillAddress,
  productInStock,
  session,
  signedInCustomer,
} from './account-support';
import type { Stack } from './stack';

describe('reviews and a double-submitted checkout', () => {
  let stack: Stack;
  let browser: Browser;
  accountSuite((st, br) => {
    stack = st;
    browser = br;
  });

  it('a customer writes, edits and deletes their own review from the product page', async () => {
    const product = await productInStock(stack, 1, 5);
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, 'reviewer');
    const { page } = s;
    await page.goto(`${stack.storefront}/product/${product._id}#write-review`);
    await page.locator('#new-rating').selectOption('4');
    await page.locator('#new-comment').fill('Lovely scent, my skin feels soft.');
    await page.locator('#new-comment').evaluate((el) => (el as HTMLTextAreaElement).form!.requestSubmit());
    await page.waitForURL(/review=saved/);
    await page.getByText('Review saved').waitFor();
    let mine = (await apiJson(stack, 'GET', `/reviews/product/${product._id}`)).body.reviews.find(
      (r: { comment: string }) => r.comment.startsWith('Lovely'),
    );
    expect(mine.rating).toBe(4);

    await page.locator('#edit-rating').selectOption('5');
    await page.locator('#edit-comment').fill('Even better after a month.');
    await page.locator('#edit-comment').evaluate((el) => (el as HTMLTextAreaElement).form!.requestSubmit());
    await page.getByText('Even better after a month.').first().waitFor();
    mine = (await apiJson(stack, 'GET', `/reviews/product/${product._id}`)).body.reviews.find(
      (r: { _id: string }) => r._id === mine._id,
    );
    expect(mine).toMatchObject({ rating: 5, comment: 'Even better after a month.' });

    await page.locator('form.review-delete button[type=submit]').click();
    await page.waitForURL(/review=deleted/);
    const left = (await apiJson(stack, 'GET', `/reviews/product/${product._id}`)).body.reviews.filter(
      (r: { _id: string }) => r._id === mine._id,
    );
    expect(left).toEqual([]);
    void token;
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('a checkout form submitted twice places one order', async () => {
    const product = await productInStock(stack, 3, 6);
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, 'double');
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    const { page } = s;
    await page.goto(`${stack.storefront}/checkout`);
    await fillAddress(page);
    // Two posts of the same rendered form (a double click without JavaScript, or a resubmit).
    const statuses = await page.evaluate(async () => {
      const form = document.querySelector<HTMLFormElement>('#checkout-form')!;
      const post = () =>
        fetch(form.action, {
          method: 'POST',
          body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
          redirect: 'manual',
        });
      const answers = await Promise.all([post(), post()]);
      return answers.map((a) => (a.type === 'opaqueredirect' ? 302 : a.status));
    });
    expect(statuses).toEqual([302, 302]);
    const orders = (await apiJson(stack, 'GET', '/orders/my-orders', token)).body.orders;
    expect(orders).toHaveLength(1);

    // Once delivered the order can no longer be cancelled and offers a review link for each item.
    const admin = (
      await apiJson(stack, 'POST', '/auth/login', undefined, {
        email: 'admin@beauty.et',
        password: 'Admin@12345',
        role: 'admin',
      })
    ).body.token;
    // fulfilment follows payment (docs/decisions/0080): the Chapa order is paid on the test checkout first
    const init = await apiJson(stack, 'POST', '/payments/initialize', token, { orderId: orders[0]._id });
    expect(
      (
        await apiJson(stack, 'POST', `/payments/test/${init.body.txRef}/complete`, token, {
          outcome: 'success',
        })
      ).status,
    ).toBe(200);
    for (const status of ['processing', 'shipped', 'delivered']) {
      expect(
        (await apiJson(stack, 'PATCH', `/orders/${orders[0]._id}/status`, admin, { status })).status,
      ).toBe(200);
    }
    await page.goto(`${stack.storefront}/orders`);
    const card = page.locator(`[data-order-id="${orders[0]._id}"]`);
    expect(await card.locator('[data-status]').getAttribute('data-colour')).toBe('green');
    expect(await card.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
    await card.getByRole('link', { name: 'Write a review' }).click();
    await page.waitForURL(`${stack.storefront}/product/${product._id}#write-review`);
    await page.locator('#new-comment').waitFor();
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('a failed test payment shows the failure, and the order can be paid again', async () => {
    const product = await productInStock(stack, 2, 7);
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, 'payagain');
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    const { page } = s;
    await page.goto(`${stack.storefront}/checkout`);
    await fillAddress(page);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL(/\/payment\/test\//);
    await page.getByRole('button', { name: 'Fail payment' }).click();
    await page.getByRole('heading', { name: 'Payment was not successful' }).waitFor();
    await page.getByRole('link', { name: 'View order' }).click();
    // the order page says the payment failed (not 'Thank you') and offers to pay again
    await page
      .getByTestId('payment-failed')
      .filter({ hasText: 'Your payment did not go through.' })
      .waitFor();
    expect(await page.getByTestId('order-thanks').count()).toBe(0);
    await page.getByRole('button', { name: 'Try paying again' }).click();
    await page.waitForURL(/\/payment\/test\//);
    await page.getByRole('button', { name: 'Complete payment' }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.waitForURL(/\/order-confirmation\//);
    const order = (await apiJson(stack, 'GET', '/orders/my-orders', token)).body.orders[0];
    expect(order.paymentStatus).toBe('paid');
    expect(await page.getByTestId('pay-now').count()).toBe(0);
    await s.context.close();
    expect(s.errors).toEqual([]);
  });
});
