import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { Link } from '../components/Localized';
import { requireUser } from '../account/auth/auth.server';
import { FormError, Toast, message } from '../account/components';
import { OrderList } from '../account/orders/OrderList';
import { cancelOrder, loadMyOrders } from '../account/orders/orders.server';
import { reply } from '../account/reply.server';
import { apiFor } from '../session.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'orders.title')];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return { orders: await loadMyOrders(request) };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const result = await cancelOrder(apiFor(request), String(form.get('orderId') ?? ''));
  return reply(
    result.ok
      ? { ok: true, message: 'orders.cancelled' }
      : { ok: false, message: result.message, params: result.params },
    result.ok ? 200 : 400,
  );
}

export default function Orders() {
  const { orders } = useLoaderData<typeof loader>();
  const data = useActionData<{
    ok: boolean;
    message?: string;
    params?: Record<string, string | number>;
  }>();
  const { t } = useShop();
  return (
    <section className="acc-page">
      <h1>{t('orders.title')}</h1>
      {data ? (
        <Toast
          kind={data.ok ? 'success' : 'error'}
          text={message(t, data.message, data.params)}
          stamp={data}
        />
      ) : null}
      {orders === null ? <FormError text="orders.fetchFailed" /> : <OrderList orders={orders} />}
      {orders === null ? <Link to=".">{t('cart.retry')}</Link> : null}
    </section>
  );
}
