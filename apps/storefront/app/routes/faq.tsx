import type { MetaFunction } from '@remix-run/node';
import { Link } from '../components/Localized';
import { titleMeta, useShop } from '../shop-context';

export const FAQ_COUNT = 6;

export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'nav.faq')];

export default function Faq() {
  const { t } = useShop();
  return (
    <section className="static-page" aria-labelledby="faq-title">
      <h1 id="faq-title">{t('static.faq.title')}</h1>
      <div className="faq-list">
        {Array.from({ length: FAQ_COUNT }, (_, i) => (
          <details key={i} open={i === 0}>
            <summary>{t(`static.faq.items.${i}.q`)}</summary>
            <p>{t(`static.faq.items.${i}.a`)}</p>
          </details>
        ))}
      </div>
      <p>
        {t('static.faq.more')} <Link to="/contact">{t('nav.contact')}</Link>
      </p>
    </section>
  );
}
