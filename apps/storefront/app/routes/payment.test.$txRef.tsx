import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { settle } from '../account/api.server';
import { paymentApi } from '../account/orders/access.server';
import { FormError, Money } from '../account/components';
import { reply } from '../account/reply.server';
import { paymentMessageKey } from '../account/payment/verify.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [
  titleMeta(matches, 'payment.testTitle'),
  { name: 'robots', content: 'noindex' },
];

const TX_REF = /^[A-Za-z0-9._-]{1,100}$/;

/** The built-in test provider's checkout page (no Chapa keys configured): nothing is charged. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // the signed-in customer, or the guest paying an order whose token this browser holds
  const { api } = await paymentApi(request);
  const txRef = params.txRef ?? '';
  if (!TX_REF.test(txRef)) throw new Response('Payment reference not found', { status: 404 });
  // The amount shown is the stored order's total (the payment's amount comes from it on the server).
  const orderId = new URL(request.url).searchParams.get('orderId') ?? '';
  const order = /^[A-Za-z0-9]{1,64}$/.test(orderId)
    ? await settle(api.GET('/api/orders/{id}', { params: { path: { id: orderId } } }))
    : null;
  const found = order?.ok ? order.data : null;
  return {
    payment: {
      txRef,
      amount: found?.totalAmount ?? null,
      settled: found ? found.paymentStatus === 'paid' || found.status === 'cancelled' : false,
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api } = await paymentApi(request);
  const txRef = params.txRef ?? '';
  if (!TX_REF.test(txRef)) throw new Response('Payment reference not found', { status: 404 });
  const form = await request.formData();
  const outcome = form.get('outcome') === 'success' ? 'success' : 'failed';
  const result = await settle(
    api.POST('/api/payments/test/{txRef}/complete', {
      params: { path: { txRef } },
      body: { outcome },
    }),
  );
  // 409: already settled (a second click); the return page shows the outcome either way.
  if (!result.ok && result.status !== 409)
    return reply({ error: paymentMessageKey(result.code, 'payment.verificationError') }, result.status);
  return redirect(`/payment/return?tx_ref=${encodeURIComponent(txRef)}`);
}

export default function TestPaymentPage() {
  const { payment } = useLoaderData<typeof loader>();
  const data = useActionData<{ error?: string }>();
  const { t } = useShop();
  const busy = useNavigation().state !== 'idle';
  return (
    <section className="acc-page acc-test-payment">
      <p className="acc-test-banner" role="note">
        {t('payment.testBanner')}
      </p>
      <h1>{t('payment.testTitle')}</h1>
      <p>{t('payment.testExplain')}</p>
      <dl>
        <dt>{t('payment.reference')}</dt>
        <dd>
          <code>{payment.txRef}</code>
        </dd>
        <dt>{t('payment.amount')}</dt>
        <dd>
          <strong data-testid="test-amount">
            {payment.amount === null ? '—' : <Money amount={payment.amount} />}
          </strong>
        </dd>
      </dl>
      <FormError text={data?.error} />
      {!payment.settled ? (
        <Form method="post" className="acc-actions">
          <button type="submit" name="outcome" value="success" className="button" disabled={busy}>
            {t('payment.testComplete')}
          </button>
          <button type="submit" name="outcome" value="failed" className="button acc-danger" disabled={busy}>
            {t('payment.testFail')}
          </button>
        </Form>
      ) : (
        <p>
          <Link to={`/payment/return?tx_ref=${encodeURIComponent(payment.txRef)}`}>
            {t('payment.checkStatus')}
          </Link>
        </p>
      )}
    </section>
  );
}
