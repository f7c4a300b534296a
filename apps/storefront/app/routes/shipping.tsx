import type { MetaFunction } from '@remix-run/node';
import { formatMoney } from '@shop/shared';
import { titleMeta, useShop } from '../shop-context';

export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'nav.shipping')];

const LIFECYCLE = ['placed', 'processed', 'shipped', 'delivered'] as const;

export default function Shipping() {
  const { t, lang, publicSettings } = useShop();
  const { shipping } = publicSettings;
  const money = (etb: number) => (etb === 0 ? t('static.shipping.free') : formatMoney(etb, 'ETB', lang));
  const options = [
    { key: 'standard', price: money(shipping.standard), time: t('static.shipping.standardTime') },
    { key: 'express', price: money(shipping.express), time: t('static.shipping.expressTime') },
    { key: 'pickup', price: money(shipping.pickup), time: t('static.shipping.pickupTime') },
  ];
  return (
    <section className="static-page" aria-labelledby="shipping-title">
      <h1 id="shipping-title">{t('static.shipping.title')}</h1>
      <p className="lead free-shipping">
        {t('static.shipping.freeOver', { amount: formatMoney(shipping.freeShippingThreshold, 'ETB', lang) })}
      </p>

      <h2>{t('static.shipping.lifecycleTitle')}</h2>
      <ol className="lifecycle">
        {LIFECYCLE.map((step) => (
          <li key={step}>
            <strong>{t(`static.shipping.lifecycle.${step}.title`)}</strong>
            <span>{t(`static.shipping.lifecycle.${step}.text`)}</span>
          </li>
        ))}
      </ol>

      <h2>{t('static.shipping.optionsTitle')}</h2>
      <table className="shipping-options">
        <caption className="sr-only">{t('static.shipping.optionsTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('static.shipping.method')}</th>
            <th scope="col">{t('static.shipping.cost')}</th>
            <th scope="col">{t('static.shipping.deliveryTime')}</th>
          </tr>
        </thead>
        <tbody>
          {options.map((o) => (
            <tr key={o.key}>
              <th scope="row">{t(`static.shipping.${o.key}`)}</th>
              <td>{o.price}</td>
              <td>{o.time}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t('static.shipping.ethiopiaOnly')}</p>
      <h2>{t('static.shipping.taxTitle')}</h2>
      <p data-testid="tax-policy">
        {publicSettings.pricesIncludeTax ? t('static.shipping.taxIncluded') : t('static.shipping.taxAdded')}
      </p>

      <h2 id="returns">{t('static.shipping.returnsTitle')}</h2>
      <p>{t('static.shipping.returns')}</p>
      <h2>{t('static.shipping.shelfLifeTitle')}</h2>
      <p>{t('static.shipping.shelfLife')}</p>
    </section>
  );
}
