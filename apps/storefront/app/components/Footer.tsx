import { Link } from './Localized';
import { useShop } from '../shop-context';

export function Footer() {
  const { t, year } = useShop();
  return (
    <footer className="footer">
      <div className="footer-grid">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">{t('footer.contactTitle')}</h2>
          <address>
            <p>{t('footer.address')}</p>
            <p>
              <a href="tel:+251911000000">+251 911 000 000</a>
            </p>
            <p>
              <a href="mailto:hello@beauty.et">hello@beauty.et</a>
            </p>
          </address>
          <p>
            <strong>{t('footer.hoursTitle')}:</strong> {t('footer.hours')}
          </p>
        </section>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick">{t('footer.quickLinks')}</h2>
          <ul>
            <li>
              <Link to="/">{t('nav.home')}</Link>
            </li>
            <li>
              <Link to="/products">{t('nav.products')}</Link>
            </li>
            <li>
              <Link to="/about">{t('nav.about')}</Link>
            </li>
            <li>
              <Link to="/contact">{t('nav.contact')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-service">
          <h2 id="footer-service">{t('footer.customerService')}</h2>
          <ul>
            <li>
              <Link to="/faq">{t('nav.faq')}</Link>
            </li>
            <li>
              <Link to="/shipping">{t('nav.shipping')}</Link>
            </li>
            <li>
              <Link to="/shipping#returns">{t('footer.returns')}</Link>
            </li>
            <li>
              <Link to="/orders">{t('footer.myOrders')}</Link>
            </li>
            <li>
              <Link to="/track-order">{t('lookup.title')}</Link>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="footer-about">
          <h2 id="footer-about">{t('common.shopName')}</h2>
          <p>{t('footer.tagline')}</p>
          <p>{t('footer.delivery')}</p>
        </section>
      </div>
      <p className="copyright">{t('footer.rights', { year })}</p>
    </footer>
  );
}
