import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { storefrontPaths } from '@shop/shared';

/**
 * The order links of messages sent before the storefront route table (`/account/orders/<id>`, a page
 * the storefront never had): sent on to the order's page (docs/decisions/0077-links-and-message-language.md).
 */
export const loader = ({ params }: LoaderFunctionArgs) =>
  redirect(storefrontPaths.order(params.orderId ?? ''), 301);
