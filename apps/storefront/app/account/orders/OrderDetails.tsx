import { Link } from '../../components/Localized';
import { lineTotalBirr, regionName, toSantim } from '@shop/shared';
import { DiscountRow } from '../checkout/coupon';
import { useShop } from '../../shop-context';
import { DateText, Money, OrderNumber, PaymentBadge, StatusBadge, TaxRow } from '../components';
import type { Order } from '@shop/api-client';
import { itemName, itemProductPath, itemVariantText, productIdOf } from './items';

/** An order as the server answers it: nothing is recomputed here. */
export function OrderDetails({ order }: { order: Order }) {
  const { t, lang } = useShop();
  const a = order.shippingAddress;
  return (
    <div className="acc-order">
      <dl className="acc-order-facts">
        <dt>{t('orders.number')}</dt>
        <dd>
          <OrderNumber order={order} />
        </dd>
        <dt>{t('orders.date')}</dt>
        <dd>
          <DateText iso={order.createdAt} />
        </dd>
        <dt>{t('orders.status')}</dt>
        <dd>
          <StatusBadge status={order.status} />{' '}
          <PaymentBadge status={order.paymentStatus} method={order.paymentMethod} />
        </dd>
        <dt>{t('orders.paymentMethod')}</dt>
        <dd>{t(`orders.paymentMethods.${order.paymentMethod}`)}</dd>
        <dt>{t('orders.shippingAddress')}</dt>
        <dd>
          <AddressText address={a} />
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
                <Link to={itemProductPath(item)}>{itemName(item, lang)}</Link>
                <LineVariant text={itemVariantText(item, lang, t)} />
              </td>
              <td>{item.quantity}</td>
              <td className="acc-money">
                <Money amount={item.priceAtPurchase} />
              </td>
              <td className="acc-money">
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
        <DiscountRow code={order.couponCode} amount={toSantim(order.discount ?? 0)} />
        <dt>{t('cart.shipping')}</dt>
        <dd>{order.shippingCost === 0 ? t('cart.free') : <Money amount={order.shippingCost} />}</dd>
        <TaxRow amount={order.tax} included={order.pricesIncludeTax === true} />
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

/** An address in the page's language: region and country translated, phone and landmark when given. */
export function AddressText({ address: a }: { address: Order['shippingAddress'] }) {
  const { t, lang } = useShop();
  const parts = [
    a.street,
    a.landmark,
    a.city,
    regionName(a.state, lang),
    a.zipCode,
    t('checkout.ethiopia'),
  ].filter(Boolean);
  return (
    <>
      {parts.join(', ')}
      {a.phone ? (
        <>
          {' '}
          · <span dir="ltr">{a.phone}</span>
        </>
      ) : null}
    </>
  );
}

/** " — Shade: Coffee" beside a line's name, when it was bought as a variant. */
export function LineVariant({ text }: { text: string }) {
  if (!text) return null;
  return (
    <>
      {' — '}
      <span className="line-variant" data-testid="line-variant">
        {text}
      </span>
    </>
  );
}
