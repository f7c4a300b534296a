import type { Browser } from 'playwright-core';
import { startChapaStub, type ChapaStub } from '../apps/api/test/support/chapa-stub';
import { apiJson, fillAddress, launch, productInStock, session, signedInCustomer } from './account-support';
import { startStack, type Stack } from './stack';

/** The Chapa path: the API talks to a local stub that follows Chapa's published API. */
describe('checkout through Chapa (local stub)', () => {
  let stack: Stack;
  let browser: Browser;
  let stub: ChapaStub;
  const secretKey = 'CHASECK_TEST-e2e-secret';

  beforeAll(async () => {
    stub = await startChapaStub({ secretKey, webhookSecret: 'e2e-webhook-secret' });
    stack = await startStack({
      apiEnv: {
        AUTH_RATE_LIMIT: '1000',
        CHAPA_SECRET_KEY: secretKey,
        CHAPA_PUBLIC_KEY: 'CHAPUBK_TEST-e2e-public',
        CHAPA_WEBHOOK_SECRET: 'e2e-webhook-secret',
        CHAPA_BASE_URL: stub.url,
        CHAPA_HOSTED_FORM_URL: `${stub.url}/v1/hosted/pay`,
      },
    });
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await stub?.close();
  });

  async function payWithChapa(prefix: string) {
    const product = await productInStock(stack, 2);
    const s = await session(browser, stack);
    const { token } = await signedInCustomer(stack, s, prefix);
    await apiJson(stack, 'POST', '/cart/add', token, { productId: product._id, quantity: 1 });
    const before = new Set(stub.transactions.keys());
    await s.page.goto(`${stack.storefront}/checkout`);
    await fillAddress(s.page);
    await s.page.getByRole('button', { name: 'Pay Now' }).click();
    // The browser is sent to Chapa's checkout page (the stub's URL).
    await s.page.waitForURL((url) => url.toString().startsWith(stub.url));
    const txRef = [...stub.transactions.keys()].find((k) => !before.has(k))!;
    const tx = stub.transactions.get(txRef)!;
    expect(tx.return_url).toBe(`${stack.storefront}/payment/return?tx_ref=${encodeURIComponent(txRef)}`);
    const order = (await apiJson(stack, 'GET', '/orders/my-orders', token)).body.orders[0];
    expect(Number(tx.amount)).toBe(order.totalAmount);
    return { s, txRef, order, token };
  }

  it('a successful Chapa payment shows Payment Successful! and then the confirmation', async () => {
    const { s, txRef, order, token } = await payWithChapa('chapa-ok');
    stub.settle(txRef, 'success');
    await s.page.goto(`${stack.storefront}/payment/return?tx_ref=${txRef}`);
    await s.page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await s.page.waitForURL(`${stack.storefront}/order-confirmation/${order._id}`);
    await s.page.getByTestId('order-number').filter({ hasText: order.orderNumber }).first().waitFor();
    const paid = (await apiJson(stack, 'GET', `/orders/${order._id}`, token)).body;
    expect(paid.paymentStatus).toBe('paid');
    await s.context.close();
    expect(s.errors).toEqual([]);
  });

  it('a declined Chapa payment shows the failure message and leaves the order unpaid', async () => {
    const { s, txRef, order, token } = await payWithChapa('chapa-fail');
    stub.settle(txRef, 'failed');
    await s.page.goto(`${stack.storefront}/payment/callback?tx_ref=${txRef}`);
    await s.page.getByRole('heading', { name: 'Payment was not successful' }).waitFor();
    const unpaid = (await apiJson(stack, 'GET', `/orders/${order._id}`, token)).body;
    expect(unpaid.paymentStatus).not.toBe('paid');
    await s.context.close();
    expect(s.errors).toEqual([]);
  });
});
