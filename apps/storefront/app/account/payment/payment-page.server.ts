import { paymentApi } from '../orders/access.server';
import { txRefFrom } from './payment.server';
import { verifyPayment } from './verify.server';
import type { PaymentPageData } from './PaymentStatus';

/** Loader of the return and callback pages: the first request shows the spinner, `check=1` verifies. */
export async function paymentPageLoader(request: Request): Promise<PaymentPageData> {
  // the signed-in customer, or the guest paying an order whose token this browser holds
  const { api, guest } = await paymentApi(request);
  const url = new URL(request.url);
  const txRef = txRefFrom(url);
  const check = new URL(url.pathname, url.origin);
  if (txRef) check.searchParams.set('tx_ref', txRef);
  check.searchParams.set('check', '1');
  const checkUrl = check.pathname + check.search;
  if (url.searchParams.get('check') !== '1') return { txRef, outcome: null, checkUrl, guest };
  return { txRef, outcome: await verifyPayment(request, txRef, api), checkUrl, guest };
}
