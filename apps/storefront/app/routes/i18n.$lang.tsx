import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { isLanguage, storefrontDictionary } from '@shop/i18n';

/**
 * The storefront's texts in one language, for a browser whose shopper just switched language without
 * reloading the page (root `clientLoader`); pages otherwise receive them with their HTML.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  if (!isLanguage(params.lang)) throw new Response('Not found', { status: 404 });
  return json(storefrontDictionary(params.lang), {
    headers: { 'Cache-Control': 'public, max-age=300' },
  });
}
