import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { customerMayCancel, isPayOnDelivery, storefrontPaths } from '@shop/shared';
import { payingOrderCookie } from '../session.server';
import { settle } from '../account/api.server';
import { orderApi } from '../account/orders/access.server';
import { FormError, Money, message, orderNumberOf } from '../account/components';
import { HostedForm } from '../account/payment/HostedForm';
import { OrderDetails } from '../account/orders/OrderDetails';
import { cancelOrder } from '../account/orders/orders.server';
import { paymentDestination } from '../account/payment/payment.server';
import { reply } from '../account/reply.server';
import { paymentMessageKey } from '../account/payment/verify.server';
import type { PaymentInit } from '@shop/api-client';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'orders.confirmationTitle')];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const orderId = params.orderId ?? '';
  // the signed-in customer, or the guest whose browser holds the order's token (checkout set it)
  const { api, guest } = await orderApi(request, orderId);
  const query = new URL(request.url).searchParams;
  const paymentFailed = query.get('payment') === 'failed';
  // why the payment could not start, from the API's code in the URL (an unknown one says nothing more)
  const reason = paymentFailed ? paymentMessageKey(query.get('code') ?? undefined, '') || null : null;
  // the API answers the order document itself (docs/decisions/0012-spec-clients-work-unchanged.md)
  const result = await settle(api.GET('/api/orders/{id}', { params: { path: { id: orderId } } }));
  if (!result.ok && result.status === 404) throw new Response('Not found', { status: 404 });
  return { order: result.ok ? result.data : null, paymentFailed, reason, guest };
}

/**
 * Pay again for an unpaid order (the first attempt failed or was abandoned): a new transaction for the
 * same order; or, with `intent=cancel`, cancel it (a guest with the order's token too:
 * docs/decisions/0102-guest-cancel.md).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const orderId = params.orderId ?? '';
  const { api, guest } = await orderApi(request, orderId);
  // 'Pay now' may come without a body (a client posting to the page); only a form can ask to cancel
  const form = /form/i.test(request.headers.get('Content-Type') ?? '') ? await request.formData() : null;
  if (form?.get('intent') === 'cancel') {
    const result = await cancelOrder(api, orderId);
    return reply(
      result.ok
        ? { error: null, hostedForm: null, cancelled: true }
        : { error: null, hostedForm: null, cancelError: result.message, params: result.params },
      result.ok ? 200 : 409,
    );
  }
  const init = await settle(api.POST('/api/payments/initialize', { body: { orderId } }));
  const destination = init.ok ? paymentDestination(init.data, orderId) : null;
  if (!destination)
    return reply(
      {
        error: paymentMessageKey(init.ok ? undefined : init.code, 'payment.initFailed'),
        hostedForm: null,
      },
      init.ok ? 502 : init.status,
    );
  // a guest's payment pages verify with this order's token
  const headers = guest ? { 'Set-Cookie': payingOrderCookie(orderId, request) } : undefined;
  if ('redirect' in destination) return redirect(destination.redirect, { headers });
  return reply({ error: null, hostedForm: destination.hostedForm }, 200, headers);
}

const PAYABLE = ['unpaid', 'failed'];

export default function OrderConfirmation() {
  const { order, paymentFailed, reason, guest } = useLoaderData<typeof loader>();
  const data = useActionData<{
    error: string | null;
    hostedForm: PaymentInit['hostedForm'] | null;
    cancelled?: boolean;
    cancelError?: string;
    params?: Record<string, string | number>;
  }>();
  const busy = useNavigation().state !== 'idle';
  const { t } = useShop();
  if (data?.hostedForm) return <HostedForm hostedForm={data.hostedForm} />;
  if (!order)
    return (
      <section className="acc-page">
        <p className="acc-alert" role="alert">
          {t('orders.fetchOneFailed')} <Link to=".">{t('cart.retry')}</Link>
        </p>
      </section>
    );
  // pay on delivery: confirmed at once, paid to the rider; never a 'Pay now' button
  const onDelivery = isPayOnDelivery(order.paymentMethod);
  const collect = onDelivery && order.paymentStatus === 'unpaid' && order.status !== 'cancelled';
  return (
    <section className="acc-page">
      {/* 'Thank you for your order!' once it is paid or to be paid on delivery; otherwise the order and its number. */}
      <h1>
        {order.paymentStatus === 'paid' || collect ? (
          t('orders.confirmationTitle')
        ) : (
          <>
            {t('orders.orderTitle')} {orderNumberOf(order)}
          </>
        )}
      </h1>
      {order.paymentStatus === 'failed' ? (
        <p className="acc-alert" role="alert" data-testid="payment-failed">
          {t('orders.paymentFailedNotice')}
        </p>
      ) : paymentFailed && order.paymentStatus !== 'paid' ? (
        <p className="acc-alert" role="alert" data-testid="payment-init-failed">
          {/* with the reason known, the reason says what to do: no second 'try again' before it */}
          {reason && reason !== 'payment.initFailed'
            ? `${t('payment.initFailedSaved')} ${t(reason)}`
            : t('payment.initFailed')}
        </p>
      ) : order.paymentStatus === 'paid' ? (
        <p data-testid="order-thanks">{t('orders.thanks')}</p>
      ) : collect ? (
        <CollectNotice amount={order.totalAmount} number={orderNumberOf(order)} />
      ) : order.paymentStatus === 'unpaid' ? (
        <p>{t('orders.awaitingPaymentNotice')}</p>
      ) : null}
      <FormError text={data?.error} />
      {data?.cancelled ? (
        <p className="acc-success" role="status" data-testid="order-cancelled">
          {t('orders.cancelled')}
        </p>
      ) : data?.cancelError ? (
        <p className="acc-alert" role="alert">
          {message(t, data.cancelError, data.params)}
        </p>
      ) : null}
      {!onDelivery && order.status === 'pending' && PAYABLE.includes(order.paymentStatus ?? '') ? (
        <Form method="post" className="acc-actions">
          <button type="submit" className="button" disabled={busy} data-testid="pay-now">
            {order.paymentStatus === 'failed' ? t('orders.retryPayment') : t('orders.payNow')}
          </button>
        </Form>
      ) : null}
      <OrderDetails order={order} />
      {customerMayCancel(order.status) ? (
        <Form
          method="post"
          className="acc-actions"
          onSubmit={(e) => {
            if (!window.confirm(t('orders.cancelConfirm'))) e.preventDefault();
          }}
        >
          <button
            type="submit"
            name="intent"
            value="cancel"
            className="acc-link-button acc-danger-text"
            disabled={busy}
            data-testid="cancel-order"
          >
            {t('orders.cancel')}
          </button>
        </Form>
      ) : null}
      <p className="acc-actions">
        {guest ? (
          <Link className="button" to={storefrontPaths.orderLookup(order.orderNumber)}>
            {t('lookup.title')}
          </Link>
        ) : (
          <Link className="button" to={storefrontPaths.orders()}>
            {t('orders.title')}
          </Link>
        )}{' '}
        <Link to="/products">{t('cart.continueShopping')}</Link>
      </p>
      {guest ? <p className="acc-muted">{t('lookup.keepNumber')}</p> : null}
    </section>
  );
}

/** A pay-on-delivery order: the amount to pay the rider, and what to have ready. */
function CollectNotice({ amount, number }: { amount: number; number: string }) {
  const { t } = useShop();
  return (
    <div className="acc-success" role="status" data-testid="cod-notice">
      <p data-testid="order-thanks">{t('orders.codThanks', { number })}</p>
      <p>
        <strong data-testid="cod-amount">
          {t('orders.payOnDeliveryAmount')} <Money amount={amount} />
        </strong>
      </p>
      <p>{t('orders.codHaveReady')}</p>
    </div>
  );
}
