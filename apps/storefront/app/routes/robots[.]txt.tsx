import type { LoaderFunctionArgs } from '@remix-run/node';
import { env } from '../env.server';
import { robotsTxt } from '../sitemap.server';

/** /robots.txt: personal pages (cart, checkout, account) not crawled, and where the sitemap is (docs/decisions/0092). */
export function loader({ request }: LoaderFunctionArgs) {
  const origin = env.storefrontUrl || new URL(request.url).origin;
  return new Response(robotsTxt(origin), {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=86400, s-maxage=86400',
    },
  });
}
