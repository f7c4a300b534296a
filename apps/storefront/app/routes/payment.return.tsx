import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { paymentPageLoader } from '../account/payment/payment-page.server';
import { PaymentStatus } from '../account/payment/PaymentStatus';
import { titleMeta } from '../shop-context';
import accountStyles from '../account.css?url';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [
  titleMeta(matches, 'payment.title'),
  { name: 'robots', content: 'noindex' },
];
export const loader = ({ request }: LoaderFunctionArgs) => paymentPageLoader(request);
export default PaymentStatus;
