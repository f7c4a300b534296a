import type { MetaFunction } from '@remix-run/node';
import { Link } from '../components/Localized';
import { titleMeta, useShop } from '../shop-context';

export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'nav.about')];

export default function About() {
  const { t } = useShop();
  return (
    <section className="static-page" aria-labelledby="about-title">
      <h1 id="about-title">{t('static.about.title')}</h1>
      <p className="lead">{t('static.about.intro')}</p>
      <h2>{t('static.about.storyTitle')}</h2>
      <p>{t('static.about.story')}</p>
      <h2>{t('static.about.valuesTitle')}</h2>
      <ul className="values">
        {[0, 1, 2, 3].map((i) => (
          <li key={i}>
            <strong>{t(`static.about.values.${i}.title`)}</strong> — {t(`static.about.values.${i}.text`)}
          </li>
        ))}
      </ul>
      <p className="actions">
        <Link to="/products" className="button">
          {t('home.ctaButton')}
        </Link>
        <Link to="/contact" className="button secondary">
          {t('nav.contact')}
        </Link>
      </p>
    </section>
  );
}
