import { useLocation, useRouteLoaderData } from '@remix-run/react';
import { languageAddresses, localePath } from '../language';
import type { loader } from '../root';
import { useShop } from '../shop-context';

/**
 * In every page's head: its canonical address, its twin in each language (hreflang, x-default English),
 * and the Open Graph address and locale of the page's language (docs/decisions/0092-language-in-the-address.md).
 */
export function LanguageLinks() {
  const { lang } = useShop();
  const origin = useRouteLoaderData<typeof loader>('root')?.origin ?? '';
  const { pathname, search } = useLocation();
  const { canonical, alternates } = languageAddresses(origin, pathname, search);
  return (
    <>
      <link rel="canonical" href={canonical} />
      {alternates.map((a) => (
        <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
      ))}
      <meta property="og:url" content={canonical} />
      <meta property="og:locale" content={lang === 'am' ? 'am_ET' : 'en_US'} />
      <meta property="og:locale:alternate" content={lang === 'am' ? 'en_US' : 'am_ET'} />
    </>
  );
}

/**
 * The home page's structured data in the page's language: the shop (Organization, its logo) and the site
 * (WebSite, its search), on the address of the page's language.
 */
export function ShopJsonLd() {
  const { t, lang } = useShop();
  const origin = (useRouteLoaderData<typeof loader>('root')?.origin ?? '').replace(/\/+$/, '');
  const home = `${origin}${localePath(lang, '/')}`;
  const json = [
    {
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: t('common.shopName'),
      url: home,
      logo: `${origin}/icons/icon-512.png`,
    },
    {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: t('common.shopName'),
      url: home,
      inLanguage: lang,
      potentialAction: {
        '@type': 'SearchAction',
        target: `${origin}${localePath(lang, '/products')}?search={search_term_string}`,
        'query-input': 'required name=search_term_string',
      },
    },
  ];
  // escaped so that no text can close the script
  const text = JSON.stringify(json).replace(/</g, '\\u003c');
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: text }} />;
}
