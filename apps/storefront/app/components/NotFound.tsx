import { useLocation, useSearchParams } from '@remix-run/react';
import { Link } from './Localized';
import { FALLBACK, flashFromUrl, say } from '../apiMessages';
import { useShop } from '../shop-context';

/** The not-found page, with Go back and Return home. */
export function NotFound() {
  const { t, backPath } = useShop();
  return (
    <section className="status-page" aria-labelledby="not-found-title">
      <p className="status-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">{t('errors.notFound')}</h1>
      <p>{t('errors.notFoundText')}</p>
      <p className="actions">
        {/* a link to the previous page (works without JavaScript); with JavaScript, the browser's back */}
        <a
          href={backPath ?? '/'}
          className="button secondary"
          onClick={(e) => {
            if (window.history.length > 1) {
              e.preventDefault();
              window.history.back();
            }
          }}
        >
          {t('errors.goBack')}
        </a>
        <Link to="/" className="button">
          {t('errors.returnHome')}
        </Link>
      </p>
    </section>
  );
}

/** Something failed on our side or the API's: explain and offer a retry. */
export function ErrorPage({ message }: { message?: string }) {
  const { t } = useShop();
  const location = useLocation();
  return (
    <section className="status-page" aria-labelledby="error-title" role="alert">
      <h1 id="error-title">{t('errors.somethingWrong')}</h1>
      <p>{message ?? t('errors.tryAgainLater')}</p>
      <p className="actions">
        <a href={location.pathname + location.search} className="button">
          {t('common.retry')}
        </a>
        <Link to="/" className="button secondary">
          {t('errors.returnHome')}
        </Link>
      </p>
    </section>
  );
}

/** Shown to everyone but admins while the shop is in maintenance mode. */
export function Maintenance() {
  const { t } = useShop();
  return (
    <section className="status-page" aria-labelledby="maintenance-title">
      <h1 id="maintenance-title">{t('errors.maintenanceTitle')}</h1>
      <p>{t('errors.maintenanceText')}</p>
      <p>
        {t('footer.hoursTitle')}: {t('footer.hours')}
      </p>
    </section>
  );
}

/** After a form post without JavaScript, the add-to-cart outcome comes back in the URL (`added`, `cartError`). */
export function CartFlash() {
  const { t } = useShop();
  const [params] = useSearchParams();
  // Only known codes/keys are accepted from the URL: a link cannot make the shop say anything else.
  const error = flashFromUrl(params, 'cartError', FALLBACK.addToCart, ['cart'], t);
  if (params.get('added') !== '1' && !error) return null;
  return (
    <p className={`notice flash ${error ? 'error' : 'success'}`} role="status">
      {error ? say(t, error, FALLBACK.addToCart) : t('product.addedToCart')}
    </p>
  );
}
