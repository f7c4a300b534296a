import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import type { ClientLoaderFunctionArgs } from '@remix-run/react';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import { translatorOver } from '@shop/i18n';
import { calendarYear } from '@shop/shared';
// the Latin faces' common part (ASCII and the shop's typographic marks: docs/decisions/0100)
import latinFontFile from './fonts/latin-400.woff2?url';
import latinFontBoldFile from './fonts/latin-700.woff2?url';
import amharicFontFile from './fonts/amharic-400.woff2?url';
import amharicFontBoldFile from './fonts/amharic-700.woff2?url';
import { useEffect, useState } from 'react';
import { dictionaryOf, fetchDictionary, useShop } from './shop-context';
import { textsUrl } from './texts.server';
import { Deferred, pageHydrated } from './components/Deferred';
import { Footer } from './components/Footer';
import { Header } from './components/Header';
import { Toast } from './components/Toast';
import { CartFlash, ErrorPage, Maintenance, NotFound } from './components/NotFound';
import { env } from './env.server';
import { languageOfPath, withoutLanguage } from './language';
import { LanguageLinks } from './components/LanguageLinks';
import { publicSettings as readPublicSettings } from './products.server';
import { shopperSummary } from './session.server';
import { isPageTemplate, shopperFields, type ShopperFields } from './shopper-fields.server';
import { TEMPLATE_KEY } from './personal-slots';
import styles from './styles.css?url';
import amharicPagesFonts from './fonts/amharic-pages.css?inline';
import englishPagesFonts from './fonts/english-pages.css?inline';

export const links: LinksFunction = () => [
  // Every page shows Latin text (prices, brands, English): fetching its two small font files with the
  // stylesheets, not after them, lets the text get its final font before it is first painted.
  { rel: 'preload', href: latinFontFile, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'preload', href: latinFontBoldFile, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

/** Paths that stay reachable in maintenance mode, so that an admin can still sign in. */
const MAINTENANCE_OPEN_PATHS = ['/signin', '/logout', '/language'];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const cookieHeader = request.headers.get('Cookie');
  // the page's language is in its address (/am/…), docs/decisions/0092-language-in-the-address.md
  const lang = languageOfPath(new URL(request.url).pathname);
  const langCookie = /(?:^|;\s*)language=(en|am)(?:;|$)/.test(cookieHeader ?? '');
  // the template of a kept page's personal forms: no shopper, a token where their fields go (docs/decisions/0107)
  const template = isPageTemplate(context);
  // the header's shopper in one call (none for a visitor without a session or a cart): docs/decisions/0105
  const [shopper, settings] = await Promise.all([
    template ? null : shopperSummary(request),
    readPublicSettings(request),
  ]);
  const url = new URL(request.url);
  const path = url.pathname;
  const maintenance =
    settings.maintenanceMode &&
    shopper?.user?.role !== 'admin' &&
    !MAINTENANCE_OPEN_PATHS.some((p) => withoutLanguage(path).startsWith(p));
  // 503 while closed for maintenance, so that search engines keep the pages they know
  return json(
    {
      lang,
      // the public origin of canonical and hreflang addresses (STOREFRONT_URL, else the request's)
      origin: env.storefrontUrl || url.origin,
      // the address of the page's texts, fetched by the browser before it hydrates the page (not in the page:
      // docs/decisions/0104-texts-out-of-the-page.md)
      texts: textsUrl(lang),
      langCookie,
      // backPath, user, cartCount, wishlistCount, cartQuantities, wishlistIds (app/shopper-fields.server.ts)
      ...(shopper
        ? shopperFields(request, url, shopper)
        : ({ [TEMPLATE_KEY]: 1 } as unknown as ShopperFields)),
      publicSettings: settings,
      maintenance,
      adminUrl: env.adminUrl,
      // the footer's copyright year in the page's calendar, written here: in the browser, the first Intl
      // date format of a page costs tens of milliseconds (it loads ICU's data)
      year: calendarYear(new Date(), lang),
      // the phone asks to save data: small photos and no auto-advancing slider (docs/decisions/0093)
      saveData: /^on$/i.test(request.headers.get('Save-Data')?.trim() ?? ''),
    },
    maintenance ? { status: 503, headers: { 'Retry-After': '3600' } } : undefined,
  );
}

/** In the browser: the root data, once the texts of its language are there (fetched when the language changed). */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>();
  await fetchDictionary(data.lang, data.texts);
  return data;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { lang } = useShop();
  // the document's own texts: a later change of language fetches its texts itself (clientLoader), so the
  // preload stays the one the page was loaded with (a new one would only fetch them a second time)
  const [texts] = useState(useRouteLoaderData<typeof loader>('root')?.texts);
  useEffect(() => {
    document.documentElement.dataset.js = 'true';
    pageHydrated();
  }, []);
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* installable: the web app manifest in the page's language, the brand's colour and icon
            (public/manifest.webmanifest, public/am/; docs/decisions/0094-pwa.md) */}
        <link rel="manifest" href={lang === 'am' ? '/am/manifest.webmanifest' : '/manifest.webmanifest'} />
        <meta name="theme-color" content="#3f6b2c" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        {/* Amharic pages: their Ethiopic text gets its font before the first layout, which is then done once
            and without a search of the system's fonts for Ethiopic glyphs (docs/decisions/0089) */}
        {lang === 'am'
          ? [amharicFontFile, amharicFontBoldFile].map((href) => (
              <link
                key={href}
                rel="preload"
                href={href}
                as="font"
                type="font/woff2"
                crossOrigin="anonymous"
              />
            ))
          : null}
        {/* the page's texts, which the scripts need to hydrate it: fetched beside them, not after them, but
            after what the first paint needs (the stylesheet, the fonts) */}
        {texts ? (
          <link
            rel="preload"
            href={texts}
            as="fetch"
            crossOrigin="anonymous"
            {...({ fetchpriority: 'low' } as unknown as React.LinkHTMLAttributes<HTMLLinkElement>)}
          />
        ) : null}
        <Meta />
        <LanguageLinks />
        <Links />
        {/* Noto Sans Ethiopic (scripts/fonts.mjs): Amharic pages its basic Ethiopic block (16 KB per
            weight, a phone's own copy first) and Latin faces; English pages its Latin faces and only the
            glyphs of the language switch's 'አማርኛ'. The @font-face rules are in the page (no stylesheet
            request before the first paint). */}
        <style dangerouslySetInnerHTML={{ __html: lang === 'am' ? amharicPagesFonts : englishPagesFonts }} />
      </head>
      <body>
        <Header />
        <main id="main" tabIndex={-1}>
          <CartFlash />
          {children}
        </main>
        <Deferred>
          <Footer />
        </Deferred>
        <Toast />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  const t = translatorOver(dictionaryOf(data?.lang ?? 'en') ?? {});
  if (data?.maintenance) return [{ title: t('errors.maintenanceTitle') }];
  if (error)
    return [
      {
        title:
          isRouteErrorResponse(error) && error.status === 404
            ? t('errors.notFound')
            : t('errors.somethingWrong'),
      },
    ];
  return [{ title: t('common.shopName') }];
};

export default function App() {
  const { maintenance } = useShop();
  return maintenance ? <Maintenance /> : <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  return isRouteErrorResponse(error) && error.status === 404 ? <NotFound /> : <ErrorPage />;
}
