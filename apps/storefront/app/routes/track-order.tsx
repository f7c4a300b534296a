import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { isPayOnDelivery, parseOrderNumber, regionName } from '@shop/shared';
import { DateText, Field, Money, PaymentBadge, StatusBadge } from '../account/components';
import { FormErrors } from '../components/FormErrors';
import { hasErrors, type FieldErrors } from '../account/forms';
import { lookupOrder, validateLookup, type LookupOrder } from '../account/orders/lookup.server';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';
import type { OrderStatus } from '@shop/shared';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [
  titleMeta(matches, 'lookup.title'),
  { name: 'robots', content: 'noindex' },
];

/** The order number may come in the link (the confirmation page's); the phone never does. */
export function loader({ request }: LoaderFunctionArgs) {
  const number = parseOrderNumber(new URL(request.url).searchParams.get('number') ?? '') ?? '';
  return { number };
}

type ActionData = {
  order: LookupOrder | null;
  fieldErrors: FieldErrors;
  formError: string | null;
  values: { number: string; phone: string };
};

/** Posted (not a GET form): the phone number never lands in the address bar, the history or a log. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const { input, errors } = validateLookup(form);
  const values = { number: input.number, phone: String(form.get('phone') ?? '').trim() };
  if (hasErrors(errors))
    return reply<ActionData>({ order: null, fieldErrors: errors, formError: null, values }, 400);
  const found = await lookupOrder(request, input.number, input.phone);
  if (found.ok) return reply<ActionData>({ order: found.order, fieldErrors: {}, formError: null, values });
  // 'not found' is an answer of the search, not a missing page (the page itself is here): 200
  return reply<ActionData>(
    { order: null, fieldErrors: found.fieldErrors, formError: found.formError, values },
    found.status === 404 ? 200 : found.status,
  );
}

export default function TrackOrder() {
  const { number } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const { t } = useShop();
  const busy = useNavigation().state === 'submitting';
  return (
    <section className="acc-page acc-lookup">
      <h1>{t('lookup.title')}</h1>
      <p>{t('lookup.intro')}</p>
      <Form method="post" noValidate className="acc-form" data-testid="lookup-form">
        <FormErrors formError={data?.formError} fieldErrors={data?.fieldErrors} answer={data} />
        <Field
          name="number"
          label={t('lookup.number')}
          defaultValue={data?.values.number ?? number}
          hint={t('lookup.numberHint')}
          error={data?.fieldErrors.number}
        />
        <Field
          name="phone"
          type="tel"
          label={t('lookup.phone')}
          autoComplete="tel"
          defaultValue={data?.values.phone}
          hint={t('lookup.phoneHint')}
          error={data?.fieldErrors.phone}
        />
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('lookup.searching') : t('lookup.submit')}
        </button>
      </Form>
      {data?.order ? <FoundOrder order={data.order} /> : null}
      <p className="acc-muted">
        {t('lookup.haveAccount')} <Link to="/orders">{t('orders.title')}</Link>
      </p>
    </section>
  );
}

/** The order's state as the lookup answers it: status, payment, items, total and where it goes. */
function FoundOrder({ order }: { order: LookupOrder }) {
  const { t, lang } = useShop();
  const collect = isPayOnDelivery(order.paymentMethod) && order.paymentStatus === 'unpaid';
  return (
    <article className="acc-order acc-lookup-result" data-testid="lookup-result" aria-live="polite">
      <h2>
        {t('orders.orderTitle')} <span data-testid="order-number">{order.orderNumber}</span>
      </h2>
      <dl className="acc-order-facts">
        {order.createdAt ? (
          <>
            <dt>{t('orders.date')}</dt>
            <dd>
              <DateText iso={order.createdAt} />
            </dd>
          </>
        ) : null}
        <dt>{t('orders.status')}</dt>
        <dd>
          <StatusBadge status={order.status as OrderStatus} />{' '}
          <PaymentBadge status={order.paymentStatus} method={order.paymentMethod} />
        </dd>
        <dt>{t('orders.paymentMethod')}</dt>
        <dd>{t(`orders.paymentMethods.${order.paymentMethod}`)}</dd>
        {order.city || order.region ? (
          <>
            <dt>{t('lookup.deliverTo')}</dt>
            <dd>
              {[order.city, order.region ? regionName(order.region, lang) : ''].filter(Boolean).join(', ')}
            </dd>
          </>
        ) : null}
        <dt>{t('cart.total')}</dt>
        <dd data-testid="order-total">
          <strong>
            <Money amount={order.totalAmount} />
          </strong>
        </dd>
      </dl>
      {collect && order.status !== 'cancelled' ? (
        <p data-testid="cod-amount">
          <strong>
            {t('orders.payOnDeliveryAmount')} <Money amount={order.totalAmount} />
          </strong>
        </p>
      ) : null}
      <ul className="acc-summary-lines">
        {order.items.map((item, i) => (
          <li key={`${item.name}-${i}`}>
            {(lang === 'am' && item.nameAm) || item.name} × {item.quantity}
          </li>
        ))}
      </ul>
      {order.statusHistory.length > 0 ? (
        <>
          <h3>{t('lookup.history')}</h3>
          <ol className="acc-history" data-testid="lookup-history">
            {order.statusHistory.map((h, i) => (
              <li key={`${h.status}-${i}`}>
                {t(`orders.statuses.${h.status}`)} — <DateText iso={h.at} />
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </article>
  );
}
