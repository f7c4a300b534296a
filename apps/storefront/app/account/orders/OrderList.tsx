import { useNavigation } from '@remix-run/react';
import { Form, Link } from '../../components/Localized';
import { customerMayCancel, isPayOnDelivery, storefrontPaths } from '@shop/shared';
import { useShop } from '../../shop-context';
import { DateText, Money, OrderNumber, PaymentBadge, StatusBadge } from '../components';
import type { Order } from '@shop/api-client';
import { itemName, itemVariantText, productIdOf } from './items';
import { LineVariant } from './OrderDetails';

export function OrderList({ orders, actions = true }: { orders: Order[]; actions?: boolean }) {
  const { t, lang } = useShop();
  const busy = useNavigation().state !== 'idle';
  if (orders.length === 0)
    return (
      <p>
        {t('orders.none')} <Link to="/products">{t('cart.startShopping')}</Link>
      </p>
    );
  return (
    <ul className="acc-order-list">
      {orders.map((order) => (
        <li key={order._id} className="acc-order-card" data-testid="order-card" data-order-id={order._id}>
          <header>
            <Link to={storefrontPaths.order(order._id)}>
              <strong>
                <OrderNumber order={order} />
              </strong>
            </Link>
            <DateText iso={order.createdAt} />
            <StatusBadge status={order.status} />
            <PaymentBadge status={order.paymentStatus} method={order.paymentMethod} />
            <strong>
              <Money amount={order.totalAmount} />
            </strong>
          </header>
          <ul>
            {order.orderItems.map((item) => (
              <li key={item._id ?? productIdOf(item)}>
                {itemName(item, lang)}
                <LineVariant text={itemVariantText(item, lang, t)} /> × {item.quantity}
                {actions && order.status === 'delivered' ? (
                  <>
                    {' '}
                    · <Link to={`/product/${productIdOf(item)}#write-review`}>{t('orders.writeReview')}</Link>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          {isPayOnDelivery(order.paymentMethod) &&
          order.paymentStatus === 'unpaid' &&
          order.status !== 'cancelled' ? (
            <p data-testid="cod-amount">
              {t('orders.payOnDeliveryAmount')} <Money amount={order.totalAmount} />
            </p>
          ) : null}
          {actions &&
          !isPayOnDelivery(order.paymentMethod) &&
          order.status === 'pending' &&
          (order.paymentStatus === 'unpaid' || order.paymentStatus === 'failed') ? (
            <Form method="post" action={storefrontPaths.order(order._id)}>
              <button type="submit" className="button acc-pay-now" disabled={busy}>
                {t('orders.payNow')}
              </button>
            </Form>
          ) : null}
          {actions && customerMayCancel(order.status) ? (
            <Form
              method="post"
              onSubmit={(e) => {
                if (!window.confirm(t('orders.cancelConfirm'))) e.preventDefault();
              }}
            >
              <input type="hidden" name="orderId" value={order._id} />
              <button
                type="submit"
                name="intent"
                value="cancel"
                className="acc-link-button acc-danger-text"
                disabled={busy}
              >
                {t('orders.cancel')}
              </button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
