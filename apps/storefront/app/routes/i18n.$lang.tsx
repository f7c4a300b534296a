import type { LoaderFunctionArgs } from '@remix-run/node';
import { isLanguage } from '@shop/i18n';
import { textsCoding, textsOf } from '../texts.server';

/**
 * The storefront's texts in one language (docs/decisions/0104-texts-out-of-the-page.md): fetched by the
 * browser before it hydrates a page (entry.client.tsx) and after a change of language. Asked for at
 * their current version (`?v=`, root loader's `texts`) they never change: kept a year. Without it, or at
 * an old version (a page rendered before a release), they are the current texts, kept five minutes.
 * Sent compressed as they were once at start (brotli at its best quality, else gzip).
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  if (!isLanguage(params.lang)) throw new Response('Not found', { status: 404 });
  const { bytes, version } = textsOf(params.lang);
  const current = new URL(request.url).searchParams.get('v') === version;
  const coding = textsCoding(request.headers.get('Accept-Encoding'));
  const headers = new Headers({
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': current ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    Vary: 'Accept-Encoding',
  });
  if (coding !== 'identity') headers.set('Content-Encoding', coding);
  return new Response(bytes[coding] as unknown as BodyInit, { headers });
}
