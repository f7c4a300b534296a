import { useFetcher, useLoaderData, useNavigate } from '@remix-run/react';
import { Form, Link, useLocalePath } from '../../components/Localized';
import { useEffect } from 'react';
import { useShop } from '../../shop-context';
import { Spinner } from '../components';
import type { VerifyOutcome } from './verify.server';

export type PaymentPageData = {
  txRef: string | null;
  outcome: VerifyOutcome | null;
  checkUrl: string;
  /** a guest paying with the order's token: no 'My orders', the lookup page instead */
  guest?: boolean;
};

/**
 * The payment return and callback pages: a spinner while the server verifies the transaction, then
 * 'Payment Successful!' (and the order confirmation 1.5 s later) or the failure message.
 */
export function PaymentStatus() {
  const data = useLoaderData<PaymentPageData>();
  const fetcher = useFetcher<PaymentPageData>();
  const navigate = useNavigate();
  const localize = useLocalePath();
  const { t } = useShop();
  const outcome = fetcher.data?.outcome ?? data.outcome;

  useEffect(() => {
    if (!data.outcome && fetcher.state === 'idle' && !fetcher.data) fetcher.load(data.checkUrl);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the fetcher is a new object every render; this runs once per page
  }, [data.outcome, data.checkUrl]);

  useEffect(() => {
    if (outcome?.state === 'paid' && outcome.orderId) {
      const timer = setTimeout(() => navigate(localize(`/order-confirmation/${outcome.orderId}`)), 1500);
      return () => clearTimeout(timer);
    }
    if (outcome?.state === 'pending') {
      const timer = setTimeout(() => fetcher.load(data.checkUrl), 3000);
      return () => clearTimeout(timer);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fetcher and navigate change identity every render; the timers follow the outcome only
  }, [outcome, data.checkUrl]);

  if (!outcome) {
    return (
      <section className="acc-page acc-payment">
        <noscript>
          <meta httpEquiv="refresh" content={`0;url=${data.checkUrl}`} />
        </noscript>
        <Spinner label={t('payment.verifying')} />
      </section>
    );
  }
  if (outcome.state === 'paid') {
    return (
      <section className="acc-page acc-payment">
        {outcome.orderId ? (
          <noscript>
            <meta httpEquiv="refresh" content={`2;url=/order-confirmation/${outcome.orderId}`} />
          </noscript>
        ) : null}
        <h1 className="acc-success">{t('payment.success')}</h1>
        {outcome.orderNumber ? <OrderLine number={outcome.orderNumber} /> : null}
        <p>{t('payment.redirecting')}</p>
        {outcome.orderId ? (
          <Link to={`/order-confirmation/${outcome.orderId}`}>{t('payment.viewOrder')}</Link>
        ) : null}
      </section>
    );
  }
  if (outcome.state === 'pending') {
    return (
      <section className="acc-page acc-payment">
        <noscript>
          <meta httpEquiv="refresh" content={`3;url=${data.checkUrl}`} />
        </noscript>
        <Spinner label={t(outcome.message)} />
      </section>
    );
  }
  return (
    <section className="acc-page acc-payment">
      <div role="alert">
        <h1 className="acc-failure">{t(outcome.message)}</h1>
      </div>
      {outcome.orderNumber ? <OrderLine number={outcome.orderNumber} /> : null}
      {/* a failed payment took no money: said first, then the ways on, one per line (pay again, another
          way on Chapa's page, help) */}
      <p data-testid="nothing-charged">{t('payment.nothingCharged')}</p>
      {outcome.orderId ? (
        <Form method="post" action={`/order-confirmation/${outcome.orderId}`} className="acc-pay-again">
          <button type="submit" className="button" data-testid="pay-now">
            {t('orders.retryPayment')}
          </button>
          <small className="acc-muted">{t('payment.otherWay')}</small>
        </Form>
      ) : null}
      <p>
        <Link to="/contact" data-testid="contact-us">
          {t('payment.needHelp')}
        </Link>
      </p>
      <p>
        {outcome.orderId ? (
          <Link to={`/order-confirmation/${outcome.orderId}`}>{t('payment.viewOrder')}</Link>
        ) : null}{' '}
        {data.guest ? (
          <Link to="/track-order">{t('lookup.title')}</Link>
        ) : (
          <Link to="/orders">{t('orders.title')}</Link>
        )}{' '}
        · <Link to="/cart">{t('cart.title')}</Link>
      </p>
    </section>
  );
}

function OrderLine({ number }: { number: string }) {
  const { t } = useShop();
  return (
    <p>
      {t('orders.number')}: <strong data-testid="order-number">{number}</strong>
    </p>
  );
}
