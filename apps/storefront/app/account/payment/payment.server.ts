import type { PaymentInit } from '@shop/api-client';

/**
 * Where the customer goes to pay: the checkout URL the server obtained from Chapa, or the test
 * provider's page of this storefront. A hosted form to auto-post is returned when there is no URL.
 */
export function paymentDestination(
  init: Pick<PaymentInit, 'provider' | 'txRef'> & Partial<Pick<PaymentInit, 'checkoutUrl' | 'hostedForm'>>,
  orderId: string,
): { redirect: string } | { hostedForm: PaymentInit['hostedForm'] } | null {
  if (init.provider === 'test') {
    const url = init.checkoutUrl ? new URL(init.checkoutUrl, 'http://shop.local') : null;
    if (url && url.pathname.startsWith('/payment/test/')) return { redirect: url.pathname + url.search };
    return {
      redirect: `/payment/test/${encodeURIComponent(init.txRef)}?orderId=${encodeURIComponent(orderId)}`,
    };
  }
  if (init.checkoutUrl && /^https?:\/\//.test(init.checkoutUrl)) return { redirect: init.checkoutUrl };
  if (init.hostedForm?.action) return { hostedForm: init.hostedForm };
  return null;
}

/** Chapa appends its reference under several names; ours is `tx_ref`. */
export function txRefFrom(url: URL): string | null {
  for (const name of ['tx_ref', 'trx_ref', 'txRef', 'reference']) {
    const value = url.searchParams.get(name);
    if (value && /^[A-Za-z0-9_.-]{1,100}$/.test(value)) return value;
  }
  return null;
}
