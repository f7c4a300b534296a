import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { apiFor } from '../session.server';
import { settle } from '../account/api.server';
import { requireUser } from '../account/auth.server';
import { OrderDetails } from '../account/OrderDetails';
import type { OrderView } from '../account/types';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../root';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'orders.confirmationTitle')];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const orderId = params.orderId ?? '';
  const paymentFailed = new URL(request.url).searchParams.get('payment') === 'failed';
  const result = await settle<{ order: OrderView }>(apiFor(request).GET('/api/orders/{id}', { params: { path: { id: orderId } } }));
  if (!result.ok && result.status === 404) throw new Response('Not found', { status: 404 });
  return { order: result.ok ? result.data.order : null, paymentFailed };
}

export default function OrderConfirmation() {
  const { order, paymentFailed } = useLoaderData<typeof loader>();
  const { t } = useShop();
  if (!order) return <section className="acc-page"><p className="acc-alert" role="alert">{t('orders.fetchOneFailed')} <Link to=".">{t('cart.retry')}</Link></p></section>;
  return (
    <section className="acc-page">
      <h1>{t('orders.confirmationTitle')}</h1>
      {paymentFailed && order.paymentStatus !== 'paid' ? <p className="acc-alert" role="alert">{t('payment.initFailed')}</p> : <p>{t('orders.thanks')}</p>}
      <OrderDetails order={order} />
      <p className="acc-actions"><Link className="button" to="/orders">{t('orders.title')}</Link> <Link to="/products">{t('cart.continueShopping')}</Link></p>
    </section>
  );
}
