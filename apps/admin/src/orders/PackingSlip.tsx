import { useTranslate } from 'react-admin';
import { useFormat } from '../format';
import {
  addressLines,
  customerOf,
  lineName,
  linesOf,
  orderLabel,
  orderPhone,
  personLabel,
  type OrderRecord,
} from './orderFields';
import { regionName } from '@shop/shared';
import { lineVariantText } from './lineVariant';
import { paymentMethodKey, slipPayment, slipPaymentText } from './payment';

/**
 * Print stylesheet: on paper only the packing slip shows (the app bar, menu and screen view are
 * hidden); on screen the slip is hidden.
 */
export const PRINT_STYLES = {
  '@media screen': { '.packing-slip': { display: 'none' } },
  '@media print': {
    '@page': { size: 'A5 portrait', margin: '10mm' },
    'body *': { visibility: 'hidden' },
    '.packing-slip, .packing-slip *': { visibility: 'visible' },
    '.packing-slip': {
      display: 'block',
      position: 'absolute',
      left: 0,
      top: 0,
      width: '100%',
      color: '#000',
      background: '#fff',
      fontSize: '11pt',
    },
    '.packing-slip table': { width: '100%', borderCollapse: 'collapse' },
    '.packing-slip th, .packing-slip td': {
      borderBottom: '1px solid #999',
      padding: '4px 2px',
      textAlign: 'left',
    },
    '.packing-slip .qty': { textAlign: 'right', width: '4em' },
    '.packing-slip .check': { width: '2em' },
    '.packing-slip h1': { fontSize: '16pt', margin: '0 0 4px' },
    '.packing-slip .to': { border: '2px solid #000', padding: '6px', margin: '8px 0' },
  },
};

/** What a packer packs and a rider needs: the order number, who and where (phone, address with landmark), the lines and quantities. */
export function PackingSlip({ order }: { order: OrderRecord }) {
  const t = useTranslate();
  const { lang, money, dateTime } = useFormat();
  const customer = customerOf(order);
  const address = order.shippingAddress ?? {};
  const phone = orderPhone(order);
  const lines = linesOf(order);
  const units = lines.reduce((n, l) => n + l.quantity, 0);
  return (
    <section
      className="packing-slip"
      data-testid="packing-slip"
      aria-label={t('shop.admin.orders.packingSlip')}
    >
      <h1>
        ✿ {t('shop.admin.common.shopName')} · {t('shop.admin.orders.packingSlip')}
      </h1>
      <p>
        <strong data-testid="slip-number">{orderLabel(order)}</strong> · {dateTime(order.createdAt)} ·{' '}
        {order.shippingMethod ? t(`shop.admin.orders.shippingMethods.${order.shippingMethod}`) : ''}
      </p>
      <div className="to" data-testid="slip-address">
        <strong>{personLabel(customer)}</strong>
        {phone && <div>☎ {phone}</div>}
        {addressLines(address, (r) => regionName(r, lang)).map((line) => (
          <div key={line}>{line}</div>
        ))}
      </div>
      <table>
        <thead>
          <tr>
            <th className="check">✓</th>
            <th>{t('shop.admin.orders.product')}</th>
            <th className="qty">{t('shop.admin.orders.quantity')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={l._id ?? i} data-testid="slip-line">
              <td className="check">☐</td>
              <td>
                {lineName(l, lang)}
                {lineVariantText(l, lang, t('shop.admin.orders.sku')) && (
                  <div data-testid="slip-variant">{lineVariantText(l, lang, t('shop.admin.orders.sku'))}</div>
                )}
              </td>
              <td className="qty">{l.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        {t('shop.admin.orders.units', { smart_count: units })} · {t('shop.admin.orders.total')}:{' '}
        {money(order.totalAmount)} · {t(paymentMethodKey(order.paymentMethod))} ·{' '}
        <strong data-testid="slip-payment" data-collect={slipPayment(order).kind}>
          {slipPaymentText(order, t, money)}
        </strong>
      </p>
    </section>
  );
}
