import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/node';
import { Form, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData, useLocation, useRouteError, useRouteLoaderData } from '@remix-run/react';
import { createTranslator, type Language } from '@shop/i18n';
import { env } from './env.server';
import { languageFromCookie } from './language';
import styles from './styles.css?url';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request }: LoaderFunctionArgs) {
  return { lang: languageFromCookie(request.headers.get('Cookie')), apiOrigin: env.publicApiOrigin };
}

export function useShop() {
  const data = useRouteLoaderData<typeof loader>('root');
  const lang: Language = data?.lang ?? 'en';
  return { lang, t: createTranslator(lang), apiOrigin: data?.apiOrigin ?? '' };
}

function Shell({ children }: { children: React.ReactNode }) {
  const { lang, t } = useShop();
  const location = useLocation();
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{t('common.shopName')}</title>
        <Meta />
        <Links />
      </head>
      <body>
        <header className="header">
          <Link to="/" className="logo">{t('common.shopName')}</Link>
          <nav>
            <Link to="/">{t('nav.home')}</Link>
            <Link to="/products">{t('nav.products')}</Link>
          </nav>
          <Form method="post" action="/language" className="language">
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <label>
              <span className="sr-only">{t('common.language')}</span>
              <select name="lang" defaultValue={lang} onChange={(e) => {
                window.localStorage.setItem('language', e.currentTarget.value);
                e.currentTarget.form?.requestSubmit();
              }}>
                <option value="en">{t('common.english')}</option>
                <option value="am">{t('common.amharic')}</option>
              </select>
            </label>
            <noscript><button type="submit">{t('common.language')}</button></noscript>
          </Form>
        </header>
        <main>{children}</main>
        <footer className="footer">
          <p>{t('footer.contact')}</p>
          <p>{t('footer.hours')} · {t('footer.delivery')}</p>
          <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
        </footer>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  return <Shell>{children}</Shell>;
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useShop();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="notice">
      <h1>{notFound ? t('errors.notFound') : t('errors.loadingProducts')}</h1>
      <p><Link to="/">{t('errors.returnHome')}</Link></p>
    </section>
  );
}
