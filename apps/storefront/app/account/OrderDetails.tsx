import { Link } from '@remix-run/react';
import { lineTotalBirr } from '@shop/shared';
import { useShop } from '../shop-context';
import { Money, StatusBadge, formatDate } from './components';
import { itemName, productIdOf, type OrderView } from './types';

/** An order as the server answers it: nothing is recomputed here. */
export function OrderDetails({ order }: { order: OrderView }) {
  const { t, lang } = useShop();
  const a = order.shippingAddress;
  return (
    <div className="acc-order">
      <dl className="acc-order-facts">
        <dt>{t('orders.number')}</dt>
        <dd data-testid="order-number">{order._id}</dd>
        <dt>{t('orders.date')}</dt>
        <dd>{formatDate(order.createdAt)}</dd>
        <dt>{t('orders.status')}</dt>
        <dd>
          <StatusBadge status={order.status} />
        </dd>
        <dt>{t('orders.paymentMethod')}</dt>
        <dd>
          {t(`orders.paymentMethods.${order.paymentMethod}`)}
          {order.paymentStatus ? ` · ${t(`orders.paymentStatuses.${order.paymentStatus}`)}` : ''}
        </dd>
        <dt>{t('orders.shippingAddress')}</dt>
        <dd>
          {a.street}, {a.city}, {a.state} {a.zipCode}, {a.country}
        </dd>
      </dl>
      <table className="acc-table">
        <thead>
          <tr>
            <th>{t('orders.item')}</th>
            <th>{t('orders.quantity')}</th>
            <th>{t('orders.price')}</th>
            <th>{t('orders.lineTotal')}</th>
          </tr>
        </thead>
        <tbody>
          {order.orderItems.map((item) => (
            <tr key={item._id ?? productIdOf(item)}>
              <td>
                <Link to={`/product/${productIdOf(item)}`}>{itemName(item, lang)}</Link>
              </td>
              <td>{item.quantity}</td>
              <td>
                <Money amount={item.priceAtPurchase} />
              </td>
              <td>
                <Money amount={lineTotalBirr(item.priceAtPurchase, item.quantity)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="acc-totals">
        <dt>{t('cart.subtotal')}</dt>
        <dd>
          <Money amount={order.subtotal} />
        </dd>
        <dt>{t('cart.shipping')}</dt>
        <dd>
          <Money amount={order.shippingCost} />
        </dd>
        <dt>{t('cart.tax')}</dt>
        <dd>
          <Money amount={order.tax} />
        </dd>
        <dt>{t('cart.total')}</dt>
        <dd data-testid="order-total">
          <strong>
            <Money amount={order.totalAmount} />
          </strong>
        </dd>
      </dl>
    </div>
  );
}
