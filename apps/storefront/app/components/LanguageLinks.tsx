import { useLocation, useRouteLoaderData } from '@remix-run/react';
import { languageAddresses } from '../language';
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
