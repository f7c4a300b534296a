import type { LoaderFunctionArgs } from '@remix-run/node';
import { env } from '../env.server';
import { sitemapPages, sitemapXml } from '../sitemap.server';

/**
 * /sitemap.xml: both languages' pages with their alternates, products with `lastmod` (docs/decisions/0092).
 * A CDN may keep it an hour; when the API does not answer, a 503 that nobody keeps.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const pages = await sitemapPages(request);
  if (!pages)
    return new Response('The sitemap is not available right now.', {
      status: 503,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
        'Retry-After': '60',
      },
    });
  const origin = env.storefrontUrl || new URL(request.url).origin;
  return new Response(sitemapXml(origin, pages), {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600, s-maxage=3600, stale-while-revalidate=86400',
    },
  });
}
